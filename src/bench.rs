//! `otrera bench`: searches fixed positions with a fixed playout budget and seed.
//!
//! At one thread the total of positions visited ("Nodes searched") depends only on the search's
//! behaviour, so it is a signature: a change that alters it changes how the engine searches. The
//! speeds printed with it are the machine's and vary from run to run.

use crate::engine::{Engine, Go};
use crate::eval::win_probability;
use crate::player_kind::PlayerKind;
use crate::position::Position;
use crate::settings::Settings;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The bench positions: the 10x10 start, positions along a game of the engine against itself,
/// and the 8x8 start.
pub const POSITIONS: [&str; 7] = [
    "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w",
    "10/10/x3B1W3/2Bx5B/8x1/xx8/W1x2W4/1x5B2/6W3/5x4 w",
    "5xB3/3B4x1/x4x1W2/2Wxx1x3/1x6x1/xx8/Wxx7/xx5B2/3B2W3/5x4 w",
    "5x1x2/3B3xx1/x3xxB2x/2Wxx1x3/1xx4xx1/xx8/Wxx2x4/xx1W1Bx2B/6W3/5x4 w",
    "2x2x1x2/3B3xx1/x1W1xxB2x/2xxxxx3/1xx4xx1/xx6x1/WxxWxxBxW1/xx4x2B/5x4/5x1x2 w",
    "2x2x1x2/1BWx2Bxx1/x3xx3x/x1xxxxx3/1xx4xxx/xx1xB2xx1/WxxWxx1x2/xx3xxxWB/5x2x1/5x1x2 w",
    "2B2B2/8/B6B/8/8/W6W/8/2W2W2 w",
];

/// Bench settings.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Search threads.
    pub threads: usize,
    /// Playouts per position.
    pub playouts: u64,
    /// Search only this position instead of the fixed set.
    pub position: Option<Position>,
    /// Tree memory in MiB.
    pub memory_mb: usize,
    /// The hand-set or the learned weights (by default the engine's default).
    pub weights: crate::learn::weights::WeightsChoice,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            threads: 1,
            playouts: 20_000,
            position: None,
            memory_mb: 256,
            weights: crate::learn::weights::DEFAULT_WEIGHTS,
        }
    }
}

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchResult {
    /// Positions visited (tree nodes walked plus playout moves), the signature at one thread.
    pub nodes: u64,
    /// Playouts run.
    pub playouts: u64,
    /// Search time.
    pub elapsed: Duration,
    /// Cost of one evaluation of a playout cut-off with the chosen weights, nanoseconds (the
    /// machine's, like the speeds).
    pub eval_ns: f64,
    /// Cost of one linear evaluation, nanoseconds, for comparison.
    pub linear_eval_ns: f64,
}

/// Nanoseconds per call of `f` over `positions`, from enough calls to take about 50 ms.
fn time_per_eval(positions: &[Position], f: impl Fn(&Position) -> f32) -> f64 {
    let mut calls = 0u64;
    let start = Instant::now();
    let mut sink = 0.0f32;
    while start.elapsed() < Duration::from_millis(50) {
        for p in positions {
            sink += f(std::hint::black_box(p));
            calls += 1;
        }
    }
    std::hint::black_box(sink);
    start.elapsed().as_nanos() as f64 / calls.max(1) as f64
}

/// Runs the bench, writing one line per position and the totals to `out`. The searches go
/// through the engine facade (`Engine::go` and `wait`), as the protocol's do.
pub fn run(options: &BenchOptions, out: &mut dyn Write) -> io::Result<BenchResult> {
    let positions: Vec<Position> = match &options.position {
        Some(p) => vec![p.clone()],
        None => POSITIONS
            .iter()
            .map(|s| s.parse().expect("bench positions are valid"))
            .collect(),
    };
    let mut engine = Engine::new(Settings {
        threads: options.threads,
        memory_mb: options.memory_mb,
        seed: Some(1),
        playouts: Some(options.playouts),
        player: PlayerKind::Mcts,
        resign: None,
        weights: options.weights.clone(),
        // The signature measures the tree search alone.
        solver_empty: 0,
        ..Settings::default()
    });
    let mut total = BenchResult::default();
    for (i, pos) in positions.iter().enumerate() {
        // A new game: the player starts from an empty tree.
        engine.set_position(pos.clone());
        let go = Go::Genmove {
            color: pos.side_to_move(),
            play: false,
            started: Instant::now(),
        };
        let result = engine
            .go(go)
            .and_then(|_| engine.wait())
            .map_err(io::Error::other)?;
        let r = &result.decision.report;
        let secs = r.elapsed.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "Position {}/{}: {} playouts, {} nodes, {:.0} playouts/s, best {}",
            i + 1,
            positions.len(),
            r.playouts,
            r.nodes,
            r.playouts as f64 / secs,
            result
                .decision
                .mv
                .map_or("none".to_string(), |m| m.to_string()),
        )?;
        total.nodes += r.nodes;
        total.playouts += r.playouts;
        total.elapsed += r.elapsed;
    }
    let secs = total.elapsed.as_secs_f64().max(1e-9);
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {}", total.elapsed.as_millis())?;
    writeln!(out, "Playouts/second: {:.0}", total.playouts as f64 / secs)?;
    writeln!(out, "Nodes searched: {}", total.nodes)?;
    writeln!(out, "Nodes/second: {:.0}", total.nodes as f64 / secs)?;
    let params = options.weights.search_params();
    total.linear_eval_ns = time_per_eval(&positions, |p| win_probability(p, &params.eval));
    match &params.net {
        Some(net) => {
            total.eval_ns = time_per_eval(&positions, |p| net.win_probability(p, &params.eval));
            writeln!(
                out,
                "Evaluation: {:.0} ns (network; linear {:.0} ns)",
                total.eval_ns, total.linear_eval_ns
            )?;
        }
        None => {
            total.eval_ns = total.linear_eval_ns;
            writeln!(out, "Evaluation: {:.0} ns (linear)", total.eval_ns)?;
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_signature_is_reproducible() {
        let options = BenchOptions {
            playouts: 300,
            memory_mb: 16,
            ..BenchOptions::default()
        };
        let mut text = Vec::new();
        let a = run(&options, &mut text).unwrap();
        let b = run(&options, &mut Vec::new()).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.playouts, 300 * POSITIONS.len() as u64);
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains(&format!("Nodes searched: {}\n", a.nodes)));
    }
}

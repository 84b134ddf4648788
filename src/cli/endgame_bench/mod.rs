//! `otrera endgame-bench`: time to solve random one-side regions of 10, 15, 20 and 25 empty
//! squares (see [`random`] for how they are grown), the regions of random games at the
//! moment they become decided, and the cost of region splitting on mid- and endgame positions.
//!
//! Each region is solved by a solver whose table was cleared first (not timed), so no region
//! profits from an earlier one; the time covers the greedy bound and the proof.

pub mod random;

use crate::endgame::area::{greedy_fill, Area};
use crate::endgame::{Budget, FillSolver};
use crate::position::Position;
use crate::regions::{is_decided, RegionKind, Regions};
use rand::rngs::StdRng;
use rand::SeedableRng;
use random::{random_shape, Shape};
use std::fmt;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Region sizes (empty squares) the benchmark measures by default.
pub const SIZES: [u32; 4] = [10, 15, 20, 25];

/// Benchmark settings.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Regions per size.
    pub samples: usize,
    /// Seed of the region generator.
    pub seed: u64,
    /// Amazons per region.
    pub amazons: u32,
    /// Node budget per region.
    pub nodes: u64,
    /// Shape of the regions.
    pub shape: Shape,
    /// Region sizes (empty squares, at most 60).
    pub sizes: Vec<u32>,
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            samples: 200,
            seed: 1,
            amazons: 1,
            nodes: Budget::default().nodes,
            shape: Shape::Holey,
            sizes: SIZES.to_vec(),
        }
    }
}

/// Command-line arguments of `otrera endgame-bench`.
#[derive(clap::Args, Clone, Debug)]
pub struct BenchArgs {
    /// Regions per size.
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// Seed of the region generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Amazons per region.
    #[arg(long, default_value_t = 1)]
    pub amazons: u32,
    /// Compact blobs instead of regions with scattered burnt squares.
    #[arg(long)]
    pub blobs: bool,
    /// Region sizes in empty squares (at most 60).
    #[arg(long, value_delimiter = ',', default_values_t = SIZES)]
    pub sizes: Vec<u32>,
}

impl From<BenchArgs> for BenchConfig {
    fn from(a: BenchArgs) -> BenchConfig {
        BenchConfig {
            samples: a.samples,
            seed: a.seed,
            amazons: a.amazons.max(1),
            shape: if a.blobs { Shape::Blob } else { Shape::Holey },
            sizes: a.sizes.into_iter().map(|n| n.clamp(1, 60)).collect(),
            ..BenchConfig::default()
        }
    }
}

/// Measurements for one group of regions.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// Empty squares per region (for game regions: the largest).
    pub squares: u32,
    /// Solve times, sorted.
    pub times: Vec<Duration>,
    /// Regions solved exactly.
    pub exact: usize,
    /// Regions where the budget ran out (only bounds).
    pub over_budget: usize,
    /// Regions with fewer moves than squares (defective).
    pub defective: usize,
    /// Regions where the greedy fill found fewer moves than the exact value.
    pub greedy_short: usize,
    /// Search nodes over all regions.
    pub nodes: u64,
}

impl SizeReport {
    /// The time below which a fraction `q` (0..=1) of the regions were solved.
    pub fn quantile(&self, q: f64) -> Duration {
        if self.times.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.times.len() - 1) as f64 * q).round() as usize;
        self.times[i]
    }
}

impl SizeReport {
    fn new(squares: u32) -> SizeReport {
        SizeReport {
            squares,
            times: Vec::new(),
            exact: 0,
            over_budget: 0,
            defective: 0,
            greedy_short: 0,
            nodes: 0,
        }
    }

    /// Solves `area` with a cleared table and records it.
    fn measure(&mut self, solver: &mut FillSolver, area: Area, nodes: u64) {
        solver.clear();
        let start = Instant::now();
        let v = solver.area_moves_left(area, Budget::nodes(nodes));
        self.times.push(start.elapsed());
        self.nodes += solver.last_nodes();
        if v.is_exact() {
            self.exact += 1;
            if v.lo < area.squares() {
                self.defective += 1;
            }
            if greedy_fill(area) < v.lo {
                self.greedy_short += 1;
            }
        } else {
            self.over_budget += 1;
        }
    }
}

/// Cost of region analysis per call.
#[derive(Clone, Debug)]
pub struct SplitReport {
    /// Positions timed.
    pub positions: usize,
    /// Mean time of [`Regions`] (all regions with their kinds) per position.
    pub regions: Duration,
    /// Mean time of [`is_decided`] per position.
    pub is_decided: Duration,
}

/// The whole benchmark result.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// The settings used.
    pub config: BenchConfig,
    /// One entry per size in the configuration.
    pub sizes: Vec<SizeReport>,
    /// The one-side regions of random 10x10 games at the first decided position.
    pub game_regions: SizeReport,
    /// Region analysis on positions of random games from move 20 on.
    pub split: SplitReport,
}

/// Positions of seeded random 10x10 games: every position from ply 20 on, and the first decided
/// position of each game.
fn game_positions(games: usize, seed: u64) -> (Vec<Position>, Vec<Position>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut later, mut decided) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let mut pos = Position::standard();
        let mut ply = 0;
        let mut seen_decided = false;
        while let Some(m) = pos.random_move(&mut rng) {
            pos.make(m);
            ply += 1;
            if ply >= 20 {
                later.push(pos.clone());
            }
            if !seen_decided && is_decided(&pos) {
                seen_decided = true;
                decided.push(pos.clone());
            }
        }
    }
    (later, decided)
}

fn time_split(positions: &[Position]) -> SplitReport {
    let mut kinds = 0usize;
    let start = Instant::now();
    for pos in positions {
        kinds += Regions::of(pos)
            .filter(|r| r.kind() == RegionKind::Mixed)
            .count();
    }
    let regions = start.elapsed();
    let start = Instant::now();
    let decided = positions.iter().filter(|p| is_decided(p)).count();
    let fill = start.elapsed();
    // Keep the work observable so it is not optimized away.
    assert!(kinds + decided > 0 || positions.is_empty());
    let n = positions.len().max(1) as u32;
    SplitReport {
        positions: positions.len(),
        regions: regions / n,
        is_decided: fill / n,
    }
}

/// Runs `otrera endgame-bench`: the report on stdout.
pub fn run(args: BenchArgs) -> ExitCode {
    print!("{}", measure(args.into()));
    ExitCode::SUCCESS
}

/// Runs the benchmark.
pub fn measure(config: BenchConfig) -> BenchReport {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut solver = FillSolver::new();
    let sizes = config
        .sizes
        .iter()
        .map(|&squares| {
            let mut r = SizeReport::new(squares);
            for _ in 0..config.samples {
                let area = random_shape(&mut rng, config.shape, squares, config.amazons);
                r.measure(&mut solver, area, config.nodes);
            }
            r.times.sort_unstable();
            r
        })
        .collect();
    let (later, decided) = game_positions(config.samples.div_ceil(4), config.seed);
    let mut game_regions = SizeReport::new(0);
    for pos in &decided {
        for region in Regions::of(pos) {
            if let Some(c) = region.kind().owner() {
                let area = Area::new(region.amazons(c), region.empty);
                game_regions.squares = game_regions.squares.max(area.squares());
                game_regions.measure(&mut solver, area, config.nodes);
            }
        }
    }
    game_regions.times.sort_unstable();
    BenchReport {
        sizes,
        config,
        game_regions,
        split: time_split(&later),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

fn row(f: &mut fmt::Formatter<'_>, label: &str, r: &SizeReport) -> fmt::Result {
    writeln!(
        f,
        "{:>7}  {:>7}  {:>9}  {:>6}  {:>8}  {:>10}  {:>5}  {:>11}  {:>9}  {:>12}",
        label,
        r.times.len(),
        ms(r.quantile(0.5)),
        ms(r.quantile(0.9)),
        ms(r.quantile(1.0)),
        r.nodes / r.times.len().max(1) as u64,
        r.exact,
        r.over_budget,
        r.defective,
        r.greedy_short
    )
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "endgame-bench: random {} regions, {} amazon(s) each, seed {}, budget {} nodes",
            c.shape.name(),
            c.amazons,
            c.seed,
            c.nodes
        )?;
        writeln!(
            f,
            "squares  regions  median_ms  p90_ms    max_ms  mean_nodes  exact  over_budget  defective  greedy_short"
        )?;
        for r in &self.sizes {
            row(f, &r.squares.to_string(), r)?;
        }
        writeln!(
            f,
            "one-side regions of {} random games when first decided (up to {} squares):",
            c.samples.div_ceil(4),
            self.game_regions.squares
        )?;
        row(f, "game", &self.game_regions)?;
        writeln!(
            f,
            "region split over {} positions from move 20 on: regions {:.0} ns, is_decided {:.0} ns per call",
            self.split.positions,
            self.split.regions.as_secs_f64() * 1e9,
            self.split.is_decided.as_secs_f64() * 1e9
        )
    }
}

//! `otrera selfplay`: Otrera plays itself and writes training data (`record.rs`).
//!
//! Each game starts with `random_plies` uniformly random plies from the standard start, then every
//! move is an MCTS search with a fixed playout budget (or a time); for the first
//! `temperature_plies` searched moves the move is drawn in proportion to the root's visit counts,
//! afterwards the most visited move is played. Game `g` of shard `I/N` is global game
//! `I + N * g`, and everything random in it comes from `(seed, global game)`, so shards are
//! disjoint and a run with a playout budget is reproducible whatever the concurrency.

use super::binary;
use super::record::Record;
use super::weights::{WeightsChoice, DEFAULT_WEIGHTS};
use crate::game::Game;
use crate::mcts::MctsPlayer;
use crate::mcts::SearchParams;
use crate::memory;
use crate::mv::Move;
use crate::player::{Limits, Player};
use crate::position::Position;
use crate::shard::Shard;
use crate::splitmix::{mix64, GAMMA};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Options of `otrera selfplay`.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfplayOptions {
    /// Write the positions to this file (binary, or JSON lines for a `.jsonl` name).
    pub out: PathBuf,
    /// Games to play (in this shard).
    pub games: u64,
    /// Playouts per move.
    pub playouts: u64,
    /// Seconds per move instead of a playout budget (not reproducible).
    pub movetime: Option<f64>,
    /// Uniformly random plies at the start of each game.
    pub random_plies: u32,
    /// Searched moves, after the random plies, drawn in proportion to their visit counts.
    pub temperature_plies: u32,
    /// Seed of everything random.
    pub seed: u64,
    /// Games played at the same time (one thread each).
    pub concurrency: usize,
    /// Play only part I of N of the run (disjoint games, for array jobs).
    pub shard: Shard,
    /// Search tree memory per game, MiB.
    pub memory: usize,
    /// The players' weights.
    pub weights: WeightsChoice,
    /// Continue the run already in `out` (binary format): check that it was made with the same
    /// settings, drop an incomplete last game, and play the games it lacks.
    pub resume: bool,
}

impl Default for SelfplayOptions {
    /// The command's defaults (with no output file: set `out`).
    fn default() -> SelfplayOptions {
        SelfplayOptions {
            out: PathBuf::new(),
            games: 100,
            playouts: 2000,
            movetime: None,
            random_plies: 4,
            temperature_plies: 8,
            seed: 1,
            concurrency: 1,
            shard: Shard { index: 0, count: 1 },
            memory: 128,
            weights: DEFAULT_WEIGHTS,
            resume: false,
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfplaySummary {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Plays global game `game` and returns its records.
pub fn play_game(args: &SelfplayOptions, game: u64, params: &SearchParams) -> Vec<Record> {
    let seed = mix64(args.seed ^ mix64(game.wrapping_add(GAMMA)));
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut g = Game::new(Position::standard());
    for _ in 0..args.random_plies {
        match g.position().random_move(&mut rng) {
            Some(m) => g.play(m).expect("random moves are legal"),
            None => break,
        }
    }
    let tree_bytes = memory::split(args.memory, 1, false).tree_bytes;
    let mut player = MctsPlayer::new(1, tree_bytes, Some(seed), params.clone());
    let limits = match args.movetime {
        Some(s) => {
            let d = Duration::from_secs_f64(s.max(0.001));
            Limits {
                soft: Some(d),
                hard: Some(d),
                ..Limits::default()
            }
        }
        None => Limits {
            playouts: Some(args.playouts.max(1)),
            ..Limits::default()
        },
    };
    let stop = AtomicBool::new(false);
    let mut records = Vec::new();
    let mut searched = 0;
    while g.position().has_legal_move() {
        let decision = player.choose(&g, &limits, &stop, &mut |_| {});
        let chosen = decision.mv.expect("the side to move has a legal move");
        let visits = if decision.report.playouts > 0 {
            root_visits(&player)
        } else {
            Vec::new()
        };
        let mv = if searched < args.temperature_plies && !visits.is_empty() {
            sample(&visits, &mut rng)
        } else {
            chosen
        };
        searched += 1;
        records.push(Record {
            game,
            ply: g.moves().len() as u32,
            position: g.position().clone(),
            playouts: if args.movetime.is_some() {
                0
            } else {
                args.playouts
            },
            value: decision.winrate,
            result: 0.0,
            visits,
        });
        g.play(mv).expect("the search plays legal moves");
    }
    // The side to move in the final position has lost.
    let loser = g.position().side_to_move();
    for r in &mut records {
        r.result = if r.position.side_to_move() == loser {
            0.0
        } else {
            1.0
        };
    }
    records
}

/// Every visited root child of the player's last search, most visited first (ties by move).
fn root_visits(player: &MctsPlayer) -> Vec<(Move, u64)> {
    let tree = player.tree();
    let mut out = Vec::new();
    if let Some(list) = tree.children(tree.root()) {
        for i in 0..list.len() {
            let n = tree.node(list.child(i));
            if n.visits() > 0 {
                out.push((n.mv(), n.visits() as u64));
            }
        }
    }
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// A move drawn with probability proportional to its visits.
fn sample(visits: &[(Move, u64)], rng: &mut SmallRng) -> Move {
    let total: u64 = visits.iter().map(|v| v.1).sum();
    let mut x = rng.gen_range(0..total);
    for &(m, n) in visits {
        if x < n {
            return m;
        }
        x -= n;
    }
    visits[0].0
}

/// Runs `otrera selfplay`: plays the games on `concurrency` threads, writes their records in
/// game order, and prints a progress line to `progress` after each game.
pub fn run(args: &SelfplayOptions, progress: &mut dyn Write) -> Result<SelfplaySummary, String> {
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if args.movetime.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
        return Err("--movetime must be a positive number of seconds".into());
    }
    let binary = is_binary_path(&args.out);
    let done = open_output(args, binary)?;
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let params = args.weights.search_params();
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Record>)>();
    let mut summary = SelfplaySummary::default();
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..args
            .concurrency
            .min(args.games.saturating_sub(done).max(1) as usize)
        {
            let tx = tx.clone();
            let (next, params) = (&next, &params);
            scope.spawn(move || loop {
                let k = done + next.fetch_add(1, Ordering::Relaxed) as u64;
                if k >= args.games {
                    break;
                }
                let game = args.shard.index + args.shard.count * k;
                if tx.send((k, play_game(args, game, params))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in order so the file is reproducible.
        let mut pending = BTreeMap::new();
        let mut written = done;
        for (k, records) in rx {
            pending.insert(k, records);
            while let Some(records) = pending.remove(&written) {
                let result = if binary {
                    binary::write_game(&mut out, &records)
                } else {
                    records
                        .iter()
                        .try_for_each(|r| writeln!(out, "{}", r.to_json()))
                };
                if let Err(e) = result {
                    write_error.get_or_insert(format!("writing {}: {e}", args.out.display()));
                }
                // Whole games reach the file as they finish: a run cut short leaves whole lines.
                if let Err(e) = out.flush() {
                    write_error.get_or_insert(format!("writing {}: {e}", args.out.display()));
                }
                written += 1;
                summary.games += 1;
                summary.positions += records.len() as u64;
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let _ = writeln!(
                    progress,
                    "selfplay {}: games {}/{}, positions {}, {:.2} games/s, {:.1} positions/s, {:.0} s",
                    args.shard,
                    done + summary.games,
                    args.games,
                    summary.positions,
                    summary.games as f64 / secs,
                    summary.positions as f64 / secs,
                    secs
                );
            }
        }
    });
    out.flush()
        .map_err(|e| format!("writing {}: {e}", args.out.display()))?;
    if let Some(e) = write_error {
        return Err(e);
    }
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// Whether `path` gets the binary format: everything but a `.jsonl` or `.json` name.
pub fn is_binary_path(path: &Path) -> bool {
    !matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("jsonl") | Some("json")
    )
}

/// The settings a binary file records, which a resumed run must share: everything that decides
/// the games but their number.
pub fn settings_text(args: &SelfplayOptions) -> String {
    // A network by its shape and checksum, not its name: a build with another embedded `net`,
    // or a file rewritten in place, must not continue a run made with the old one.
    let weights = match (&args.weights, args.weights.search_params().net) {
        (WeightsChoice::NetFile { .. }, Some(net)) => format!("{net:?}"),
        (w, Some(net)) => format!("{} {net:?}", w.name()),
        (w, None) => w.name(),
    };
    format!(
        "otrera selfplay\nshard {}\nseed {}\nplayouts {}\nmovetime {:?}\nrandom_plies {}\ntemperature_plies {}\nmemory {}\nweights {}\n",
        args.shard,
        args.seed,
        args.playouts,
        args.movetime,
        args.random_plies,
        args.temperature_plies,
        args.memory,
        weights
    )
}

/// Prepares `out` for appending and returns how many games it already holds: a new file gets
/// the header; with `resume`, an existing binary file is checked against the settings and cut
/// back to its last complete game. Without `resume` an existing non-empty file is refused, so
/// that a run never overwrites data.
fn open_output(args: &SelfplayOptions, binary: bool) -> Result<u64, String> {
    let name = args.out.display();
    let existing = match std::fs::metadata(&args.out) {
        Ok(m) => m.len() > 0,
        Err(_) => false,
    };
    if existing && !args.resume {
        return Err(format!(
            "--out {name} already holds data: add --resume to continue that run, or choose another file"
        ));
    }
    if !existing {
        let header = if binary {
            binary::file_header(&settings_text(args))
        } else {
            Vec::new()
        };
        std::fs::write(&args.out, header).map_err(|e| format!("--out {name}: {e}"))?;
        return Ok(0);
    }
    if !binary {
        return Err(format!(
            "--resume needs the binary format (--out {name} ends in .jsonl)"
        ));
    }
    let bytes = std::fs::read(&args.out).map_err(|e| format!("--out {name}: {e}"))?;
    let c = binary::parse(&name.to_string(), &bytes).map_err(|e| e.to_string())?;
    let want = settings_text(args);
    if c.settings != want {
        return Err(format!(
            "--resume: {name} was made with other settings:\n{}this run has:\n{want}",
            c.settings
        ));
    }
    for (k, g) in c.games.iter().enumerate() {
        let expected = args.shard.index + args.shard.count * k as u64;
        if g.first().is_some_and(|r| r.game != expected) {
            return Err(format!(
                "--resume: {name} holds game {} where game {expected} belongs",
                g[0].game
            ));
        }
    }
    if c.incomplete_tail {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&args.out)
            .map_err(|e| format!("--out {name}: {e}"))?;
        f.set_len(c.complete_len)
            .map_err(|e| format!("--out {name}: {e}"))?;
    }
    Ok(c.games.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_name_a_network_by_its_checksum() {
        let with = |weights| {
            settings_text(&SelfplayOptions {
                weights,
                ..SelfplayOptions::default()
            })
        };
        assert!(with(WeightsChoice::Learned).ends_with("weights learned\n"));
        let net = with(WeightsChoice::Net);
        let checksum = format!("{:?}", crate::net::embedded());
        assert!(checksum.contains("checksum: "), "{checksum}");
        assert!(net.ends_with(&format!("weights net {checksum}\n")), "{net}");
    }
}

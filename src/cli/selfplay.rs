//! `otrera selfplay`: the flags, and the run with progress on stderr (the games are
//! `learn::selfplay`).

use super::settings_args::weights_parser;
use super::status::report;
use crate::learn::selfplay::{self, SelfplayOptions};
use crate::learn::weights::WeightsChoice;
use crate::shard::Shard;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `otrera selfplay` (defaults from [`SelfplayOptions::default`]).
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Write the positions to this file: compact binary records, or JSON lines if the name ends
    /// in `.jsonl` (see docs/training.md). An existing file is continued with `--resume`, never
    /// overwritten.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games to play (in this shard).
    #[arg(long, default_value_t = SelfplayOptions::default().games)]
    pub games: u64,
    /// Playouts per move.
    #[arg(long, default_value_t = SelfplayOptions::default().playouts, conflicts_with = "movetime")]
    pub playouts: u64,
    /// Seconds per move instead of a playout budget (not reproducible).
    #[arg(long, value_name = "SECONDS")]
    pub movetime: Option<f64>,
    /// Uniformly random plies at the start of each game.
    #[arg(long, default_value_t = SelfplayOptions::default().random_plies)]
    pub random_plies: u32,
    /// Searched moves, after the random plies, drawn in proportion to their visit counts.
    #[arg(long, default_value_t = SelfplayOptions::default().temperature_plies)]
    pub temperature_plies: u32,
    /// Seed of everything random.
    #[arg(long, default_value_t = SelfplayOptions::default().seed)]
    pub seed: u64,
    /// Games played at the same time (one thread each).
    #[arg(long, default_value_t = SelfplayOptions::default().concurrency)]
    pub concurrency: usize,
    /// Play only part I of N of the run (disjoint games, for array jobs).
    #[arg(long, default_value_t = SelfplayOptions::default().shard, value_name = "I/N")]
    pub shard: Shard,
    /// Search tree memory per game, MiB.
    #[arg(long, default_value_t = SelfplayOptions::default().memory)]
    pub memory: usize,
    /// The players' weights.
    #[arg(long, default_value_t = SelfplayOptions::default().weights, value_parser = weights_parser())]
    pub weights: WeightsChoice,
    /// Continue the run already in `--out` (binary format only) where it stopped.
    #[arg(long)]
    pub resume: bool,
}

impl SelfplayArgs {
    /// The run these flags ask for.
    pub fn options(&self) -> SelfplayOptions {
        SelfplayOptions {
            out: self.out.clone(),
            games: self.games,
            playouts: self.playouts,
            movetime: self.movetime,
            random_plies: self.random_plies,
            temperature_plies: self.temperature_plies,
            seed: self.seed,
            concurrency: self.concurrency,
            shard: self.shard,
            memory: self.memory,
            weights: self.weights.clone(),
            resume: self.resume,
        }
    }
}

/// Runs `otrera selfplay`.
pub fn run(args: &SelfplayArgs) -> ExitCode {
    report(
        selfplay::run(&args.options(), &mut std::io::stderr()).map(|s| {
            eprintln!(
                "selfplay: {} games, {} positions in {:.1} s",
                s.games,
                s.positions,
                s.elapsed.as_secs_f64()
            )
        }),
    )
}

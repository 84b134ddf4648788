//! `otrera bench`: searches the fixed positions of `crate::bench` and prints the signature
//! and the speed.

use super::settings_args::weights_parser;
use crate::bench::{self, BenchOptions};
use crate::learn::weights::WeightsChoice;
use crate::position::Position;
use crate::settings::parse_threads;
use std::process::ExitCode;

/// Flags of `otrera bench`.
#[derive(clap::Args, Clone, Debug)]
pub struct BenchArgs {
    /// Search threads.
    #[arg(long, default_value_t = BenchOptions::default().threads, value_parser = parse_threads)]
    pub threads: usize,
    /// Playouts per position.
    #[arg(long, default_value_t = BenchOptions::default().playouts)]
    pub playouts: u64,
    /// Search only this position string (e.g. the start, to measure playouts per second).
    #[arg(long)]
    pub position: Option<String>,
    /// Search with the hand-set or the learned weights (the signature is the default's).
    #[arg(long, default_value_t = BenchOptions::default().weights, value_parser = weights_parser())]
    pub weights: WeightsChoice,
}

/// Runs `otrera bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    let position = match args.position.as_deref().map(str::parse::<Position>) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            eprintln!("otrera: bad --position: {e}");
            return ExitCode::from(2);
        }
    };
    let options = BenchOptions {
        threads: args.threads,
        playouts: args.playouts,
        position,
        weights: args.weights.clone(),
        ..Default::default()
    };
    match bench::run(&options, &mut std::io::stdout().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("otrera: {e}");
            ExitCode::FAILURE
        }
    }
}

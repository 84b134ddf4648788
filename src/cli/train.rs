//! `hippolyta train`: the flags, and the fit with its log on stderr (the fit is `learn::train`).

use super::settings_args::weights_parser;
use super::status::report;
use crate::learn::train::{self, TrainOptions};
use crate::learn::weights::WeightsChoice;
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `hippolyta train` (defaults from [`TrainOptions::default`]).
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Self-play data files (JSON lines from `hippolyta selfplay`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the weights here.
    #[arg(long, default_value_os_t = TrainOptions::default().out, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = TrainOptions::default().seed)]
    pub seed: u64,
    /// Fraction of games held out.
    #[arg(long, default_value_t = TrainOptions::default().holdout)]
    pub holdout: f64,
    /// Weight of the game result against the search value in the evaluation's target.
    #[arg(long, default_value_t = TrainOptions::default().result_weight)]
    pub result_weight: f64,
    /// Weights to start from (and to report the loss before training with); their move ordering
    /// is written unchanged.
    #[arg(long, default_value_t = TrainOptions::default().start, value_parser = weights_parser())]
    pub start: WeightsChoice,
}

impl TrainArgs {
    /// The fit these flags ask for.
    pub fn options(&self) -> TrainOptions {
        TrainOptions {
            files: self.files.clone(),
            out: self.out.clone(),
            seed: self.seed,
            holdout: self.holdout,
            result_weight: self.result_weight,
            start: self.start,
        }
    }
}

/// Runs `hippolyta train`.
pub fn run(args: &TrainArgs) -> ExitCode {
    report(train::run(&args.options(), &mut std::io::stderr()).map(|_| ()))
}

//! `otrera train`: the flags, and the fit with its log on stderr (the fit is `learn::train`).

use super::settings_args::weights_parser;
use super::status::report;
use crate::learn::net_job::{self, NetJob};
use crate::learn::train::{self, TrainOptions};
use crate::learn::weights::WeightsChoice;
use crate::net::train::NetTrainOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// The evaluations `train` fits.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The linear evaluation's eight weights.
    Linear,
    /// The network evaluation.
    Net,
}

/// Flags of `otrera train` (defaults from [`TrainOptions::default`]).
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Self-play data files from `otrera selfplay` (binary or JSON lines).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the weights here [default: src/learn/weights.txt, or otrera.onet with --model net].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
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
    /// What to train: `linear`, the eight weights of the linear evaluation (docs/training.md),
    /// or `net`, the network evaluation (docs/network.md), whose file `--out` then names.
    #[arg(long, value_enum, default_value_t = Model::Linear)]
    pub model: Model,
    /// Network: hidden units.
    #[arg(long, default_value_t = NetTrainOptions::default().hidden)]
    pub hidden: usize,
    /// Network: passes over the training positions.
    #[arg(long, default_value_t = NetTrainOptions::default().epochs)]
    pub epochs: usize,
    /// Network: positions per step.
    #[arg(long, default_value_t = NetTrainOptions::default().batch)]
    pub batch: usize,
    /// Network: Adam's step size.
    #[arg(long, default_value_t = NetTrainOptions::default().learning_rate)]
    pub learning_rate: f32,
    /// Network: seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = NetTrainOptions::default().seed)]
    pub net_seed: u64,
}

impl TrainArgs {
    /// The fit these flags ask for.
    pub fn options(&self) -> TrainOptions {
        TrainOptions {
            files: self.files.clone(),
            out: self.out.clone().unwrap_or(TrainOptions::default().out),
            seed: self.seed,
            holdout: self.holdout,
            result_weight: self.result_weight,
            start: self.start.clone(),
        }
    }

    /// The network training these flags ask for.
    pub fn net_job(&self) -> NetJob {
        NetJob {
            files: self.files.clone(),
            out: self
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from("otrera.onet")),
            split_seed: self.seed,
            holdout: self.holdout,
            result_weight: self.result_weight,
            train: NetTrainOptions {
                hidden: self.hidden,
                epochs: self.epochs,
                batch: self.batch,
                learning_rate: self.learning_rate,
                seed: self.net_seed,
                ..NetTrainOptions::default()
            },
        }
    }
}

/// Runs `otrera train`.
pub fn run(args: &TrainArgs) -> ExitCode {
    if args.model == Model::Net {
        return report(net_job::run(&args.net_job(), &mut std::io::stderr()).map(|_| ()));
    }
    report(train::run(&args.options(), &mut std::io::stderr()).map(|_| ()))
}

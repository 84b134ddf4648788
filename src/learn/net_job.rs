//! From self-play records to training samples, and the whole `train --model net` job: read, split,
//! train with progress, write the weights file.

use super::data_file::read_file;
use super::record::Record;
use super::train::{fit, is_held_out, target, TrainOptions};
use super::weights::{Weights, WeightsChoice};
use crate::eval::EvalParams;
use crate::net::features::{applies, inputs};
use crate::net::file;
use crate::net::network::{Network, MAX_HIDDEN};
use crate::net::train::{mean_loss, train, EpochReport, NetTrainOptions, Sample};
use std::io::Write;
use std::path::PathBuf;

/// A network training job.
#[derive(Clone, Debug, PartialEq)]
pub struct NetJob {
    /// Self-play data files.
    pub files: Vec<PathBuf>,
    /// Write the weights file here.
    pub out: PathBuf,
    /// Seed of the held-out split (the network's own seed is in `train`).
    pub split_seed: u64,
    /// Fraction of games held out.
    pub holdout: f64,
    /// Weight of the game result against the search value in the target.
    pub result_weight: f64,
    /// The training itself.
    pub train: NetTrainOptions,
}

/// The sample of one record, or `None` when the network does not apply (another board size).
pub fn sample(r: &Record, params: &EvalParams, result_weight: f64) -> Option<Sample> {
    if !applies(&r.position) {
        return None;
    }
    Some(Sample {
        x: inputs(&r.position, params),
        target: target(r, result_weight) as f32,
    })
}

/// What a job did.
#[derive(Clone, Debug)]
pub struct NetReport {
    /// Games and positions read.
    pub games: usize,
    /// Positions read.
    pub positions: usize,
    /// Training and held-out samples.
    pub samples: (usize, usize),
    /// The linear evaluation's loss (the embedded weights, which the network starts from) on the
    /// held-out samples, for comparison.
    pub linear_held_loss: f64,
    /// The held-out loss of the linear evaluation fitted to these training positions (what
    /// `train --model linear` gives on the same split): what eight weights can learn from them.
    pub linear_fit_held_loss: f64,
    /// Every epoch's losses.
    pub epochs: Vec<EpochReport>,
    /// The kept network.
    pub net: Network,
}

/// A loss for the log: `none` where there are no positions to take it on.
fn loss_text(loss: f64) -> String {
    if loss.is_nan() {
        "none".into()
    } else {
        format!("{loss:.4}")
    }
}

/// Runs a job: reads the files, trains, writes `out`; progress goes to `log`.
pub fn run(job: &NetJob, log: &mut dyn Write) -> Result<NetReport, String> {
    if !(0.0..1.0).contains(&job.holdout) {
        return Err("--holdout must be at least 0 and below 1".into());
    }
    if !(0.0..=1.0).contains(&job.result_weight) {
        return Err("--result-weight must be from 0 to 1".into());
    }
    if job.train.hidden == 0 || job.train.hidden > MAX_HIDDEN {
        return Err(format!("--hidden must be from 1 to {}", MAX_HIDDEN));
    }
    let params = Weights::embedded().eval;
    let (mut train_set, mut held) = (Vec::new(), Vec::new());
    let mut games = std::collections::BTreeSet::new();
    let mut all = Vec::new();
    for path in &job.files {
        let records = read_file(path).map_err(|e| e.to_string())?;
        for r in &records {
            games.insert(r.game);
            if let Some(s) = sample(r, &params, job.result_weight) {
                if is_held_out(r.game, job.split_seed, job.holdout) {
                    held.push(s);
                } else {
                    train_set.push(s);
                }
            }
        }
        let _ = writeln!(log, "read {}: {} positions", path.display(), records.len());
        all.extend(records);
    }
    let positions = all.len();
    if train_set.is_empty() {
        return Err("no training positions (too little data, or all of it held out)".into());
    }
    let linear = Network::linear(job.train.hidden);
    let linear_held_loss = mean_loss(&linear, &held);
    let _ = writeln!(
        log,
        "{} games, {} positions: {} training and {} held-out samples; linear evaluation held-out loss {}",
        games.len(),
        positions,
        train_set.len(),
        held.len(),
        loss_text(linear_held_loss)
    );
    // The same split and targets as the network's, so the two held-out losses compare.
    let linear_fit = fit(
        &all,
        &TrainOptions {
            seed: job.split_seed,
            holdout: job.holdout,
            result_weight: job.result_weight,
            start: WeightsChoice::Learned,
            ..TrainOptions::default()
        },
    )?;
    drop(all);
    let linear_fit_held_loss = if held.is_empty() {
        f64::NAN
    } else {
        linear_fit.eval.held_after
    };
    let _ = writeln!(
        log,
        "linear fit to the training positions: held-out loss {}",
        loss_text(linear_fit_held_loss)
    );
    let mut epochs = Vec::new();
    let mut since = std::time::Instant::now();
    let net = train(&train_set, &held, &job.train, &mut |r| {
        // Epoch 0 is the start, before any step; the rate is the epoch's training pass.
        let rate = if r.epoch == 0 {
            String::new()
        } else {
            format!(
                ", {:.0} positions/s",
                train_set.len() as f64 / since.elapsed().as_secs_f64()
            )
        };
        let _ = writeln!(
            log,
            "epoch {:>3}: loss train {:.4}, held out {}{rate}",
            r.epoch,
            r.train_loss,
            loss_text(r.held_loss)
        );
        since = std::time::Instant::now();
        epochs.push(r.clone());
    });
    file::save(&net, &job.out).map_err(|e| e.to_string())?;
    let _ = writeln!(log, "wrote {}", job.out.display());
    Ok(NetReport {
        games: games.len(),
        positions,
        samples: (train_set.len(), held.len()),
        linear_held_loss,
        linear_fit_held_loss,
        epochs,
        net,
    })
}

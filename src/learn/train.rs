//! `otrera train`: fits the evaluation weights to self-play data and writes the weights file
//! (`weights.rs`), with the move-ordering weights as they start.
//!
//! The [`EvalParams`] weights of the terms and of the logistic (territory weights at phase 1,
//! scales and tempo) are fitted with a logistic loss to a blend of the game result and the search
//! value, by Gauss-Newton steps. `kappa`, `phase_norm` and `mobility_threshold` enter the terms
//! themselves and are kept. The move ordering is not fitted: a fitted move prior lost its gating
//! matches (docs/training.md).
//!
//! Games, not positions, are split into training and held-out sets, by a hash of the game number
//! and the seed. Every sum runs in file order in `f64` on one thread, so the same files and seed
//! write the same bytes. The evaluation is invariant under the board's symmetries (tested in
//! `features.rs`), so augmenting with the seven images of each position would only repeat
//! identical samples; none is added.

use super::data_file::read_file;
use super::record::Record;
use super::weights::{eval_from_vector, eval_vector, Weights, WeightsChoice};
use crate::eval::{terms, EvalParams};
use crate::splitmix::mix64;
use std::io::Write;
use std::path::PathBuf;

/// Options of `otrera train`.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    /// Self-play data files (JSON lines from `otrera selfplay`).
    pub files: Vec<PathBuf>,
    /// Write the weights here.
    pub out: PathBuf,
    /// Seed of the held-out split.
    pub seed: u64,
    /// Fraction of games held out.
    pub holdout: f64,
    /// Weight of the game result against the search value in the evaluation's target.
    pub result_weight: f64,
    /// Weights to start from (and to report the loss before training with); their move ordering
    /// is written unchanged.
    pub start: WeightsChoice,
}

impl Default for TrainOptions {
    /// The command's defaults (with no data files: set `files`).
    fn default() -> TrainOptions {
        TrainOptions {
            files: Vec::new(),
            out: PathBuf::from("src/learn/weights.txt"),
            seed: 1,
            holdout: 0.1,
            result_weight: 0.5,
            start: WeightsChoice::Builtin,
        }
    }
}

/// Losses before and after fitting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fit {
    /// Training loss before.
    pub train_before: f64,
    /// Training loss after.
    pub train_after: f64,
    /// Held-out loss before.
    pub held_before: f64,
    /// Held-out loss after.
    pub held_after: f64,
}

/// What `train` did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Games read.
    pub games: usize,
    /// Positions read.
    pub positions: usize,
    /// Positions used for the evaluation (training, held out).
    pub eval_positions: (usize, usize),
    /// Evaluation logistic loss.
    pub eval: Fit,
    /// The written weights: the start's move ordering and the fitted evaluation.
    pub weights: Weights,
}

/// Whether game `game` is held out: a `holdout` fraction of the games, chosen by a hash of the
/// game number and `seed` (whole games, so that no position of a held-out game is trained on).
pub fn is_held_out(game: u64, seed: u64, holdout: f64) -> bool {
    (mix64(seed ^ mix64(game)) % 1_000_000) as f64 / 1_000_000.0 < holdout
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is small and, with the
/// ridge `fit_eval` adds, positive definite).
#[allow(clippy::needless_range_loop)]
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        for row in col + 1..N {
            let k = a[row][col] / d;
            for c in col..N {
                a[row][c] -= k * a[col][c];
            }
            b[row] -= k * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let s: f64 = (row + 1..N).map(|c| a[row][c] * x[c]).sum();
        x[row] = if a[row][row].abs() < 1e-12 {
            0.0
        } else {
            (b[row] - s) / a[row][row]
        };
    }
    x
}

/// The evaluation parameters that are fitted, as indices into the `eval_vector`.
const EVAL_FITTED: [usize; 8] = [2, 3, 4, 5, 6, 8, 9, 10];

/// One position for the evaluation: its terms, phase and target probability.
struct EvalSample {
    t: [f64; 5],
    phase: f64,
    target: f64,
}

/// The logit of the evaluation for `s` under parameter vector `v` (see `eval.rs`), and its
/// derivatives with respect to the fitted parameters.
fn logit(s: &EvalSample, v: &[f64; 11]) -> (f64, [f64; 8]) {
    let ph = s.phase;
    let [t1, t2, c1, c2, m] = s.t;
    let score =
        (1.0 + (v[2] - 1.0) * ph) * t1 + ph * (v[3] * t2 + v[4] * c1 + v[5] * c2 + v[6] * m);
    let sigma = v[9] + (v[8] - v[9]) * ph;
    let z = (score - v[10] * (1.0 - ph)) / sigma;
    let d = [
        ph * t1 / sigma,
        ph * t2 / sigma,
        ph * c1 / sigma,
        ph * c2 / sigma,
        ph * m / sigma,
        -z * ph / sigma,
        -z * (1.0 - ph) / sigma,
        -(1.0 - ph) / sigma,
    ];
    (z, d)
}

/// Mean logistic loss of the evaluation on `samples`.
fn eval_loss(samples: &[EvalSample], v: &[f64; 11]) -> f64 {
    let mut loss = 0.0;
    for s in samples {
        let (z, _) = logit(s, v);
        // -[y ln p + (1 - y) ln(1 - p)] with p = logistic(z), in a stable form.
        let softplus = |x: f64| x.max(0.0) + (-x.abs()).exp().ln_1p();
        loss += s.target * softplus(-z) + (1.0 - s.target) * softplus(z);
    }
    loss / samples.len().max(1) as f64
}

/// Gauss-Newton on the evaluation's logistic loss, keeping both scales above 0.1.
#[allow(clippy::needless_range_loop)]
fn fit_eval(samples: &[EvalSample], start: [f64; 11]) -> [f64; 11] {
    let mut v = start;
    let mut loss = eval_loss(samples, &v);
    for _ in 0..40 {
        let mut g = [0.0; 8];
        let mut h = [[0.0; 8]; 8];
        for s in samples {
            let (z, d) = logit(s, &v);
            let p = 1.0 / (1.0 + (-z).exp());
            let r = p - s.target;
            let curvature = (p * (1.0 - p)).max(1e-6);
            for i in 0..8 {
                g[i] += r * d[i];
                for j in 0..8 {
                    h[i][j] += curvature * d[i] * d[j];
                }
            }
        }
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-6 * samples.len() as f64;
        }
        let step = solve(h, g);
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-4 {
            let mut trial = v;
            for (k, &i) in EVAL_FITTED.iter().enumerate() {
                trial[i] -= t * step[k];
            }
            if trial[8] > 0.1 && trial[9] > 0.1 {
                let l = eval_loss(samples, &trial);
                if l < loss {
                    improved = loss - l > 1e-9;
                    v = trial;
                    loss = l;
                    break;
                }
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    v
}

/// The target win probability of `r`: `result_weight` of the game's result and the rest of the
/// search value (the result alone where there is no value). The network trains on it too.
pub fn target(r: &Record, result_weight: f64) -> f64 {
    match r.value {
        Some(v) => result_weight * r.result + (1.0 - result_weight) * v,
        None => r.result,
    }
}

/// The evaluation sample of `r`.
fn eval_sample(r: &Record, params: &EvalParams, result_weight: f64) -> EvalSample {
    let t = terms(&r.position, params);
    let target = target(r, result_weight);
    EvalSample {
        t: [t.t1, t.t2, t.c1, t.c2, t.mobility].map(f64::from),
        phase: f64::from((t.w / params.phase_norm).min(1.0)),
        target,
    }
}

/// Fits the evaluation to `records` (see the module documentation).
pub fn fit(records: &[Record], args: &TrainOptions) -> Result<TrainReport, String> {
    if !(0.0..1.0).contains(&args.holdout) {
        return Err("--holdout must be at least 0 and below 1".into());
    }
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err("--result-weight must be from 0 to 1".into());
    }
    let start = args.start.weights();
    let held_out = |game: u64| is_held_out(game, args.seed, args.holdout);
    let mut eval_train = Vec::new();
    let mut eval_held = Vec::new();
    let mut games: Vec<u64> = records.iter().map(|r| r.game).collect();
    games.sort_unstable();
    games.dedup();
    for r in records {
        let e = eval_sample(r, &start.eval, args.result_weight);
        if held_out(r.game) {
            &mut eval_held
        } else {
            &mut eval_train
        }
        .push(e);
    }
    if eval_train.is_empty() {
        return Err("no training positions (too little data, or all of it held out)".into());
    }
    let v0 = eval_vector(&start.eval);
    let v = fit_eval(&eval_train, v0);
    let eval = Fit {
        train_before: eval_loss(&eval_train, &v0),
        train_after: eval_loss(&eval_train, &v),
        held_before: eval_loss(&eval_held, &v0),
        held_after: eval_loss(&eval_held, &v),
    };
    Ok(TrainReport {
        games: games.len(),
        positions: records.len(),
        eval_positions: (eval_train.len(), eval_held.len()),
        eval,
        weights: Weights {
            ordering: start.ordering,
            eval: eval_from_vector(&v),
        },
    })
}

impl TrainReport {
    /// The lines written as comments at the top of the weights file and printed by `train`.
    pub fn lines(&self, args: &TrainOptions) -> Vec<String> {
        let e = &self.eval;
        vec![
            "Fitted weights, written by `otrera train` (see docs/training.md).".into(),
            format!(
                "data: {} positions from {} games; seed {}, held out {}, result weight {}, start {:?}",
                self.positions, self.games, args.seed, args.holdout, args.result_weight, args.start
            ),
            format!(
                "evaluation: {} + {} positions; logistic loss train {:.4} -> {:.4}, held out {:.4} -> {:.4}",
                self.eval_positions.0,
                self.eval_positions.1,
                e.train_before,
                e.train_after,
                e.held_before,
                e.held_after
            ),
        ]
    }
}

/// Runs `otrera train`: reads the files, fits, writes the weights file and prints the report.
pub fn run(args: &TrainOptions, log: &mut dyn Write) -> Result<TrainReport, String> {
    let mut records = Vec::new();
    for path in &args.files {
        records.extend(read_file(path).map_err(|e| e.to_string())?);
    }
    let report = fit(&records, args)?;
    let lines = report.lines(args);
    for l in &lines {
        let _ = writeln!(log, "{l}");
    }
    std::fs::write(&args.out, report.weights.to_text(&lines))
        .map_err(|e| format!("--out {}: {e}", args.out.display()))?;
    let _ = writeln!(log, "wrote {}", args.out.display());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use rand::SeedableRng;

    /// Random games' positions, labelled with who won and, on odd plies, a search value.
    fn records(games: u64) -> Vec<Record> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut out = Vec::new();
        for game in 0..games {
            let mut pos = Position::standard();
            let first = out.len();
            for ply in 0.. {
                let Some(m) = pos.random_move(&mut rng) else {
                    break;
                };
                out.push(Record {
                    game,
                    ply,
                    position: pos.clone(),
                    playouts: 0,
                    value: (ply % 2 == 1).then_some(0.5),
                    result: 0.0,
                    visits: Vec::new(),
                });
                pos.make(m);
            }
            let loser = pos.side_to_move();
            for r in &mut out[first..] {
                r.result = f64::from(u8::from(r.position.side_to_move() != loser));
            }
        }
        out
    }

    fn args(start: WeightsChoice) -> TrainOptions {
        TrainOptions {
            files: Vec::new(),
            out: PathBuf::new(),
            seed: 3,
            holdout: 0.25,
            result_weight: 0.5,
            start,
        }
    }

    #[test]
    fn fits_the_evaluation_and_keeps_the_ordering() {
        let data = records(12);
        for start in [WeightsChoice::Builtin, WeightsChoice::Learned] {
            let report = fit(&data, &args(start.clone())).unwrap();
            let w = start.weights();
            assert_eq!(report.weights.ordering, w.ordering);
            assert_ne!(report.weights.eval, w.eval);
            assert!(
                report.eval.train_after < report.eval.train_before,
                "{report:?}"
            );
            assert_eq!(report.games, 12);
            let (train, held) = report.eval_positions;
            assert_eq!(train + held, data.len());
            assert!(held > 0, "{report:?}");
            // Same data, same seed: the same weights, to the bit.
            assert_eq!(fit(&data, &args(start)).unwrap(), report);
        }
    }

    #[test]
    fn bad_options_are_rejected() {
        let data = records(2);
        let mut a = args(WeightsChoice::Builtin);
        a.holdout = 1.0;
        assert!(fit(&data, &a).unwrap_err().contains("--holdout"));
        let mut a = args(WeightsChoice::Builtin);
        a.result_weight = 1.5;
        assert!(fit(&data, &a).unwrap_err().contains("--result-weight"));
        let a = args(WeightsChoice::Builtin);
        assert!(fit(&[], &a).unwrap_err().contains("no training positions"));
    }
}

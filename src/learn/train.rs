//! `hippolyta train`: fits the move-prior weights and the evaluation weights to self-play data
//! and writes the weights file (`weights.rs`).
//!
//! - **Move prior.** The cheap move ordering is a linear score over move features
//!   (`features.rs`); here it becomes a softmax model fitted by cross-entropy to each searched
//!   position's root visit distribution. Training positions use every visited move plus a seeded
//!   sample of `negatives` unvisited ones, reweighted to stand for all of them; held-out positions
//!   are scored over every legal move. Minimised by damped Newton steps (the loss is convex).
//! - **Evaluation.** The [`EvalParams`] weights of the terms and of the logistic (territory
//!   weights at phase 1, scales and tempo) fitted with a logistic loss to a blend of the game
//!   result and the search value, by Gauss-Newton steps. `kappa`, `phase_norm` and
//!   `mobility_threshold` enter the terms themselves and are kept.
//!
//! Games, not positions, are split into training and held-out sets, by a hash of the game number
//! and the seed. Every sum runs in file order in `f64` on one thread, so the same files and seed
//! write the same bytes. The features and the evaluation are invariant under the board's
//! symmetries (tested in `features.rs`), so augmenting with the seven images of each position
//! would only repeat identical samples; none is added.

use super::features::{
    score, weight_vector, weights_from_vector, MoveFeatures, NUM_BASIC_FEATURES, NUM_FEATURES,
};
use super::record::{read_file, Record};
use super::selfplay::WeightsChoice;
use super::weights::{eval_from_vector, eval_vector, Weights};
use crate::eval::{terms, EvalParams};
use crate::mv::Move;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;
use std::path::PathBuf;

/// Options of `hippolyta train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Self-play data files (JSON lines from `hippolyta selfplay`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the weights here.
    #[arg(long, default_value = "src/learn/weights.txt", value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the held-out split and of the sampled unvisited moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fraction of games held out.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Unvisited moves sampled per training position.
    #[arg(long, default_value_t = 128)]
    pub negatives: usize,
    /// Weight of the game result against the search value in the evaluation's target.
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
    /// Weights to start from (and to report the loss before training with).
    #[arg(long, value_enum, default_value_t = WeightsChoice::Builtin)]
    pub start: WeightsChoice,
    /// Training targets of the move prior are the visit counts raised to this power, normalised
    /// (1: the visit distribution; higher values stress the most visited moves, which is what
    /// the search's rank prior needs). Held-out figures always use the plain distribution.
    #[arg(long, default_value_t = 1.0)]
    pub sharpen: f64,
    /// What the written move-prior weights minimise: the softmax cross-entropy, or the
    /// cross-entropy of the search's rank prior `1 / (rank + 1)` over their ordering.
    #[arg(long, value_enum, default_value_t = PriorObjective::Softmax)]
    pub objective: PriorObjective,
    /// With `--objective rank`: fit on the training positions whose ply is a multiple of this
    /// (each is scored over all its legal moves, which costs memory and time).
    #[arg(long, default_value_t = 8)]
    pub rank_every: u32,
    /// Which weights to write fitted; the others are written as they start.
    #[arg(long, value_enum, default_value_t = FitParts::Both)]
    pub fit: FitParts,
}

/// The loss the move prior's written weights minimise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PriorObjective {
    /// Softmax of the scores against the visit distribution (Newton steps).
    Softmax,
    /// The search's rank prior against the visit distribution (coordinate descent from the
    /// start weights).
    Rank,
}

/// Which part of the weights `train` changes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FitParts {
    /// The move-ordering (prior) weights and the evaluation weights.
    Both,
    /// Only the move-ordering weights.
    Prior,
    /// Only the evaluation weights.
    Eval,
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
    /// Games and positions read.
    pub games: usize,
    /// Positions read.
    pub positions: usize,
    /// Searched positions used for the prior (training, held out).
    pub prior_positions: (usize, usize),
    /// Positions used for the evaluation (training, held out).
    pub eval_positions: (usize, usize),
    /// Move-prior cross-entropy.
    pub prior: Fit,
    /// Held-out prior metrics of the start weights, of the softmax fit of the seven basic
    /// features alone and of all features, and of the written weights.
    pub metrics: [PriorMetrics; 4],
    /// Evaluation logistic loss.
    pub eval: Fit,
    /// The fitted weights.
    pub weights: Weights,
}

/// SplitMix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One position's moves for the prior: features, target probability and weight of each.
struct PriorSample {
    features: Vec<[f32; NUM_FEATURES]>,
    /// The moves, for breaking ties in the ranking as the search does.
    moves: Vec<Move>,
    target: Vec<f64>,
    weight: Vec<f64>,
    /// Index of the most visited move.
    best: usize,
}

/// Builds a sample from `r`: every visited move, then unvisited ones (all when `negatives` is
/// `None`, otherwise a sample of that many standing for all).
fn prior_sample(
    r: &Record,
    negatives: Option<usize>,
    sharpen: f64,
    rng: &mut SmallRng,
) -> Option<PriorSample> {
    let total: u64 = r.visits.iter().map(|v| v.1).sum();
    if total == 0 {
        return None;
    }
    let mut all = Vec::new();
    r.position.generate_moves(&mut all);
    if all.len() < 2 {
        return None;
    }
    let mut visited: Vec<Move> = r.visits.iter().map(|v| v.0).collect();
    visited.sort_unstable();
    let mut unvisited: Vec<Move> = all
        .into_iter()
        .filter(|m| visited.binary_search(m).is_err())
        .collect();
    let mut weight_each = 1.0;
    if let Some(k) = negatives {
        if unvisited.len() > k {
            weight_each = unvisited.len() as f64 / k.max(1) as f64;
            unvisited.shuffle(rng);
            unvisited.truncate(k);
        }
    }
    let f = MoveFeatures::new(&r.position);
    let mut s = PriorSample {
        features: Vec::with_capacity(r.visits.len() + unvisited.len()),
        moves: Vec::new(),
        target: Vec::new(),
        weight: Vec::new(),
        best: 0,
    };
    let sharp_total: f64 = r.visits.iter().map(|v| (v.1 as f64).powf(sharpen)).sum();
    for &(m, n) in &r.visits {
        s.features.push(f.of(&r.position, m));
        s.moves.push(m);
        s.target.push((n as f64).powf(sharpen) / sharp_total);
        s.weight.push(1.0);
    }
    for m in unvisited {
        s.features.push(f.of(&r.position, m));
        s.moves.push(m);
        s.target.push(0.0);
        s.weight.push(weight_each);
    }
    Some(s)
}

/// Mean cross-entropy over `samples`, and optionally its gradient and Hessian.
// Index loops read as the matrix formulas they implement.
#[allow(clippy::needless_range_loop)]
fn prior_loss(
    samples: &[PriorSample],
    w: &[f64; NUM_FEATURES],
    mut derivatives: Option<(
        &mut [f64; NUM_FEATURES],
        &mut [[f64; NUM_FEATURES]; NUM_FEATURES],
    )>,
) -> f64 {
    let mut loss = 0.0;
    let mut scores = Vec::new();
    for s in samples {
        scores.clear();
        scores.extend(s.features.iter().map(|f| score(w, f)));
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = scores
            .iter()
            .zip(&s.weight)
            .map(|(x, c)| c * (x - max).exp())
            .sum();
        let expected: f64 = scores.iter().zip(&s.target).map(|(x, t)| t * x).sum();
        loss += max + z.ln() - expected;
        if let Some((g, h)) = derivatives.as_mut() {
            let mut mean = [0.0; NUM_FEATURES];
            let mut second = [[0.0; NUM_FEATURES]; NUM_FEATURES];
            for ((f, x), (c, t)) in s
                .features
                .iter()
                .zip(&scores)
                .zip(s.weight.iter().zip(&s.target))
            {
                let q = c * (x - max).exp() / z;
                for i in 0..NUM_FEATURES {
                    let fi = f[i] as f64;
                    mean[i] += q * fi;
                    g[i] -= t * fi;
                    for j in 0..=i {
                        second[i][j] += q * fi * f[j] as f64;
                    }
                }
            }
            for i in 0..NUM_FEATURES {
                g[i] += mean[i];
                for j in 0..=i {
                    h[i][j] += second[i][j] - mean[i] * mean[j];
                }
            }
        }
    }
    let n = samples.len().max(1) as f64;
    if let Some((g, h)) = derivatives {
        for i in 0..NUM_FEATURES {
            g[i] /= n;
            for j in 0..=i {
                h[i][j] /= n;
                h[j][i] = h[i][j];
            }
        }
    }
    loss / n
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is small and, with the
/// ridge the callers add, positive definite).
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

/// Newton's method on the prior's cross-entropy, halving steps that do not improve it; only the
/// first `active` weights move (the others keep their start values).
fn fit_prior(
    samples: &[PriorSample],
    start: [f64; NUM_FEATURES],
    active: usize,
) -> [f64; NUM_FEATURES] {
    let mut w = start;
    let mut loss = prior_loss(samples, &w, None);
    for _ in 0..30 {
        let mut g = [0.0; NUM_FEATURES];
        let mut h = [[0.0; NUM_FEATURES]; NUM_FEATURES];
        prior_loss(samples, &w, Some((&mut g, &mut h)));
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-6;
            if i >= active {
                *row = [0.0; NUM_FEATURES];
                row[i] = 1.0;
                g[i] = 0.0;
            }
        }
        for row in &mut h[..active] {
            row[active..].fill(0.0);
        }
        let step = solve(h, g);
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-4 {
            let mut trial = w;
            for i in 0..NUM_FEATURES {
                trial[i] -= t * step[i];
            }
            let l = prior_loss(samples, &trial, None);
            if l < loss {
                improved = loss - l > 1e-9;
                w = trial;
                loss = l;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    w
}

/// How well a set of weights predicts the held-out visit distributions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PriorMetrics {
    /// Cross-entropy of the search's rank prior `1 / (rank + 1)` over the weights' ordering.
    pub rank_ce: f64,
    /// Cross-entropy of the softmax of the weights' scores.
    pub softmax_ce: f64,
    /// Share of positions where the best-scored move is the most visited one.
    pub top1: f64,
    /// Share of positions where the most visited move is among the three best-scored.
    pub top3: f64,
}

/// The metrics of `w` on `samples` (which must hold every legal move of their positions).
fn prior_metrics(samples: &[PriorSample], w: &[f64; NUM_FEATURES]) -> PriorMetrics {
    let (rank_ce, top1, top3) = rank_stats(samples, w);
    PriorMetrics {
        rank_ce,
        softmax_ce: prior_loss(samples, w, None),
        top1,
        top3,
    }
}

/// The rank prior's cross-entropy, top-1 and top-3 shares of `w` on `samples`.
fn rank_stats(samples: &[PriorSample], w: &[f64; NUM_FEATURES]) -> (f64, f64, f64) {
    let (mut ce, mut top1, mut top3) = (0.0, 0.0, 0.0);
    let mut order: Vec<(f32, Move, usize)> = Vec::new();
    for s in samples {
        // The search ranks by the f32 score, ties broken by the move (`ordering.rs`).
        order.clear();
        order.extend(
            s.features
                .iter()
                .zip(&s.moves)
                .enumerate()
                .map(|(i, (f, &mv))| (score(w, f) as f32, mv, i)),
        );
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let rank_of_best = order
            .iter()
            .position(|x| x.2 == s.best)
            .unwrap_or(usize::MAX);
        top1 += (rank_of_best == 0) as u8 as f64;
        top3 += (rank_of_best < 3) as u8 as f64;
        let norm: f64 = (1..=order.len()).map(|r| 1.0 / r as f64).sum();
        for (rank, x) in order.iter().enumerate() {
            let t = s.target[x.2];
            if t > 0.0 {
                ce -= t * ((1.0 / (rank + 1) as f64) / norm).ln();
            }
        }
    }
    let n = samples.len().max(1) as f64;
    (ce / n, top1 / n, top3 / n)
}

/// Most rank cross-entropies [`fit_rank`] computes.
const RANK_EVALUATIONS: usize = 240;

/// Coordinate descent on the rank prior's cross-entropy (what the search's priors see: only
/// the order of the scores matters, so the loss is piecewise constant and has no gradient).
/// Steps along one weight at a time while that improves, then halves the step; only the first
/// `active` weights move.
fn fit_rank(
    samples: &[PriorSample],
    start: [f64; NUM_FEATURES],
    active: usize,
) -> [f64; NUM_FEATURES] {
    let mut w = start;
    let mut best = rank_stats(samples, &w).0;
    let mut evaluations = 1;
    let mut step = 0.5;
    while step > 0.02 && evaluations < RANK_EVALUATIONS {
        let mut improved = false;
        for i in 0..active {
            for sign in [1.0, -1.0] {
                while evaluations < RANK_EVALUATIONS {
                    let mut trial = w;
                    trial[i] += sign * step;
                    let l = rank_stats(samples, &trial).0;
                    evaluations += 1;
                    if l < best - 1e-7 {
                        w = trial;
                        best = l;
                        improved = true;
                    } else {
                        break;
                    }
                }
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    w
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

/// The evaluation sample of `r`.
fn eval_sample(r: &Record, params: &EvalParams, result_weight: f64) -> EvalSample {
    let t = terms(&r.position, params);
    let target = match r.value {
        Some(v) => result_weight * r.result + (1.0 - result_weight) * v,
        None => r.result,
    };
    EvalSample {
        t: [t.t1, t.t2, t.c1, t.c2, t.mobility].map(f64::from),
        phase: f64::from((t.w / params.phase_norm).min(1.0)),
        target,
    }
}

/// Fits weights to `records` (see the module documentation).
pub fn fit(records: &[Record], args: &TrainArgs) -> Result<TrainReport, String> {
    if !(0.0..1.0).contains(&args.holdout) {
        return Err("--holdout must be at least 0 and below 1".into());
    }
    if !(args.sharpen > 0.0 && args.sharpen.is_finite()) {
        return Err("--sharpen must be positive".into());
    }
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err("--result-weight must be from 0 to 1".into());
    }
    let start = args.start.weights();
    let held_out =
        |game: u64| (mix(args.seed ^ mix(game)) % 1_000_000) as f64 / 1_000_000.0 < args.holdout;
    let mut prior_train = Vec::new();
    let mut prior_held = Vec::new();
    let mut rank_train = Vec::new();
    let mut eval_train = Vec::new();
    let mut eval_held = Vec::new();
    let mut games: Vec<u64> = records.iter().map(|r| r.game).collect();
    games.sort_unstable();
    games.dedup();
    for r in records {
        let held = held_out(r.game);
        let mut rng = SmallRng::seed_from_u64(mix(args.seed ^ mix(r.game) ^ (r.ply as u64) << 48));
        let (negatives, sharpen) = if held {
            (None, 1.0)
        } else {
            (Some(args.negatives), args.sharpen)
        };
        if args.objective == PriorObjective::Rank && !held && r.ply % args.rank_every.max(1) == 0 {
            if let Some(s) = prior_sample(r, None, args.sharpen, &mut rng) {
                rank_train.push(s);
            }
        }
        if let Some(mut s) = prior_sample(r, negatives, sharpen, &mut rng) {
            s.best = 0;
            if held {
                &mut prior_held
            } else {
                &mut prior_train
            }
            .push(s);
        }
        let e = eval_sample(r, &start.eval, args.result_weight);
        if held {
            &mut eval_held
        } else {
            &mut eval_train
        }
        .push(e);
    }
    if prior_train.is_empty() || eval_train.is_empty() {
        return Err("no training positions (too little data, or all of it held out)".into());
    }
    let w0 = weight_vector(&start.ordering);
    let basic = fit_prior(&prior_train, w0, NUM_BASIC_FEATURES);
    let softmax = fit_prior(&prior_train, w0, NUM_FEATURES);
    let w = match args.objective {
        PriorObjective::Softmax => softmax,
        PriorObjective::Rank => fit_rank(&rank_train, w0, NUM_FEATURES),
    };
    let prior = Fit {
        train_before: prior_loss(&prior_train, &w0, None),
        train_after: prior_loss(&prior_train, &w, None),
        held_before: prior_loss(&prior_held, &w0, None),
        held_after: prior_loss(&prior_held, &w, None),
    };
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
        prior_positions: (prior_train.len(), prior_held.len()),
        eval_positions: (eval_train.len(), eval_held.len()),
        metrics: [
            prior_metrics(&prior_held, &w0),
            prior_metrics(&prior_held, &basic),
            prior_metrics(&prior_held, &softmax),
            prior_metrics(&prior_held, &w),
        ],
        prior,
        eval,
        weights: Weights {
            ordering: match args.fit {
                FitParts::Eval => start.ordering,
                _ => weights_from_vector(&w),
            },
            eval: match args.fit {
                FitParts::Prior => start.eval,
                _ => eval_from_vector(&v),
            },
        },
    })
}

impl TrainReport {
    /// The lines written as comments at the top of the weights file and printed by `train`.
    pub fn lines(&self, args: &TrainArgs) -> Vec<String> {
        let f = |x: &Fit| {
            format!(
                "train {:.4} -> {:.4}, held out {:.4} -> {:.4}",
                x.train_before, x.train_after, x.held_before, x.held_after
            )
        };
        let m = |g: fn(&PriorMetrics) -> f64| {
            let v: Vec<String> = self
                .metrics
                .iter()
                .map(|x| format!("{:.4}", g(x)))
                .collect();
            v.join(" / ")
        };
        vec![
            "Fitted weights, written by `hippolyta train` (see the README section \"Training\").".into(),
            format!(
                "data: {} positions from {} games; seed {}, held out {}, {} negatives, sharpen {}, rank every {}, result weight {}, start {:?}, fit {:?}",
                self.positions, self.games, args.seed, args.holdout, args.negatives,
                args.sharpen, args.rank_every, args.result_weight, args.start, args.fit
            ),
            format!(
                "move prior: {} + {} positions; cross-entropy {}",
                self.prior_positions.0,
                self.prior_positions.1,
                f(&self.prior),
            ),
            format!(
                "held-out prior (start / softmax fit of 7 features / of {NUM_FEATURES} / written, objective {:?}):",
                args.objective
            ),
            format!(
                "  rank prior 1/(r+1) cross-entropy {}",
                m(|x| x.rank_ce)
            ),
            format!("  softmax cross-entropy {}", m(|x| x.softmax_ce)),
            format!("  top-1 {}", m(|x| x.top1)),
            format!("  top-3 {}", m(|x| x.top3)),
            format!(
                "evaluation: {} + {} positions; logistic loss {}",
                self.eval_positions.0,
                self.eval_positions.1,
                f(&self.eval)
            ),
        ]
    }
}

/// Runs `hippolyta train`: reads the files, fits, writes the weights file and prints the report.
pub fn run(args: &TrainArgs, log: &mut dyn Write) -> Result<TrainReport, String> {
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

//! Training the network on self-play positions: Adam on the logistic loss against a blend of the
//! game result and the search value, in mini-batches, with the held-out loss after every epoch;
//! the epoch with the lowest held-out loss is kept.
//!
//! Everything runs on one thread in a fixed order with a seeded generator of its own (SplitMix64),
//! so the same samples and options give the same bytes on every machine with IEEE arithmetic.
//! The inputs are symmetric by construction (`features.rs`), so no augmented images are added.

use super::features::{Inputs, NUM_INPUTS};
use super::network::Network;

/// One training position: its inputs and the target win probability of the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The network's inputs.
    pub x: Inputs,
    /// Target probability.
    pub target: f32,
}

/// Training options.
#[derive(Clone, Debug, PartialEq)]
pub struct NetTrainOptions {
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size (halved for each of the last three epochs).
    pub learning_rate: f32,
    /// L2 penalty on the first layer's weights.
    pub l2: f32,
    /// Seed of the initial weights and of the sample order.
    pub seed: u64,
}

impl Default for NetTrainOptions {
    fn default() -> Self {
        NetTrainOptions {
            hidden: super::network::DEFAULT_HIDDEN,
            epochs: 12,
            batch: 256,
            learning_rate: 1e-3,
            l2: 1e-6,
            seed: 1,
        }
    }
}

/// Losses after one epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// Epoch, from 1 (0: before training).
    pub epoch: usize,
    /// Mean logistic loss on the training samples.
    pub train_loss: f64,
    /// Mean logistic loss on the held-out samples (`NaN` when there are none).
    pub held_loss: f64,
}

/// SplitMix64 (`crate::splitmix`): a tiny generator whose output is fixed by its seed forever.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        let (state, out) = crate::splitmix::next(self.0);
        self.0 = state;
        out
    }

    /// Uniform in `[-1, 1)`.
    fn symmetric(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The weights as one flat vector in file order (`w1`, `b1`, `out`, `skip`, `b2`), and back.
fn flatten(net: &Network) -> Vec<f32> {
    let mut v = Vec::with_capacity(net.len());
    v.extend_from_slice(&net.w1);
    v.extend_from_slice(&net.b1);
    v.extend_from_slice(&net.out);
    v.extend_from_slice(&net.skip);
    v.push(net.b2);
    v
}

fn unflatten(v: &[f32], hidden: usize) -> Network {
    let h = hidden;
    let (w1, rest) = v.split_at(NUM_INPUTS * h);
    let (b1, rest) = rest.split_at(h);
    let (out, rest) = rest.split_at(h);
    let (skip, rest) = rest.split_at(NUM_INPUTS);
    Network {
        hidden,
        w1: w1.to_vec(),
        b1: b1.to_vec(),
        out: out.to_vec(),
        skip: skip.to_vec(),
        b2: rest[0],
    }
}

/// Logistic loss of predicting logit `z` for target `y`, computed stably.
fn loss(z: f64, y: f64) -> f64 {
    // log(1 + e^z) - y z, written to avoid overflow for large |z|.
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// Mean loss of `net` on `samples`.
pub fn mean_loss(net: &Network, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| loss(f64::from(net.logit(&s.x)), f64::from(s.target)))
        .sum();
    total / samples.len() as f64
}

/// Trains a network on `train`, reporting each epoch (and the start, as epoch 0) to `progress`,
/// and returns the one with the lowest held-out loss (the last one when `held` is empty).
pub fn train(
    train: &[Sample],
    held: &[Sample],
    opts: &NetTrainOptions,
    progress: &mut dyn FnMut(&EpochReport),
) -> Network {
    let h = opts.hidden;
    let mut rng = SplitMix(opts.seed);
    let mut net = Network::linear(h);
    // The linear path starts as the linear evaluation; the hidden layer starts small and random,
    // so the first steps refine the evaluation rather than replace it.
    let scale = (2.0 / NUM_INPUTS as f32).sqrt();
    for w in net.w1.iter_mut() {
        *w = scale * rng.symmetric();
    }
    for o in net.out.iter_mut() {
        *o = 0.05 * rng.symmetric();
    }
    let report = |epoch: usize, net: &Network| EpochReport {
        epoch,
        train_loss: mean_loss(net, train),
        held_loss: mean_loss(net, held),
    };
    let start = report(0, &net);
    progress(&start);
    let mut best = (start.held_loss, net.clone());

    let mut params = flatten(&net);
    let n = params.len();
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let mut grad = vec![0.0f32; n];
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let w1_len = NUM_INPUTS * h;
    let (b1_at, out_at, skip_at, b2_at) = (w1_len, w1_len + h, w1_len + 2 * h, n - 1);
    let mut pre = vec![0.0f32; h];
    for epoch in 1..=opts.epochs {
        // Fisher-Yates with our own generator: the order is part of the reproducible output.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = opts.learning_rate * 0.5f32.powi((epoch + 3).saturating_sub(opts.epochs) as i32);
        for batch in order.chunks(opts.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &k in batch {
                let s = &train[k];
                // Forward.
                pre.copy_from_slice(&params[b1_at..out_at]);
                let mut z = params[b2_at];
                for (i, &xi) in s.x.iter().enumerate() {
                    if xi != 0.0 {
                        z += params[skip_at + i] * xi;
                        let col = &params[i * h..(i + 1) * h];
                        for (p, &w) in pre.iter_mut().zip(col) {
                            *p += w * xi;
                        }
                    }
                }
                for (j, &p) in pre.iter().enumerate() {
                    z += p.max(0.0) * params[out_at + j];
                }
                // Backward: d loss / d z = sigmoid(z) - target.
                let g = 1.0 / (1.0 + (-z).exp()) - s.target;
                grad[b2_at] += g;
                for (j, &p) in pre.iter().enumerate() {
                    if p > 0.0 {
                        grad[out_at + j] += g * p;
                        let d = g * params[out_at + j];
                        grad[b1_at + j] += d;
                        pre_grad_store(&mut grad, &s.x, j, h, d);
                    }
                }
                for (i, &xi) in s.x.iter().enumerate() {
                    if xi != 0.0 {
                        grad[skip_at + i] += g * xi;
                    }
                }
            }
            step += 1;
            let inv = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            for i in 0..n {
                let mut gi = grad[i] * inv;
                if i < w1_len {
                    gi += opts.l2 * params[i];
                }
                m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
                v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
                params[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        net = unflatten(&params, h);
        let r = report(epoch, &net);
        progress(&r);
        if held.is_empty() || r.held_loss < best.0 {
            best = (r.held_loss, net.clone());
        }
    }
    best.1
}

/// Adds `d * x[i]` to the gradient of `w1[i][j]` for every non-zero input `i`.
#[inline]
fn pre_grad_store(grad: &mut [f32], x: &Inputs, j: usize, h: usize, d: f32) {
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            grad[i * h + j] += d * xi;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{win_probability, EvalParams};
    use crate::net::features::{inputs, tests::random_positions};
    use crate::net::file::to_bytes;

    /// Samples whose target is not the linear evaluation's: it prefers the side to move with more
    /// mobile amazons, a signal the hidden layer can learn.
    fn samples() -> Vec<Sample> {
        let params = EvalParams::default();
        random_positions(21, 6)
            .iter()
            .map(|p| {
                let x = inputs(p, &params);
                let lin = win_probability(p, &params);
                let target =
                    (0.5 * lin + 0.5 * (x[8] + x[9] > x[12] + x[13]) as u8 as f32).clamp(0.0, 1.0);
                Sample { x, target }
            })
            .collect()
    }

    #[test]
    fn training_is_byte_reproducible_and_learns() {
        let all = samples();
        let (train_set, held) = all.split_at(all.len() * 4 / 5);
        let opts = NetTrainOptions {
            hidden: 8,
            epochs: 4,
            batch: 16,
            learning_rate: 3e-3,
            ..NetTrainOptions::default()
        };
        let mut reports = Vec::new();
        let a = train(train_set, held, &opts, &mut |r| reports.push(r.clone()));
        let b = train(train_set, held, &opts, &mut |_| {});
        assert_eq!(to_bytes(&a), to_bytes(&b));
        assert_eq!(reports.len(), 5);
        assert!(reports[4].train_loss < reports[0].train_loss, "{reports:?}");
        let c = train(
            train_set,
            held,
            &NetTrainOptions { seed: 2, ..opts },
            &mut |_| {},
        );
        assert_ne!(to_bytes(&a), to_bytes(&c));
    }
}

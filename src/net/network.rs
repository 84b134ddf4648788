//! The network: one hidden layer of rectified units on the inputs of `features.rs`, plus a linear
//! path from the inputs straight to the output, which carries the linear evaluation's logit; the
//! output is the logit of the side to move's win probability.
//!
//! `logit = b2 + sum_i skip[i] x[i] + sum_h out[h] max(0, b1[h] + sum_i w1[h][i] x[i])`
//!
//! Inference is f32 and written so that the compiler vectorises the hidden layer: the inputs are
//! walked once, each adding its column of `w1` (stored input-major) to all the hidden units.

use super::checksum::fnv1a;
use super::features::{self, Inputs, NUM_INPUTS};
use crate::eval::{self, EvalParams};
use crate::position::Position;
use std::fmt;

/// Hidden units of the network this build writes by default.
pub const DEFAULT_HIDDEN: usize = 32;

/// A network's weights.
#[derive(Clone, PartialEq)]
pub struct Network {
    /// Hidden units.
    pub hidden: usize,
    /// First layer, input-major: `w1[i * hidden + h]` is the weight from input `i` to unit `h`.
    pub w1: Vec<f32>,
    /// First layer biases.
    pub b1: Vec<f32>,
    /// Output weights of the hidden units.
    pub out: Vec<f32>,
    /// Weights of the direct path from each input to the output.
    pub skip: Vec<f32>,
    /// Output bias.
    pub b2: f32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The weights themselves would fill a screen; their shape and checksum tell nets apart.
        let bytes: Vec<u8> = (self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.out)
            .chain(&self.skip))
        .chain(std::iter::once(&self.b2))
        .flat_map(|w| w.to_le_bytes())
        .collect();
        write!(
            f,
            "Network {{ inputs: {NUM_INPUTS}, hidden: {}, checksum: {:016x} }}",
            self.hidden,
            fnv1a(&bytes)
        )
    }
}

impl Network {
    /// A network that computes exactly the linear evaluation's logit: skip weight 1 on it and
    /// everything else zero. Training starts from it (with small random hidden weights).
    pub fn linear(hidden: usize) -> Network {
        let mut skip = vec![0.0; NUM_INPUTS];
        skip[features::LINEAR] = 1.0;
        Network {
            hidden,
            w1: vec![0.0; NUM_INPUTS * hidden],
            b1: vec![0.0; hidden],
            out: vec![0.0; hidden],
            skip,
            b2: 0.0,
        }
    }

    /// Number of weights.
    pub fn len(&self) -> usize {
        self.w1.len() + self.b1.len() + self.out.len() + self.skip.len() + 1
    }

    /// Whether the network has no weights (never: there is always the output bias).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The output logit for inputs `x`.
    ///
    /// On x86-64 processors with AVX2 a copy compiled for it is chosen at run time. Both copies
    /// add in the same order (the compiler never reassociates floating-point sums, and Rust does
    /// not fuse multiply-adds), so they give the same bits and the bench signature is the same on
    /// every machine.
    #[inline]
    pub fn logit(&self, x: &Inputs) -> f32 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor supports AVX2, checked just above.
                return unsafe { self.logit_avx2(x) };
            }
        }
        self.logit_impl(x)
    }

    /// [`Network::logit_impl`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn logit_avx2(&self, x: &Inputs) -> f32 {
        self.logit_impl(x)
    }

    #[inline(always)]
    fn logit_impl(&self, x: &Inputs) -> f32 {
        let h = self.hidden;
        // Hidden widths are small; a fixed-size buffer keeps the hot path free of allocation.
        let mut acc = [0.0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b1);
        let mut direct = self.b2;
        for (i, (&xi, col)) in x.iter().zip(self.w1.chunks_exact(h)).enumerate() {
            direct += self.skip[i] * xi;
            if xi != 0.0 {
                for (a, &w) in acc.iter_mut().zip(col) {
                    *a += w * xi;
                }
            }
        }
        direct
            + acc
                .iter()
                .zip(&self.out)
                .map(|(&a, &o)| a.max(0.0) * o)
                .sum::<f32>()
    }

    /// The win probability of the side to move in `pos`: 0 when it has no move, the network's on
    /// 10x10 boards, the linear evaluation's on others.
    #[inline]
    pub fn win_probability(&self, pos: &Position, params: &EvalParams) -> f32 {
        if !pos.has_legal_move() {
            return 0.0;
        }
        if !features::applies(pos) {
            return eval::win_probability(pos, params);
        }
        eval::logistic(self.logit(&features::inputs(pos, params)))
    }
}

/// Widest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 256;

/// The network's logit computed the plain way, unit by unit, straight from the formula: the
/// reference that tests hold [`Network::logit`] to.
// Index loops on purpose: the reference follows the formula subscript by subscript.
#[allow(clippy::needless_range_loop)]
pub fn reference_logit(net: &Network, x: &Inputs) -> f64 {
    let mut total = f64::from(net.b2);
    for i in 0..NUM_INPUTS {
        total += f64::from(net.skip[i]) * f64::from(x[i]);
    }
    for h in 0..net.hidden {
        let mut a = f64::from(net.b1[h]);
        for i in 0..NUM_INPUTS {
            a += f64::from(net.w1[i * net.hidden + h]) * f64::from(x[i]);
        }
        total += a.max(0.0) * f64::from(net.out[h]);
    }
    total
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::net::features::tests::random_positions;

    /// A network with every weight drawn at random, so that every path matters.
    pub(crate) fn random_net(seed: u64, hidden: usize) -> Network {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut r = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-0.5..0.5)).collect() };
        Network {
            hidden,
            w1: r(NUM_INPUTS * hidden),
            b1: r(hidden),
            out: r(hidden),
            skip: r(NUM_INPUTS),
            b2: 0.25,
        }
    }

    #[test]
    fn inference_equals_the_reference_on_random_positions() {
        let params = EvalParams::default();
        for hidden in [1, 7, 32, 64] {
            let net = random_net(hidden as u64, hidden);
            for pos in random_positions(11, 3) {
                let x = features::inputs(&pos, &params);
                let fast = f64::from(net.logit(&x));
                let slow = reference_logit(&net, &x);
                assert!(
                    (fast - slow).abs() <= 1e-4 * (1.0 + slow.abs()),
                    "{pos}: {fast} vs {slow} (hidden {hidden})"
                );
            }
        }
    }

    #[test]
    fn the_linear_network_is_the_linear_evaluation() {
        let params = EvalParams::default();
        let net = Network::linear(DEFAULT_HIDDEN);
        for pos in random_positions(5, 2) {
            let a = net.win_probability(&pos, &params);
            let b = eval::win_probability(&pos, &params);
            assert!((a - b).abs() < 1e-4, "{pos}: {a} vs {b}");
        }
    }

    #[test]
    fn other_board_sizes_use_the_linear_evaluation() {
        let params = EvalParams::default();
        let net = random_net(3, 8);
        let pos = Position::start(8).unwrap();
        assert_eq!(
            net.win_probability(&pos, &params),
            eval::win_probability(&pos, &params)
        );
    }
}

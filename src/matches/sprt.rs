//! Sequential probability ratio test on colour-swapped game pairs (the pentanomial model).
//!
//! The log-likelihood ratio is the generalised SPRT of Michel Van den Bergh ("Comments on
//! Normalized Elo"), as used by fishtest and fastchess: for each hypothesis the maximum-likelihood
//! distribution over the five pair scores is found under the constraint that it has the
//! hypothesised expected score (logistic model) or normalised Elo (normalised model); the LLR is the
//! number of pairs times the mean log ratio of the two distributions under the observed
//! frequencies. Empty categories count as 0.001 pairs so that no probability is zero.

use super::stats::{elo_to_score, Pentanomial};
use std::fmt;

/// What the Elo bounds of the test mean.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Logistic Elo, the scale of the reported Elo difference (default).
    Logistic,
    /// Normalised Elo: score difference in units of its standard deviation (fastchess's default).
    Normalized,
}

/// The test's parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis.
    pub elo0: f64,
    /// Elo difference under the alternative.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

/// State of a running test.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Not decided yet.
    Continue,
    /// The LLR fell to the lower bound: no evidence of the gain `elo1`.
    AcceptH0,
    /// The LLR reached the upper bound: the first engine is at least `elo1` stronger (at `alpha`).
    AcceptH1,
}

/// A `--sprt` argument that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSprtError(String);

impl fmt::Display for ParseSprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad --sprt: {}", self.0)
    }
}

impl std::error::Error for ParseSprtError {}

impl Sprt {
    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=logistic|normalized]` (words in any
    /// order, possibly several per argument; alpha and beta default to 0.05).
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Sprt, ParseSprtError> {
        let mut elo0 = None;
        let mut elo1 = None;
        let mut alpha = 0.05;
        let mut beta = 0.05;
        let mut model = SprtModel::Logistic;
        for word in args.iter().flat_map(|a| a.as_ref().split_whitespace()) {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| ParseSprtError(format!("expected key=value, got '{word}'")))?;
            let num = || -> Result<f64, ParseSprtError> {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| ParseSprtError(format!("{k}={v} is not a number")))
            };
            match k {
                "elo0" => elo0 = Some(num()?),
                "elo1" => elo1 = Some(num()?),
                "alpha" => alpha = num()?,
                "beta" => beta = num()?,
                "model" => {
                    model = match v {
                        "logistic" => SprtModel::Logistic,
                        "normalized" | "normalised" => SprtModel::Normalized,
                        _ => {
                            return Err(ParseSprtError(format!(
                                "model must be logistic or normalized, not '{v}'"
                            )))
                        }
                    }
                }
                _ => {
                    return Err(ParseSprtError(format!(
                        "unknown key '{k}' (keys: elo0 elo1 alpha beta model)"
                    )))
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(ParseSprtError("elo0 and elo1 are required".into()));
        };
        if elo0 >= elo1 {
            return Err(ParseSprtError("elo0 must be less than elo1".into()));
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err(ParseSprtError(
                "alpha and beta must lie in (0, 1) with alpha + beta < 1".into(),
            ));
        }
        if model == SprtModel::Logistic && (elo0.abs() >= 2000.0 || elo1.abs() >= 2000.0) {
            return Err(ParseSprtError("Elo bounds must lie within ±2000".into()));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// `(lower, upper)`: the test accepts H0 at or below `ln(beta / (1 - alpha))` and H1 at or above
    /// `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs seen so far (0 before any pair).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let reg: [f64; 5] = p.counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = reg.iter().sum();
        let freq = reg.map(|c| c / total);
        let a = Pentanomial::SCORES;
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&a, &freq, elo_to_score(self.elo0)),
                mle_with_mean(&a, &freq, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => {
                // Pair scores have sqrt(2) times the per-game normalised offset.
                let scale = std::f64::consts::SQRT_2 * std::f64::consts::LN_10 / 800.0;
                (
                    mle_with_t(&a, &freq, 0.5, self.elo0 * scale),
                    mle_with_t(&a, &freq, 0.5, self.elo1 * scale),
                )
            }
        };
        total
            * (0..5)
                .map(|i| freq[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    /// The decision for a given LLR.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic`.
    pub fn describe(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                SprtModel::Logistic => "logistic",
                SprtModel::Normalized => "normalized",
            }
        )
    }
}

/// Root of a decreasing function on the open interval (lo, hi) where it goes from +inf to -inf,
/// by bisection (the midpoints never touch the poles at the ends).
fn decreasing_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution on `scores` closest (in likelihood) to the frequencies `freq` whose mean is `s`:
/// `p_i = freq_i / (1 + theta (a_i - s))` with theta solving `sum freq_i (a_i - s) / (1 + theta
/// (a_i - s)) = 0` (Van den Bergh, proposition 1.1). Needs `min a < s < max a`.
fn mle_with_mean(scores: &[f64; 5], freq: &[f64; 5], s: f64) -> [f64; 5] {
    let d = scores.map(|a| a - s);
    let g = |theta: f64| -> f64 { (0..5).map(|i| freq[i] * d[i] / (1.0 + theta * d[i])).sum() };
    let theta = decreasing_root(g, -1.0 / (scores[4] - s), -1.0 / (scores[0] - s));
    std::array::from_fn(|i| freq[i] / (1.0 + theta * d[i]))
}

/// The distribution on `scores` closest to `freq` whose normalised offset `(mean - mu_ref) / sd`
/// is `t`, by the fixed-point iteration of Van den Bergh, section 4.1.
fn mle_with_t(scores: &[f64; 5], freq: &[f64; 5], mu_ref: f64, t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let mu: f64 = (0..5).map(|i| p[i] * scores[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (scores[i] - mu).powi(2)).sum();
        let sd = var.sqrt();
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (scores[i] - mu) / sd;
            scores[i] - mu_ref - 0.5 * t * sd * (1.0 + z * z)
        });
        let lo_phi = phi.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi_phi = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let g = |theta: f64| -> f64 {
            (0..5)
                .map(|i| freq[i] * phi[i] / (1.0 + theta * phi[i]))
                .sum()
        };
        let theta = decreasing_root(g, -1.0 / hi_phi, -1.0 / lo_phi);
        let mut change: f64 = 0.0;
        for i in 0..5 {
            let q = freq[i] / (1.0 + theta * phi[i]);
            change = change.max((q - p[i]).abs());
            p[i] = q;
        }
        if change < 1e-12 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn parses_arguments() {
        let s = Sprt::parse(&["elo0=0", "elo1=10", "alpha=0.05", "beta=0.1"]).unwrap();
        assert_eq!(
            s,
            Sprt {
                elo0: 0.0,
                elo1: 10.0,
                alpha: 0.05,
                beta: 0.1,
                model: SprtModel::Logistic
            }
        );
        let t = Sprt::parse(&["elo0=-5 elo1=5 model=normalized"]).unwrap();
        assert_eq!(t.model, SprtModel::Normalized);
        for bad in [
            &["elo0=10", "elo1=0"][..],
            &["elo1=10"],
            &["elo0=0", "elo1=10", "alpha=1"],
            &["elo0=0", "elo1=10", "gamma=1"],
            &["elo0=0", "elo1=x"],
            &["elo0", "elo1=1"],
            &["elo0=0", "elo1=1", "model=bayes"],
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bounds_for_five_percent() {
        let (lo, hi) = sprt(0.0, 10.0, SprtModel::Logistic).bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!((lo + 2.944_438_979).abs() < 1e-8);
        assert!((hi - 2.944_438_979).abs() < 1e-8);
    }

    #[test]
    fn mle_has_the_requested_mean() {
        let freq = [0.1, 0.15, 0.4, 0.2, 0.15];
        for s in [0.3, 0.5, 0.514, 0.7] {
            let p = mle_with_mean(&Pentanomial::SCORES, &freq, s);
            let total: f64 = p.iter().sum();
            let mean: f64 = (0..5).map(|i| p[i] * Pentanomial::SCORES[i]).sum();
            assert!((total - 1.0).abs() < 1e-9 && (mean - s).abs() < 1e-9, "{s}");
        }
    }

    #[test]
    fn logistic_llr_matches_reference_values() {
        // Reference values from scripts/sprt_reference.py, an independent Python version.
        let s = sprt(0.0, 10.0, SprtModel::Logistic);
        let table = [
            ([10, 20, 40, 20, 10], -0.1379),
            ([5, 20, 40, 25, 10], 0.6716),
            ([0, 30, 40, 0, 30], 1.2774),
            ([100, 0, 500, 0, 150], 3.4002),
        ];
        for (counts, want) in table {
            let got = s.llr(&penta(counts));
            assert!((got - want).abs() < 1e-3, "{counts:?}: {got} vs {want}");
        }
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn logistic_llr_approaches_the_normal_approximation() {
        // For many pairs the GSPRT approaches N (s1 - s0)(2 s - s0 - s1) / (2 var) (the formula
        // of the older cutechess-style tests), with var the per-pair variance of the mean score.
        let s = sprt(0.0, 10.0, SprtModel::Logistic);
        let counts = [1000, 2000, 4000, 2200, 1200];
        let p = penta(counts);
        let n = p.pairs() as f64;
        let f = counts.map(|c| c as f64 / n);
        let mean: f64 = (0..5).map(|i| f[i] * Pentanomial::SCORES[i]).sum();
        let var: f64 = (0..5)
            .map(|i| f[i] * (Pentanomial::SCORES[i] - mean).powi(2))
            .sum();
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(10.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = s.llr(&p);
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs(),
            "{exact} {approx}"
        );
    }

    #[test]
    fn normalized_llr_matches_reference_values() {
        let s = sprt(0.0, 10.0, SprtModel::Normalized);
        let table = [
            ([10, 20, 40, 20, 10], -0.0828),
            ([5, 20, 40, 25, 10], 0.5155),
            ([0, 30, 40, 0, 30], 1.0316),
            ([100, 0, 500, 0, 150], 2.908),
        ];
        for (counts, want) in table {
            let got = s.llr(&penta(counts));
            assert!((got - want).abs() < 1e-3, "{counts:?}: {got} vs {want}");
        }
    }

    #[test]
    fn decisions() {
        let s = sprt(0.0, 10.0, SprtModel::Logistic);
        assert_eq!(s.status(0.0), SprtStatus::Continue);
        assert_eq!(s.status(3.0), SprtStatus::AcceptH1);
        assert_eq!(s.status(-3.0), SprtStatus::AcceptH0);
        // A clearly stronger engine is accepted, a clearly weaker one rejected.
        let strong = s.llr(&penta([2, 0, 30, 0, 400]));
        let weak = s.llr(&penta([400, 0, 30, 0, 2]));
        assert_eq!(s.status(strong), SprtStatus::AcceptH1);
        assert_eq!(s.status(weak), SprtStatus::AcceptH0);
    }
}

//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, and the
//! pentanomial counts of colour-swapped game pairs.
//!
//! Scores are from the first engine's point of view. Amazons has no draws, but the formulas keep
//! them so that they read like the usual chess ones.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference for an expected score in (0, 1): `-400 log10(1/s - 1)`. Gives
/// `±inf` at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, accurate to about 1e-15: `2/sqrt(pi) exp(-x^2) sum x^(2n+1) 2^n / (2n+1)!!`,
/// a series of positive terms (no cancellation); beyond |x| = 6 it is ±1 in double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return x.signum();
    }
    let mut term = a;
    let mut sum = a;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= 2.0 * a * a / (2.0 * n + 1.0);
        sum += term;
    }
    let r = 2.0 / std::f64::consts::PI.sqrt() * (-a * a).exp() * sum;
    r.copysign(x)
}

/// Likelihood of superiority: the probability that the first engine is the stronger, from wins
/// and losses (draws carry no information), `(1 + erf((W - L) / sqrt(2 (W + L)))) / 2`.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
    /// Mean score per game in [0, 1].
    pub score: f64,
}

impl EloEstimate {
    /// Half the width of the interval, as printed after `±`.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }

    /// Estimate from a distribution of outcomes: `counts[i]` samples scored `values[i]` (in [0, 1]);
    /// the interval uses the sample variance of those outcomes (normal approximation).
    fn from_distribution(values: &[f64], counts: &[u64]) -> Option<EloEstimate> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let mean: f64 = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * c as f64)
            .sum::<f64>()
            / nf;
        let var: f64 = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| c as f64 * (v - mean) * (v - mean))
            .sum::<f64>()
            / nf;
        let se = (var / nf).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(mean),
            lower: score_to_elo(mean - Z95 * se),
            upper: score_to_elo(mean + Z95 * se),
            score: mean,
        })
    }

    /// From single games (the trinomial model): wins, draws, losses.
    pub fn from_games(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&[1.0, 0.5, 0.0], &[wins, draws, losses])
    }

    /// From colour-swapped pairs (the pentanomial model): the variance of pair scores already holds
    /// the correlation that the shared opening puts between the two games of a pair.
    pub fn from_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&Pentanomial::SCORES, &p.counts)
    }
}

/// Counts of game pairs by pair score, `[LL, LD, WL+DD, WD, WW]` (0, 1/2, 1, 3/2, 2 points).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by total score in half points: index = points scored in the pair times two.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Mean score per game of each category.
    pub const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Adds a pair whose two games scored `a` and `b` (each 0, 0.5 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round() as usize;
        self.counts[half_points.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        // 60% is +70.4 Elo, 75% is +190.8, 90% is +381.7 (-400 log10(1/s - 1)).
        assert!(close(score_to_elo(0.6), 70.437, 1e-3));
        assert!(close(score_to_elo(0.75), 190.849, 1e-3));
        assert!(close(score_to_elo(0.9), 381.697, 1e-3));
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(close(score_to_elo(0.4), -70.437, 1e-3));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        for e in [-300.0, -12.5, 0.0, 70.0, 400.0] {
            assert!(close(score_to_elo(elo_to_score(e)), e, 1e-9));
        }
    }

    #[test]
    fn erf_matches_tables() {
        let table = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (-1.0, -0.842_700_792_949_714_9),
        ];
        for (x, want) in table {
            assert!(close(erf(x), want, 1e-14), "erf({x}) = {}", erf(x));
        }
        assert_eq!(erf(7.0), 1.0);
    }

    #[test]
    fn los_of_known_results() {
        assert_eq!(los(10, 10), 0.5);
        // 60 wins, 40 losses: (1 + erf(20 / sqrt(200))) / 2 = Phi(2) = 0.97725.
        assert!(close(los(60, 40), 0.977_249_868, 1e-8));
        assert!(close(los(40, 60), 1.0 - 0.977_249_868, 1e-8));
        assert_eq!(los(0, 0), 0.5);
    }

    #[test]
    fn interval_from_games() {
        // 60 of 100: variance 0.24, standard error 0.04899; the interval is the Elo of
        // 0.6 -+ 1.96 * 0.04899 = 0.50398 .. 0.69602, i.e. +2.77 .. +143.91 Elo.
        let e = EloEstimate::from_games(60, 0, 40).unwrap();
        assert!(close(e.elo, 70.437, 1e-3));
        assert!(close(e.lower, 2.767, 2e-3), "{}", e.lower);
        assert!(close(e.upper, 143.909, 2e-3), "{}", e.upper);
        assert!(EloEstimate::from_games(0, 0, 0).is_none());
        let all = EloEstimate::from_games(5, 0, 0).unwrap();
        assert_eq!(all.elo, f64::INFINITY);
    }

    #[test]
    fn pentanomial_counts_and_interval() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.0, 1.0);
        p.add(0.0, 0.0);
        p.add(1.0, 0.5);
        assert_eq!(p.counts, [1, 0, 2, 1, 1]);
        assert_eq!(p.pairs(), 5);
        // Pairs all split 1-1 except those: the point estimate is the mean of the games.
        let q = Pentanomial {
            counts: [10, 0, 60, 0, 30],
        };
        let e = EloEstimate::from_pentanomial(&q).unwrap();
        assert!(close(e.score, 0.6, 1e-12));
        // Pair variance: 0.1*0.36 + 0.6*0.01 + 0.3*0.16 = 0.09; se = 0.03 over 100 pairs.
        assert!(close(e.lower, score_to_elo(0.6 - Z95 * 0.03), 1e-9));
        assert!(close(e.upper, score_to_elo(0.6 + Z95 * 0.03), 1e-9));
    }
}

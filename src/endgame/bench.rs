//! `hippolyta endgame-bench`: time to solve random one-side regions of 10, 15, 20 and 25 empty
//! squares (see [`super::random`] for how they are grown).
//!
//! Each region is solved by a solver whose table was cleared first (not timed), so no region
//! profits from an earlier one; the time covers the greedy bound and the proof.

use super::area::{greedy_fill, Area};
use super::random::{random_shape, Shape};
use super::{Budget, Solver};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt;
use std::time::{Duration, Instant};

/// Region sizes (empty squares) the benchmark measures.
pub const SIZES: [u32; 4] = [10, 15, 20, 25];

/// Benchmark settings.
#[derive(Copy, Clone, Debug)]
pub struct BenchConfig {
    /// Regions per size.
    pub samples: usize,
    /// Seed of the region generator.
    pub seed: u64,
    /// Amazons per region.
    pub amazons: u32,
    /// Node budget per region.
    pub nodes: u64,
    /// Shape of the regions.
    pub shape: Shape,
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            samples: 200,
            seed: 1,
            amazons: 1,
            nodes: Budget::default().nodes,
            shape: Shape::Holey,
        }
    }
}

/// Measurements for one region size.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// Empty squares per region.
    pub squares: u32,
    /// Solve times, sorted.
    pub times: Vec<Duration>,
    /// Regions solved exactly.
    pub exact: usize,
    /// Regions where the budget ran out (only bounds).
    pub over_budget: usize,
    /// Regions with fewer moves than squares (defective).
    pub defective: usize,
    /// Regions where the greedy fill found fewer moves than the exact value.
    pub greedy_short: usize,
    /// Search nodes over all regions.
    pub nodes: u64,
}

impl SizeReport {
    /// The time below which a fraction `q` (0..=1) of the regions were solved.
    pub fn quantile(&self, q: f64) -> Duration {
        if self.times.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.times.len() - 1) as f64 * q).round() as usize;
        self.times[i]
    }
}

/// The whole benchmark result.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// The settings used.
    pub config: BenchConfig,
    /// One entry per size in [`SIZES`].
    pub sizes: Vec<SizeReport>,
}

/// Runs the benchmark.
pub fn run(config: BenchConfig) -> BenchReport {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut solver = Solver::new();
    let sizes = SIZES
        .iter()
        .map(|&squares| {
            let mut r = SizeReport {
                squares,
                times: Vec::with_capacity(config.samples),
                exact: 0,
                over_budget: 0,
                defective: 0,
                greedy_short: 0,
                nodes: 0,
            };
            for _ in 0..config.samples {
                let area: Area = random_shape(&mut rng, config.shape, squares, config.amazons);
                solver.clear();
                let start = Instant::now();
                let v = solver.area_moves_left(area, Budget::nodes(config.nodes));
                r.times.push(start.elapsed());
                r.nodes += solver.last_nodes();
                if v.is_exact() {
                    r.exact += 1;
                    if v.lo < area.squares() {
                        r.defective += 1;
                    }
                    if greedy_fill(area) < v.lo {
                        r.greedy_short += 1;
                    }
                } else {
                    r.over_budget += 1;
                }
            }
            r.times.sort_unstable();
            r
        })
        .collect();
    BenchReport { config, sizes }
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "endgame-bench: {} random {} regions per size, {} amazon(s) each, seed {}, budget {} nodes",
            c.samples,
            c.shape.name(),
            c.amazons,
            c.seed,
            c.nodes
        )?;
        writeln!(
            f,
            "squares  median_ms  p90_ms  max_ms  mean_nodes  exact  over_budget  defective  greedy_short"
        )?;
        for r in &self.sizes {
            writeln!(
                f,
                "{:>7}  {:>9}  {:>6}  {:>6}  {:>10}  {:>5}  {:>11}  {:>9}  {:>12}",
                r.squares,
                ms(r.quantile(0.5)),
                ms(r.quantile(0.9)),
                ms(r.quantile(1.0)),
                r.nodes / r.times.len().max(1) as u64,
                r.exact,
                r.over_budget,
                r.defective,
                r.greedy_short
            )?;
        }
        Ok(())
    }
}

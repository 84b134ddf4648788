//! The vocabulary of a proof, shared by the player contract and the df-pn solver: what one solve
//! may spend ([`ProofLimits`]) and what it found ([`Verdict`]). It lives below both so that the
//! player contract does not depend on the solver.

use crate::mv::Move;
use std::fmt;
use std::time::Duration;

/// What the solver proved about the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins, for example with this move.
    Win(Move),
    /// The side to move loses whatever it plays.
    Loss,
    /// Not settled within the limits.
    Unknown,
}

impl fmt::Display for Verdict {
    /// `win MOVE`, `loss` or `unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win(m) => write!(f, "win {m}"),
            Verdict::Loss => f.write_str("loss"),
            Verdict::Unknown => f.write_str("unknown"),
        }
    }
}

/// Limits of one solve.
#[derive(Copy, Clone, Debug)]
pub struct ProofLimits {
    /// Search nodes (expanded positions), at most.
    pub nodes: u64,
    /// Wall-clock time, at most.
    pub time: Option<Duration>,
    /// How often the progress callback is called.
    pub report_every: Duration,
}

impl Default for ProofLimits {
    /// No limit; progress every 10 seconds.
    fn default() -> ProofLimits {
        ProofLimits {
            nodes: u64::MAX,
            time: None,
            report_every: Duration::from_secs(10),
        }
    }
}

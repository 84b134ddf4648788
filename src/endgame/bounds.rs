//! What one fill-in solver call may spend ([`Budget`]) and what it proves ([`MovesLeft`]: exact
//! moves left, or proven bounds when the budget ran out).

use std::fmt;
use std::ops::Add;
use std::time::Instant;

/// How much work one solver call may do. When it runs out, the answer holds proven bounds instead
/// of exact values (never a guess).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search nodes for the whole call (all regions together).
    pub nodes: u64,
    /// Wall-clock limit for the whole call, if any (checked every 1024 nodes).
    pub deadline: Option<Instant>,
}

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget {
        nodes: u64::MAX,
        deadline: None,
    };

    /// At most `nodes` search nodes.
    pub const fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes,
            deadline: None,
        }
    }

    /// The same budget, also stopping at `deadline`.
    pub const fn until(self, deadline: Instant) -> Budget {
        Budget {
            nodes: self.nodes,
            deadline: Some(deadline),
        }
    }
}

impl Default for Budget {
    /// 2 million nodes: typically well under a second, enough to solve regions of 25 squares.
    fn default() -> Budget {
        Budget::nodes(2_000_000)
    }
}

/// Moves a side can still make: `lo..=hi`, exact when `lo == hi`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MovesLeft {
    /// Proven lower bound.
    pub lo: u32,
    /// Proven upper bound.
    pub hi: u32,
}

impl MovesLeft {
    /// Exactly `n`.
    pub const fn exact(n: u32) -> MovesLeft {
        MovesLeft { lo: n, hi: n }
    }

    /// Whether the value is known exactly.
    pub const fn is_exact(self) -> bool {
        self.lo == self.hi
    }

    /// The exact value, if known.
    pub const fn value(self) -> Option<u32> {
        if self.lo == self.hi {
            Some(self.lo)
        } else {
            None
        }
    }
}

impl Add for MovesLeft {
    type Output = MovesLeft;
    fn add(self, rhs: MovesLeft) -> MovesLeft {
        MovesLeft {
            lo: self.lo + rhs.lo,
            hi: self.hi + rhs.hi,
        }
    }
}

impl fmt::Display for MovesLeft {
    /// `12` when exact, `10..12` when bounded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() {
            write!(f, "{}", self.lo)
        } else {
            write!(f, "{}..{}", self.lo, self.hi)
        }
    }
}

//! What a solve reports: its progress and final counters ([`Progress`]), the root's moves by what
//! is known of them ([`MoveStatus`], [`FirstMoves`]), and the result ([`SolveReport`]).

use crate::mv::Move;
use crate::proof::Verdict;
use std::fmt;
use std::time::Duration;

/// Where a solve stands (also the final statistics).
#[derive(Copy, Clone, Debug, Default)]
pub struct Progress {
    /// Positions expanded.
    pub nodes: u64,
    /// New leaves looked at (settled statically or given initial numbers).
    pub leaves: u64,
    /// Positions stored as wins for their side to move.
    pub proven: u64,
    /// Positions stored as losses for their side to move.
    pub disproven: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
    /// Fraction of the table's slots in use.
    pub table_usage: f64,
    /// The root's first moves by what is known of them (in progress lines only).
    pub first_moves: Option<FirstMoves>,
}

/// The root's whole moves (up to board symmetry) counted by what the table and the bounds know of
/// them, as [`SolveReport::moves`] would list them at that moment: the figure to watch in a long
/// solve of a lost position, where every first move must be refuted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FirstMoves {
    /// Proven to win.
    pub won: usize,
    /// Proven to lose.
    pub lost: usize,
    /// All of them.
    pub total: usize,
}

impl FirstMoves {
    /// The counts of a list of root moves and their status.
    pub fn of(moves: &[(Move, MoveStatus)]) -> FirstMoves {
        let count = |f: fn(&MoveStatus) -> bool| moves.iter().filter(|(_, s)| f(s)).count();
        FirstMoves {
            won: count(|s| *s == MoveStatus::Wins),
            lost: count(|s| *s == MoveStatus::Loses),
            total: moves.len(),
        }
    }
}

impl Progress {
    /// Expanded positions per second.
    pub fn rate(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Progress {
    /// One line: nodes, rate, table use, proven and disproven counts, elapsed time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {} rate {:.0}/s table {:.1}% proven {} disproven {} time {:.1}s",
            self.nodes,
            self.rate(),
            self.table_usage * 100.0,
            self.proven,
            self.disproven,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(m) = self.first_moves {
            write!(
                f,
                " first moves won {} lost {} of {}",
                m.won, m.lost, m.total
            )?;
        }
        Ok(())
    }
}

/// A root move and what is known about it, from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveStatus {
    /// Proven to win.
    Wins,
    /// Proven to lose.
    Loses,
    /// Open, with the proof and disproof numbers of the position after it (opponent to move).
    Open {
        /// Proof number of the opponent's win.
        pn: u32,
        /// Disproof number of the opponent's win.
        dn: u32,
    },
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// What was proved.
    pub verdict: Verdict,
    /// Final counters.
    pub stats: Progress,
    /// The root's moves (up to board symmetry) with their status, most promising first.
    pub moves: Vec<(Move, MoveStatus)>,
    /// Whether the solve was stopped by its limits or the stop flag.
    pub stopped: bool,
    /// If the table grew: its size before (MiB) and the nodes searched with it, which the
    /// counters above do not include (they are the search with the whole table).
    pub grown: Option<(usize, u64)>,
}

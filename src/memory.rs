//! The one place that shares out the `memory` setting (MiB) between the tree search, the
//! whole-position solver's tables and the endgame tables.
//!
//! The rule: when a player proves positions before searching (the MCTS with `solver_empty` above
//! 0), the solver's share is a quarter of `memory`, at most 1 GiB, provided that leaves room for a
//! table ([`MIN_SOLVER_SHARE_MB`]); its main table is that share less what the solver holds beside
//! it ([`proof_player::overhead_mb`]: the probe table and an endgame table per thread). The rest
//! goes to the MCTS: each search thread's endgame oracle ([`ORACLE_BYTES`]) and the tree, which
//! gets whatever is left. Without a solver in play (random or greedy players, or `solver_empty 0`)
//! the MCTS has all of `memory`, and the `solve` command builds a solver of its own with the table
//! the rule would have given it, on top, for as long as the engine lives.

use crate::mcts::exact::ORACLE_BYTES;
use crate::proof_player;

/// The solver's share of `memory`: this fraction of it...
const SOLVER_SHARE_DIVISOR: usize = 4;
/// ... at most this many MiB.
const SOLVER_SHARE_MAX_MB: usize = 1024;
/// The smallest share worth a solver: its fixed overhead and a 1 MiB table.
pub const MIN_SOLVER_SHARE_MB: usize = proof_player::OVERHEAD_MB + 1;

/// How one `memory` setting is shared out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The MCTS tree, bytes.
    pub tree_bytes: usize,
    /// The MCTS threads' endgame oracles together, bytes.
    pub oracle_bytes: usize,
    /// The whole-position solver's main table, MiB (`None`: no solver in play).
    pub solver_table_mb: Option<usize>,
    /// What that solver holds beside its main table, MiB (0 without one).
    pub solver_overhead_mb: usize,
}

/// The solver's share of `memory_mb`, before its overhead.
fn solver_share_mb(memory_mb: usize) -> usize {
    (memory_mb / SOLVER_SHARE_DIVISOR).min(SOLVER_SHARE_MAX_MB)
}

/// Shares out `memory_mb` MiB for `threads` search threads; `solver_in_play` when the player
/// proves positions before searching. The solver stays out when its share would be too small
/// (`solver_table_mb` is then `None` even if asked for).
pub fn split(memory_mb: usize, threads: usize, solver_in_play: bool) -> Split {
    let threads = threads.max(1);
    let share = solver_share_mb(memory_mb);
    let (solver_mb, solver_table_mb, solver_overhead_mb) =
        if solver_in_play && share >= MIN_SOLVER_SHARE_MB {
            let overhead = proof_player::overhead_mb(threads);
            (share, Some(share.saturating_sub(overhead)), overhead)
        } else {
            (0, None, 0)
        };
    let oracle_bytes = threads * ORACLE_BYTES;
    let tree_bytes = (memory_mb - solver_mb)
        .saturating_mul(1 << 20)
        .saturating_sub(oracle_bytes);
    Split {
        tree_bytes,
        oracle_bytes,
        solver_table_mb,
        solver_overhead_mb,
    }
}

/// The main table of the solver the `solve` command builds when no solver is in play: the table
/// the rule gives a solver in play, at least 1 MiB.
pub fn own_solver_table_mb(memory_mb: usize, threads: usize) -> usize {
    solver_share_mb(memory_mb)
        .saturating_sub(proof_player::overhead_mb(threads.max(1)))
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    #[test]
    fn the_solver_takes_a_quarter_at_most_a_gigabyte_and_the_tree_the_rest() {
        // (memory, threads, solver in play) -> (solver table MiB, solver share MiB)
        let cases = [
            (512, 1, true, Some(124), 128),
            (512, 2, true, Some(123), 128),
            (512, 3, true, Some(121), 128),
            (16 * 1024, 1, true, Some(1020), 1024),
            (20, 1, true, Some(1), 5),
            (19, 1, true, None, 0),
            (512, 1, false, None, 0),
        ];
        for (memory, threads, on, table, share) in cases {
            let s = split(memory, threads, on);
            assert_eq!(s.solver_table_mb, table, "{memory} {threads} {on}");
            assert_eq!(s.oracle_bytes, threads * ORACLE_BYTES);
            assert_eq!(s.tree_bytes + s.oracle_bytes, (memory - share) * MIB);
            if table.is_some() {
                assert_eq!(s.solver_table_mb.unwrap() + s.solver_overhead_mb, share);
            } else {
                assert_eq!(s.solver_overhead_mb, 0);
            }
        }
        // A setting too small for the oracles leaves the tree nothing rather than wrapping.
        assert_eq!(split(1, 8, false).tree_bytes, 0);
    }

    #[test]
    fn the_solve_commands_own_solver_gets_the_table_a_solver_in_play_would() {
        for memory in [2, 20, 64, 512, 16 * 1024] {
            let own = own_solver_table_mb(memory, 1);
            match split(memory, 1, true).solver_table_mb {
                Some(t) => assert_eq!(own, t.max(1), "{memory}"),
                None => assert_eq!(own, 1, "{memory}"),
            }
        }
    }
}

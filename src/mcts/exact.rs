//! Positions whose value is known without searching them.
//!
//! This is where exact knowledge enters the search: a node whose value is known here becomes a
//! proven win or loss, and proofs propagate up the tree (a move to a lost position wins; a position
//! whose every move is proven lost is lost). Known are finished games, and decided positions (every
//! region belongs to one side) whose winner the endgame solver proves within a small node budget.

use crate::endgame::{is_decided, Budget, Solver};
use crate::position::Position;

/// Table size of the solvers the search threads use (2^15 entries, 1.3 MiB each): the regions
/// met inside the tree are small, and the table persists from move to move.
const TABLE_BITS: u32 = 15;

/// One search thread's access to exact values (it owns an endgame solver, created when first
/// needed).
#[derive(Default)]
pub struct Oracle {
    solver: Option<Solver>,
}

impl Oracle {
    /// The value of `pos` for the side to move (1 = win, 0 = loss) when it is known exactly,
    /// spending at most `nodes` solver nodes.
    #[inline]
    pub fn known_value(&mut self, pos: &Position, nodes: u64) -> Option<f32> {
        if !pos.has_legal_move() {
            return Some(0.0);
        }
        if nodes == 0 || !is_decided(pos) {
            return None;
        }
        let solver = self
            .solver
            .get_or_insert_with(|| Solver::with_table_bits(TABLE_BITS));
        let winner = solver.outcome(pos, Budget::nodes(nodes)).winner()?;
        Some(if winner == pos.side_to_move() {
            1.0
        } else {
            0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_and_decided_positions_are_known() {
        let mut o = Oracle::default();
        let lost: Position = "Wx/xB w".parse().unwrap();
        assert_eq!(o.known_value(&lost, 0), Some(0.0));
        // White a1 owns b1, a2, b2 (3 moves); Black a4 owns b4, c4 (2 moves); White d1 is stuck.
        let decided: Position = "B2x/xxxx/2xx/W1xW w".parse().unwrap();
        assert_eq!(o.known_value(&decided, 10_000), Some(1.0));
        let decided_b: Position = "B2x/xxxx/2xx/W1xW b".parse().unwrap();
        assert_eq!(o.known_value(&decided_b, 10_000), Some(0.0));
        assert_eq!(o.known_value(&decided, 0), None);
        assert_eq!(o.known_value(&Position::standard(), 10_000), None);
    }
}

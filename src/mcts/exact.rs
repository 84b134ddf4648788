//! Positions whose value is known without searching them.
//!
//! This is where exact knowledge enters the search: a node whose value is known here becomes a
//! proven win or loss, and proofs propagate up the tree (a move to a lost position wins; a position
//! whose every move is proven lost is lost). Today that means finished games; an endgame solver
//! for sealed regions plugs in here.

use crate::position::Position;

/// The value of `pos` for the side to move (1 = win, 0 = loss) when it is known exactly.
#[inline]
pub fn known_value(pos: &Position) -> Option<f32> {
    if pos.has_legal_move() {
        None
    } else {
        Some(0.0)
    }
}

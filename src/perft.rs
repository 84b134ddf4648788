//! Perft: counting the leaves of the move tree, the standard check of move generation.

use crate::mv::Move;
use crate::position::Position;

/// Number of move sequences of length `depth` from `pos` (the last ply is bulk-counted).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = Vec::with_capacity(2400);
            pos.generate_moves(&mut moves);
            let mut total = 0;
            for m in moves {
                pos.make(m);
                total += perft(pos, depth - 1);
                pos.unmake(m);
            }
            total
        }
    }
}

/// Perft split by first move, in generation order (`depth` at least 1).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake(m);
            (m, n)
        })
        .collect()
}

//! The playout policy: the moves played after leaving the tree, before the evaluation.
//!
//! Uniform random moves (`Position::random_move`) cost a fraction of an evaluation but often shoot
//! arrows that only hurt their own side. With `candidates > 1` the policy draws that many random
//! moves and plays the one whose arrow best hems in enemy amazons and least hems in its own (ties
//! go to the first drawn), which keeps playouts cheap while making them less absurd.

use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use rand::Rng;

/// A playout move for the side to move, or `None` when it has no move (it has lost).
#[inline]
pub fn playout_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R, candidates: u32) -> Option<Move> {
    let first = pos.random_move(rng)?;
    if candidates <= 1 {
        return Some(first);
    }
    let mut best = first;
    let mut best_score = arrow_score(pos, first);
    for _ in 1..candidates {
        let m = pos.random_move(rng)?;
        let s = arrow_score(pos, m);
        if s > best_score {
            best = m;
            best_score = s;
        }
    }
    Some(best)
}

/// Enemy amazons next to the arrow minus own amazons next to it (after the move).
#[inline]
fn arrow_score(pos: &Position, m: Move) -> i32 {
    let me = pos.side_to_move();
    let near = Bitboard::from_square(m.arrow).king_step(pos.board());
    let own = pos.amazons(me) ^ Bitboard::from_square(m.from) ^ Bitboard::from_square(m.to);
    (near & pos.amazons(!me)).count() as i32 - (near & own).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn playout_moves_are_legal_and_end_games() {
        let mut rng = SmallRng::seed_from_u64(5);
        for candidates in [1, 4] {
            let mut pos = Position::start(8).unwrap();
            let mut plies = 0;
            while let Some(m) = playout_move(&pos, &mut rng, candidates) {
                pos.play(m).unwrap();
                plies += 1;
            }
            assert!(pos.is_game_over());
            assert!(plies > 10);
        }
    }
}

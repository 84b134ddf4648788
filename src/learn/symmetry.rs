//! The dihedral group of the square board: four rotations and four reflections of squares, moves
//! and positions. Amazons rules and every feature and evaluation term are invariant under them, so
//! a position and its images must get the same evaluation and image moves the same scores.

use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;

/// One of the eight symmetries of the square, numbered 0 (identity) to 7.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Symmetry(u8);

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of `sq` on a board of side `size`: bit 0 mirrors files, bit 1 mirrors ranks,
    /// bit 2 then swaps files and ranks.
    pub fn square(self, sq: Square, size: usize) -> Square {
        let (mut f, mut r) = (sq.file(), sq.rank());
        if self.0 & 1 != 0 {
            f = size - 1 - f;
        }
        if self.0 & 2 != 0 {
            r = size - 1 - r;
        }
        if self.0 & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        Square::new(f, r)
    }

    /// The image of a move.
    pub fn mv(self, m: Move, size: usize) -> Move {
        Move::new(
            self.square(m.from, size),
            self.square(m.to, size),
            self.square(m.arrow, size),
        )
    }

    /// The image of a position (same side to move).
    ///
    /// Symmetries are those of the square: a rectangular board is taken as it is.
    pub fn position(self, pos: &Position) -> Position {
        if pos.width() != pos.height() {
            return pos.clone();
        }
        let size = pos.width();
        let mut out = Position::empty(size, pos.side_to_move());
        for sq in pos.board() {
            if let Some(piece) = pos.piece_at(sq) {
                out.put(self.square(sq, size), piece);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn images_of_legal_moves_are_legal_and_distinct() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut pos = Position::standard();
        for _ in 0..12 {
            let m = pos.random_move(&mut rng).unwrap();
            pos.make(m);
        }
        let m = pos.random_move(&mut rng).unwrap();
        let mut seen = Vec::new();
        for s in Symmetry::ALL {
            let p = s.position(&pos);
            let mut all = Vec::new();
            p.generate_moves(&mut all);
            assert!(all.contains(&s.mv(m, 10)), "{s:?}");
            assert_eq!(p.amazons(crate::Color::White).count(), 4);
            assert!(!seen.contains(&p.to_string()) || s.0 == 0);
            seen.push(p.to_string());
        }
        // The start position is symmetric under the left-right mirror.
        assert_eq!(
            Symmetry(1).position(&Position::standard()),
            Position::standard()
        );
    }
}

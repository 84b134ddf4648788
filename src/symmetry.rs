//! The symmetries of the board: the dihedral group of the square (four rotations and four
//! reflections), of which a rectangle keeps the four that do not swap files and ranks; as maps of
//! squares, moves and positions. The rules are invariant under them, so a position and its images
//! have the same value: the solver's table keys positions up to them (`solver::keys`), and the
//! evaluation's features must not tell them apart (tested in `learn::features`).

use crate::mv::Move;
use crate::position::Position;
use crate::square::Square;

/// One of the eight symmetries of the square, numbered 0 (identity) to 7: bit 0 mirrors files,
/// bit 1 mirrors ranks, bit 2 then swaps files and ranks (only a square board has those).
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

    /// The symmetries of a board of `width` files and `height` ranks: all eight on a square, the
    /// four that keep files and ranks apart on a rectangle; the identity first.
    pub fn of_board(width: usize, height: usize) -> &'static [Symmetry] {
        if width == height {
            &Self::ALL
        } else {
            &Self::ALL[..4]
        }
    }

    /// Whether it swaps files and ranks (a symmetry of square boards only).
    pub fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// The image of `sq` on a board of `width` files and `height` ranks (square when it
    /// [`transposes`](Self::transposes)).
    pub fn square(self, sq: Square, width: usize, height: usize) -> Square {
        debug_assert!(!self.transposes() || width == height);
        let (mut f, mut r) = (sq.file(), sq.rank());
        if self.0 & 1 != 0 {
            f = width - 1 - f;
        }
        if self.0 & 2 != 0 {
            r = height - 1 - r;
        }
        if self.0 & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        Square::new(f, r)
    }

    /// The image of a move on a board of `width` by `height`.
    pub fn mv(self, m: Move, width: usize, height: usize) -> Move {
        Move::new(
            self.square(m.from, width, height),
            self.square(m.to, width, height),
            self.square(m.arrow, width, height),
        )
    }

    /// The image of a position (same side to move), for a symmetry of its board (see
    /// [`of_board`](Self::of_board)); a rectangle is taken as it is by the ones that transpose.
    pub fn position(self, pos: &Position) -> Position {
        let (w, h) = (pos.width(), pos.height());
        if self.transposes() && w != h {
            return pos.clone();
        }
        let mut out = Position::empty_rect(w, h, pos.side_to_move());
        for sq in pos.board() {
            if let Some(piece) = pos.piece_at(sq) {
                out.put(self.square(sq, w, h), piece);
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
            assert!(all.contains(&s.mv(m, 10, 10)), "{s:?}");
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

    #[test]
    fn a_rectangle_keeps_the_four_that_do_not_transpose() {
        assert_eq!(Symmetry::of_board(6, 4).len(), 4);
        assert_eq!(Symmetry::of_board(5, 5).len(), 8);
        let pos = Position::named_start(6, 4).unwrap();
        let m = pos.legal_moves()[3];
        for &s in Symmetry::of_board(6, 4) {
            let image = s.position(&pos);
            assert!(image.legal_moves().contains(&s.mv(m, 6, 4)), "{s:?}");
            assert_eq!(image.legal_moves().len(), pos.legal_moves().len());
        }
    }
}

//! `u128` square sets in the padded 11-column layout (see `square.rs`).
//!
//! Shifting by 1, 10, 11 or 12 moves every square one step in a king direction; squares that would
//! wrap around an edge land in the padding column or beyond rank 10, so ANDing with a board mask after
//! a shift is all the edge handling set-wise fills need.

use crate::square::{Square, MAX_SIZE, STRIDE};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of a board of side `size` (at most [`MAX_SIZE`]).
    pub const fn board(size: usize) -> Bitboard {
        Bitboard::rect(size, size)
    }

    /// All squares of a board of `width` files and `height` ranks (each at most [`MAX_SIZE`]): the
    /// lower-left corner of the padded layout.
    pub const fn rect(width: usize, height: usize) -> Bitboard {
        let mut bits = 0u128;
        let mut rank = 0;
        while rank < height {
            bits |= ((1u128 << width) - 1) << (rank * STRIDE);
            rank += 1;
        }
        Bitboard(bits)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// The squares one king step from any square of the set (not including the set itself unless
    /// reached), restricted to `within`.
    #[inline]
    pub fn king_step(self, within: Bitboard) -> Bitboard {
        let b = self.0;
        let spread = b << 1 | b >> 1 | b << STRIDE | b >> STRIDE;
        let diag = b << (STRIDE + 1) | b << (STRIDE - 1) | b >> (STRIDE + 1) | b >> (STRIDE - 1);
        Bitboard((spread | diag) & within.0)
    }

    /// The set with every square one king step from it added, the added ones restricted to
    /// `within`: `self | self.king_step(within)` in four shifts instead of eight (a row's
    /// neighbours first, then the rows above and below them; what strays into the padding
    /// column or off the board is outside `within`).
    #[inline]
    pub fn king_grow(self, within: Bitboard) -> Bitboard {
        let b = self.0;
        let row = b | b << 1 | b >> 1;
        Bitboard(b | ((row | row << STRIDE | row >> STRIDE) & within.0))
    }

    /// Iterates the squares of the set in index order.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }

    /// The `n`-th square of the set in index order (`n < count`).
    pub fn nth(self, n: u32) -> Option<Square> {
        self.iter().nth(n as usize)
    }
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitIter(u128);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from_square(sq))
    }
}

macro_rules! bit_ops {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_ops!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_ops!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_ops!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 10x10 geometry (padding excluded).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::board(MAX_SIZE).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_masks() {
        assert_eq!(Bitboard::board(10).count(), 100);
        assert_eq!(Bitboard::board(6).count(), 36);
        assert!(!Bitboard::board(10).contains(Square::from_index(10)));
        let r = Bitboard::rect(5, 6);
        assert_eq!(r.count(), 30);
        assert!(r.contains(Square::new(4, 5)) && !r.contains(Square::new(5, 4)));
    }

    #[test]
    fn king_step_does_not_wrap() {
        let corner = Bitboard::from_square(Square::new(9, 0));
        let n = corner.king_step(Bitboard::board(10));
        let names: Vec<String> = n.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["i1", "i2", "j2"]);
        let a = Bitboard::from_square(Square::new(0, 5)).king_step(Bitboard::board(10));
        assert_eq!(a.count(), 5);
        let mid = Bitboard::from_square(Square::new(4, 4)).king_step(Bitboard::board(10));
        assert_eq!(mid.count(), 8);
    }

    #[test]
    fn king_grow_is_the_set_with_its_king_steps() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        // Random sets and masks over the whole board and small rectangles, edges included.
        let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        for (w, h) in [(10, 10), (6, 4), (4, 7), (3, 3)] {
            let board = Bitboard::rect(w, h).0;
            for _ in 0..2000 {
                let set = Bitboard(rng.gen::<u128>() & rng.gen::<u128>() & board);
                let within = Bitboard(rng.gen::<u128>() & board);
                assert_eq!(set.king_grow(within), set | set.king_step(within));
            }
        }
    }
}

//! Regions: the empty squares and amazons of a position, split into groups connected by king steps.
//!
//! Every queen move and arrow travels through empty squares, one king step after another, and a
//! square an amazon leaves becomes empty; so two amazons can only ever interact when they lie in
//! the same king-connected component of "empty squares plus amazons". Each component is a
//! *region*:
//! - **white** / **black**: it holds amazons of one side only; that side alone will ever use it;
//! - **mixed**: it holds amazons of both sides, which still fight over it;
//! - **dead**: it holds no amazon, so nobody can ever reach it.
//!
//! A position is *decided* when no region is mixed: the game has become a sum of one-side regions.
//! Splitting is a flood fill on the padded `u128` layout (`Bitboard::king_grow`), a few dozen word
//! operations per region, cheap enough to run inside playouts; [`is_decided`] needs one fill only.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;

/// Who can use a region.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RegionKind {
    /// Only White amazons.
    White,
    /// Only Black amazons.
    Black,
    /// Amazons of both sides: still contested.
    Mixed,
    /// No amazon: nobody will ever move there.
    Dead,
}

impl RegionKind {
    /// The kind of a region holding only `c`'s amazons.
    pub const fn owned_by(c: Color) -> RegionKind {
        match c {
            Color::White => RegionKind::White,
            Color::Black => RegionKind::Black,
        }
    }

    /// The side owning the region, for white and black regions.
    pub const fn owner(self) -> Option<Color> {
        match self {
            RegionKind::White => Some(Color::White),
            RegionKind::Black => Some(Color::Black),
            RegionKind::Mixed | RegionKind::Dead => None,
        }
    }

    /// `white`, `black`, `mixed` or `dead`.
    pub const fn name(self) -> &'static str {
        match self {
            RegionKind::White => "white",
            RegionKind::Black => "black",
            RegionKind::Mixed => "mixed",
            RegionKind::Dead => "dead",
        }
    }
}

/// One king-connected component of the empty squares and amazons.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Region {
    /// Empty squares of the region.
    pub empty: Bitboard,
    /// White amazons in the region.
    pub white: Bitboard,
    /// Black amazons in the region.
    pub black: Bitboard,
}

impl Region {
    /// All squares of the region: empty squares and amazons.
    #[inline]
    pub fn squares(&self) -> Bitboard {
        self.empty | self.white | self.black
    }

    /// The amazons of `c` in the region.
    #[inline]
    pub fn amazons(&self, c: Color) -> Bitboard {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// White-only, black-only, mixed or dead.
    #[inline]
    pub fn kind(&self) -> RegionKind {
        match (self.white.is_empty(), self.black.is_empty()) {
            (false, true) => RegionKind::White,
            (true, false) => RegionKind::Black,
            (false, false) => RegionKind::Mixed,
            (true, true) => RegionKind::Dead,
        }
    }
}

/// The king-connected component of `within` that contains `seed` (a subset of `within`).
#[inline]
pub fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
    let mut filled = seed;
    loop {
        let grown = filled.king_grow(within);
        if grown == filled {
            return filled;
        }
        filled = grown;
    }
}

/// Iterator over the regions of a position, lowest square first, without allocating.
#[derive(Clone, Debug)]
pub struct Regions {
    rest: Bitboard,
    empty: Bitboard,
    white: Bitboard,
    black: Bitboard,
}

impl Regions {
    /// The regions of `pos`.
    pub fn of(pos: &Position) -> Regions {
        let empty = pos.empty_squares();
        let white = pos.amazons(Color::White);
        let black = pos.amazons(Color::Black);
        Regions {
            rest: empty | white | black,
            empty,
            white,
            black,
        }
    }
}

impl Iterator for Regions {
    type Item = Region;

    fn next(&mut self) -> Option<Region> {
        let seed = Bitboard(self.rest.0 & self.rest.0.wrapping_neg());
        if seed.is_empty() {
            return None;
        }
        let comp = flood(seed, self.rest);
        self.rest ^= comp;
        Some(Region {
            empty: comp & self.empty,
            white: comp & self.white,
            black: comp & self.black,
        })
    }
}

/// All regions of `pos`, lowest square first.
pub fn regions(pos: &Position) -> Vec<Region> {
    Regions::of(pos).collect()
}

/// Whether no region of `pos` is mixed, i.e. every amazon is walled off from every enemy amazon.
///
/// One flood fill from all White amazons: the union of the regions holding a White amazon meets a
/// Black amazon exactly when some region is mixed. A position where one side has no amazon at all
/// is decided.
#[inline]
pub fn is_decided(pos: &Position) -> bool {
    let white = pos.amazons(Color::White);
    let black = pos.amazons(Color::Black);
    let reach = flood(white, pos.empty_squares() | white | black);
    (reach & black).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    fn sq(name: &str) -> Square {
        Square::parse(name, 10).unwrap()
    }

    #[test]
    fn start_position_is_one_mixed_region() {
        let p = Position::standard();
        let r = regions(&p);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind(), RegionKind::Mixed);
        assert_eq!(r[0].empty.count(), 92);
        assert_eq!(r[0].squares().count(), 100);
        assert!(!is_decided(&p));
    }

    #[test]
    fn walls_split_regions() {
        // 4x4: a wall of arrows on the b-file and on rank 3 splits the board.
        //   4 . x B .
        //   3 x x x x
        //   2 W x . .
        //   1 . x . B
        let p: Position = "1xB1/xxxx/Wx2/1x1B w".parse().unwrap();
        let r = regions(&p);
        let kinds: Vec<(RegionKind, u32, u32)> = r
            .iter()
            .map(|g| (g.kind(), g.empty.count(), g.squares().count()))
            .collect();
        assert_eq!(
            kinds,
            [
                (RegionKind::White, 1, 2),
                (RegionKind::Black, 3, 4),
                (RegionKind::Dead, 1, 1),
                (RegionKind::Black, 1, 2),
            ]
        );
        assert!(is_decided(&p));
        assert_eq!(r[0].white, Bitboard::from_square(Square::new(0, 1)));
        assert!(r[1].black.contains(Square::new(3, 0)));
    }

    #[test]
    fn amazons_connect_regions() {
        // The two amazons touch diagonally: one mixed region even with no empty square between.
        let p: Position = "xxx/xBx/W1x w".parse().unwrap();
        let r = regions(&p);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind(), RegionKind::Mixed);
        assert!(!is_decided(&p));
        assert_eq!(r[0].squares().count(), 3);
        assert_eq!(r[0].white, Bitboard::from_square(sq("a1")));
    }

    #[test]
    fn decided_without_one_side() {
        let p: Position = "3/1W1/3 b".parse().unwrap();
        assert!(is_decided(&p));
        let r = regions(&p);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind(), RegionKind::White);
        assert_eq!(r[0].kind().owner(), Some(Color::White));
    }

    #[test]
    fn regions_partition_the_free_squares() {
        use rand::rngs::StdRng;
        use rand::SeedableRng;
        let mut rng = StdRng::seed_from_u64(5);
        for size in [6, 8, 10] {
            let mut p = Position::start(size).unwrap();
            while let Some(m) = p.random_move(&mut rng) {
                p.make(m);
                let r = regions(&p);
                let mut union = Bitboard::EMPTY;
                for g in &r {
                    assert!((union & g.squares()).is_empty());
                    union |= g.squares();
                    // Connected: a fill from any square covers the region.
                    let first = Bitboard::from_square(g.squares().first().unwrap());
                    assert_eq!(flood(first, g.squares()), g.squares());
                }
                assert_eq!(union, p.board() & !p.arrows());
                let mixed = r.iter().any(|g| g.kind() == RegionKind::Mixed);
                assert_eq!(is_decided(&p), !mixed, "{p}");
            }
        }
    }
}

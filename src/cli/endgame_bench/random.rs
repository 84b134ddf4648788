//! Random regions and decided positions, for the benchmark and the tests.
//!
//! Two shapes of region ([`Shape`]):
//! - **blob**: grown like a blob (Eden growth): start from a random square of the 10x10 board,
//!   then repeatedly add a random square that is a king step from the squares taken so far, until
//!   it has the wanted number of squares. Blobs come out compact but ragged, with bays and
//!   one-square inlets; they are rarely defective.
//! - **holey**: a blob a third larger, of which random squares (not amazons) are burnt, keeping
//!   the amazons' part when it has exactly the wanted number of empty squares. Scattered arrows
//!   inside a territory are typical of real endgames, and make regions defective far more often.
//!
//! The amazons stand on random squares of the region; the rest of the board is burnt, and the
//! board edge works as a wall.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::endgame::area::Area;
use crate::position::{Piece, Position};
use rand::Rng;

/// A random square of a non-empty set.
fn pick<R: Rng + ?Sized>(rng: &mut R, set: Bitboard) -> crate::square::Square {
    set.nth(rng.gen_range(0..set.count()))
        .expect("the set is not empty")
}

/// A king-connected blob of `cells` squares inside `allowed` (on the 10x10 geometry), or `None`
/// when it got walled in before reaching that size.
pub fn blob<R: Rng + ?Sized>(rng: &mut R, cells: u32, allowed: Bitboard) -> Option<Bitboard> {
    if allowed.is_empty() || cells == 0 {
        return None;
    }
    let mut set = Bitboard::from_square(pick(rng, allowed));
    while set.count() < cells {
        let frontier = set.king_step(Bitboard(allowed.0 & !set.0));
        if frontier.is_empty() {
            return None;
        }
        set |= Bitboard::from_square(pick(rng, frontier));
    }
    Some(set)
}

/// The shape family of a random region (see the module documentation).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Shape {
    /// A compact blob.
    Blob,
    /// A blob with scattered burnt squares.
    Holey,
}

impl Shape {
    /// `blob` or `holey`.
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Blob => "blob",
            Shape::Holey => "holey",
        }
    }
}

/// A random one-side region of the given shape with `empty` empty squares (at most 60) and
/// `amazons` amazons (at least one), on the 10x10 board.
pub fn random_shape<R: Rng + ?Sized>(rng: &mut R, shape: Shape, empty: u32, amazons: u32) -> Area {
    let board = Bitboard::board(10);
    let holes = match shape {
        Shape::Blob => 0,
        Shape::Holey => empty.div_ceil(3),
    };
    loop {
        let Some(cells) = blob(rng, empty + amazons + holes, board) else {
            continue;
        };
        let mut queens = Bitboard::EMPTY;
        for _ in 0..amazons {
            queens |= Bitboard::from_square(pick(rng, Bitboard(cells.0 & !queens.0)));
        }
        let mut free = Bitboard(cells.0 & !queens.0);
        for _ in 0..holes {
            free ^= Bitboard::from_square(pick(rng, free));
        }
        let area = Area::new(queens, free).reachable();
        if area.squares() == empty && area.parts().len() == 1 {
            return area;
        }
    }
}

/// A decided position on a `size` x `size` board: one White and one Black region (blobs of
/// `white` and `black` squares, each holding `amazons` amazons), not touching each other, the
/// rest burnt, `side` to move. Retries until both blobs fit.
pub fn decided_position<R: Rng + ?Sized>(
    rng: &mut R,
    size: usize,
    white: u32,
    black: u32,
    amazons: u32,
    side: Color,
) -> Position {
    let board = Bitboard::board(size);
    loop {
        let Some(w) = blob(rng, white, board) else {
            continue;
        };
        let halo = w | w.king_step(board);
        let Some(b) = blob(rng, black, Bitboard(board.0 & !halo.0)) else {
            continue;
        };
        let mut pos = Position::empty(size, side);
        for (cells, c) in [(w, Color::White), (b, Color::Black)] {
            let mut rest = cells;
            for _ in 0..amazons.min(cells.count()) {
                let sq = pick(rng, rest);
                rest ^= Bitboard::from_square(sq);
                pos.put(sq, Piece::Amazon(c));
            }
        }
        for sq in Bitboard(board.0 & !(w.0 | b.0)) {
            pos.put(sq, Piece::Arrow);
        }
        return pos;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::{is_decided, regions, RegionKind};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn areas_have_the_asked_shape() {
        let mut rng = StdRng::seed_from_u64(1);
        for shape in [Shape::Blob, Shape::Holey] {
            for n in [1, 5, 20, 40] {
                let a = random_shape(&mut rng, shape, n, 2);
                assert_eq!(a.squares(), n);
                assert_eq!(a.amazons.count_ones(), 2);
                assert_eq!(a.parts().len(), 1, "one connected region");
            }
        }
    }

    #[test]
    fn decided_positions_are_decided() {
        let mut rng = StdRng::seed_from_u64(2);
        for size in [6, 8, 10] {
            let p = decided_position(&mut rng, size, 8, 7, 1, Color::Black);
            assert!(is_decided(&p));
            let kinds: Vec<RegionKind> = regions(&p).iter().map(|r| r.kind()).collect();
            assert_eq!(kinds.len(), 2);
            assert!(kinds.contains(&RegionKind::White) && kinds.contains(&RegionKind::Black));
            assert_eq!(p.empty_squares().count(), 8 + 7 - 2);
        }
    }

    #[test]
    fn local_effects_agree_with_flood_fills() {
        // A test of `area::Node::effect`, kept here so that `area` does not depend on this
        // generator (the module graph stays acyclic).
        use crate::endgame::area::{king, Node};
        let mut rng = StdRng::seed_from_u64(3);
        for i in 0..300 {
            let a = random_shape(&mut rng, Shape::Blob, 3 + i % 30, 1 + i % 3);
            let node = Node::new(a);
            a.for_each_move(|from, to, arrow, child| {
                let e = node.effect(from, to, arrow, child);
                let lost = child.squares() - child.reachable().squares();
                assert!(e.orphans <= lost);
                if e.connected {
                    assert_eq!(lost, 0);
                    assert_eq!(child.parts().len(), 1);
                }
                // Orphans: empty squares with no free neighbour and no amazon next to them.
                let open = child.amazons | child.empty;
                let alone = (0..110)
                    .map(|i| 1u128 << i)
                    .filter(|&y| child.empty & y != 0 && king(y, open) == 0)
                    .count() as u32;
                assert_eq!(e.orphans, alone);
            });
        }
    }
}

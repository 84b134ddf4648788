//! Queen- and king-distance maps: for one side, how many queen (or king) moves its nearest amazon
//! needs to reach each empty square, moving only over empty squares.
//!
//! Computed set-wise, a breadth-first search whose levels are bitboards: the next level is every
//! empty square one step from the current frontier that has not been reached yet. A king step is
//! eight shifts (`Bitboard::king_step`); a queen step slides the frontier in the eight directions
//! with a Kogge-Stone occluded fill (shifts by 1, 10, 11 and 12 doubled three times, masked by the
//! empty squares). The padding column of the layout makes every shift wrap-free.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;
use crate::square::STRIDE;

/// Distances beyond this are stored in the last level (they are all "far"): a square that needs more
/// than 23 queen moves only occurs in long snaking corridors, where the exact figure no longer
/// matters to the evaluation.
pub const MAX_DISTANCE: usize = 23;

/// The squares at each distance from one side's amazons.
#[derive(Clone, Copy, Debug)]
pub struct DistanceMap {
    /// `levels[d]`: empty squares at distance exactly `d` (1..=`depth`); `levels[0]` holds the
    /// amazons themselves. Squares further than [`MAX_DISTANCE`] are merged into the last level.
    pub levels: [Bitboard; MAX_DISTANCE + 1],
    /// Index of the last non-empty level (0 when no empty square is reachable).
    pub depth: usize,
    /// Every empty square at a finite distance.
    pub reached: Bitboard,
}

impl DistanceMap {
    /// Squares at distance at most `d`.
    #[inline]
    pub fn within(&self, d: usize) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for level in &self.levels[1..=d.min(self.depth)] {
            b |= *level;
        }
        b
    }
}

/// Breadth-first search from `sources` over `empty`, one level per `step`.
#[inline(always)]
fn distances(
    sources: Bitboard,
    empty: Bitboard,
    step: impl Fn(Bitboard, Bitboard) -> Bitboard,
) -> DistanceMap {
    let mut map = DistanceMap {
        levels: [Bitboard::EMPTY; MAX_DISTANCE + 1],
        depth: 0,
        reached: Bitboard::EMPTY,
    };
    map.levels[0] = sources;
    let mut frontier = sources;
    let mut unreached = empty;
    while !frontier.is_empty() {
        let next = step(frontier, unreached);
        if next.is_empty() {
            break;
        }
        unreached = Bitboard(unreached.0 & !next.0);
        map.reached |= next;
        if map.depth < MAX_DISTANCE {
            map.depth += 1;
        }
        map.levels[map.depth] |= next;
        frontier = next;
    }
    map
}

/// Queen distances of `color`'s amazons in `pos`.
#[inline]
pub fn queen_distances(pos: &Position, color: Color) -> DistanceMap {
    let empty = pos.empty_squares();
    distances(pos.amazons(color), empty, |f, unreached| {
        Bitboard(queen_step(f, empty).0 & unreached.0)
    })
}

/// King distances of `color`'s amazons in `pos`.
#[inline]
pub fn king_distances(pos: &Position, color: Color) -> DistanceMap {
    distances(pos.amazons(color), pos.empty_squares(), |f, unreached| {
        f.king_step(unreached)
    })
}

/// Every square of `empty` that a queen standing on any square of `from` reaches in one move
/// (sliding over squares of `empty` only).
#[inline]
pub fn queen_step(from: Bitboard, empty: Bitboard) -> Bitboard {
    let (g, e) = (from.0, empty.0);
    Bitboard(
        slide_up::<1>(g, e)
            | slide_up::<{ STRIDE - 1 }>(g, e)
            | slide_up::<STRIDE>(g, e)
            | slide_up::<{ STRIDE + 1 }>(g, e)
            | slide_down::<1>(g, e)
            | slide_down::<{ STRIDE - 1 }>(g, e)
            | slide_down::<STRIDE>(g, e)
            | slide_down::<{ STRIDE + 1 }>(g, e),
    )
}

/// Squares of `empty` reached from `g` by sliding towards higher indices in steps of `S`.
/// Kogge-Stone: after filling with steps 1, 2 and 4 the run covers 7 squares, and the step of 8
/// covers the 9 a 10x10 board can need; the final shift turns the fill into the squares attacked.
#[inline(always)]
fn slide_up<const S: usize>(mut g: u128, empty: u128) -> u128 {
    let mut p = empty;
    g |= p & (g << S);
    p &= p << S;
    g |= p & (g << (2 * S));
    p &= p << (2 * S);
    g |= p & (g << (4 * S));
    p &= p << (4 * S);
    g |= p & (g << (8 * S));
    (g << S) & empty
}

/// As [`slide_up`], towards lower indices.
#[inline(always)]
fn slide_down<const S: usize>(mut g: u128, empty: u128) -> u128 {
    let mut p = empty;
    g |= p & (g >> S);
    p &= p >> S;
    g |= p & (g >> (2 * S));
    p &= p >> (2 * S);
    g |= p & (g >> (4 * S));
    p &= p >> (4 * S);
    g |= p & (g >> (8 * S));
    (g >> S) & empty
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn sq(s: &str) -> Square {
        Square::parse(s, 10).unwrap()
    }

    /// The distance of `s` in `map`, or `None` when it is unreachable (evaluation itself works on
    /// whole levels).
    fn distance_of(map: &DistanceMap, s: Square) -> Option<usize> {
        let set = Bitboard::from_square(s);
        (1..=map.depth).find(|&d| !(map.levels[d] & set).is_empty())
    }

    /// Square-by-square breadth-first search with the line tables, as an independent reference.
    fn reference(pos: &Position, color: Color, queen: bool) -> Vec<Option<usize>> {
        let mut dist = vec![None; 128];
        let mut frontier: Vec<Square> = pos.amazons(color).iter().collect();
        let empty = pos.empty_squares();
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for s in frontier {
                let targets = if queen {
                    // Queen targets with this square's own occupant ignored (the searcher may stand
                    // on an empty square): walk the rays over `empty`.
                    let mut t = Bitboard::EMPTY;
                    for (df, dr) in [
                        (1i32, 0i32),
                        (-1, 0),
                        (0, 1),
                        (0, -1),
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                    ] {
                        let (mut f, mut r) = (s.file() as i32, s.rank() as i32);
                        loop {
                            f += df;
                            r += dr;
                            if !(0..10).contains(&f) || !(0..10).contains(&r) {
                                break;
                            }
                            let n = Square::new(f as usize, r as usize);
                            if !empty.contains(n) {
                                break;
                            }
                            t |= Bitboard::from_square(n);
                        }
                    }
                    t
                } else {
                    Bitboard::from_square(s).king_step(empty)
                };
                for t in targets {
                    if dist[t.index()].is_none() {
                        dist[t.index()] = Some(d);
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    #[test]
    fn fills_match_a_square_by_square_search() {
        let mut rng = StdRng::seed_from_u64(11);
        for size in [6, 8, 10] {
            let mut pos = Position::start(size).unwrap();
            while let Some(m) = pos.random_move(&mut rng) {
                pos.make(m);
                for color in Color::BOTH {
                    for queen in [true, false] {
                        let map = if queen {
                            queen_distances(&pos, color)
                        } else {
                            king_distances(&pos, color)
                        };
                        let want = reference(&pos, color, queen);
                        for s in pos.empty_squares() {
                            let got = distance_of(&map, s);
                            assert_eq!(got, want[s.index()], "{pos} {color} queen={queen} {s}");
                        }
                        assert!((map.reached & pos.occupied()).is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn start_position_distances() {
        let pos = Position::standard();
        let q = queen_distances(&pos, Color::White);
        assert_eq!(distance_of(&q, sq("d7")), Some(1));
        assert_eq!(distance_of(&q, sq("e10")), Some(2));
        let k = king_distances(&pos, Color::White);
        assert_eq!(distance_of(&k, sq("d2")), Some(1));
        assert_eq!(distance_of(&k, sq("e9")), Some(5));
        assert_eq!(q.reached.count(), 92);
    }

    #[test]
    fn walls_stop_the_fill() {
        // White a1 walled in by arrows on a2, b2, b1: nothing reachable.
        let pos: Position = "3B/4/xx2/Wx2 w".parse().unwrap();
        let q = queen_distances(&pos, Color::White);
        assert_eq!(q.depth, 0);
        assert!(q.reached.is_empty());
        let b = queen_distances(&pos, Color::Black);
        assert_eq!(b.reached.count(), 11);
    }
}

//! A closed area: some amazons of one side and the empty squares around them, everything else a
//! wall. Queen moves inside it, splitting it into independent parts, and a greedy fill.
//!
//! Sets are raw `u128` words in the padded 11-column layout (see `square.rs`): a queen ray is a
//! repeated shift by 1, 10, 11 or 12 masked with the free squares, and the padding column (never
//! free) stops rays at the board edge. This generator is deliberately separate from the rules
//! core's line tables: the solver needs "one side moves again and again", which a `Position` (whose
//! side to move alternates) does not offer, and the tests cross-check the two.

use crate::bitboard::Bitboard;
use crate::square::STRIDE;

/// Amazons of one side and the empty squares they may use; every other square is blocked.
///
/// The number of moves this side can still make depends only on these two sets, never on what
/// blocks the rest of the board, so an area's value is a property of the pair and may be cached
/// across positions.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Area {
    /// The amazons (all of one side).
    pub amazons: u128,
    /// The empty squares.
    pub empty: u128,
}

/// The lowest set bit of `x` (0 if none).
#[inline]
pub(crate) const fn low_bit(x: u128) -> u128 {
    x & x.wrapping_neg()
}

/// Squares one king step from `b`, restricted to `within`.
#[inline]
pub(crate) fn king(b: u128, within: u128) -> u128 {
    Bitboard(b).king_step(Bitboard(within)).0
}

/// The king-connected component of `within` holding `seed`.
#[inline]
pub(crate) fn flood(seed: u128, within: u128) -> u128 {
    crate::regions::flood(Bitboard(seed), Bitboard(within)).0
}

/// Squares a queen on `from` (a single bit) reaches through `free`.
#[inline]
pub(crate) fn queen_reach(from: u128, free: u128) -> u128 {
    const S: u32 = STRIDE as u32;
    let mut out = 0;
    macro_rules! ray {
        ($op:tt, $n:expr) => {{
            let mut r = from;
            loop {
                r = (r $op $n) & free;
                if r == 0 {
                    break;
                }
                out |= r;
            }
        }};
    }
    ray!(<<, 1);
    ray!(>>, 1);
    ray!(<<, S);
    ray!(>>, S);
    ray!(<<, S + 1);
    ray!(>>, S + 1);
    ray!(<<, S - 1);
    ray!(>>, S - 1);
    out
}

impl Area {
    /// An area from its amazons and empty squares (which must not overlap).
    pub fn new(amazons: Bitboard, empty: Bitboard) -> Area {
        debug_assert!((amazons & empty).is_empty());
        Area {
            amazons: amazons.0,
            empty: empty.0,
        }
    }

    /// Number of empty squares (an upper bound on the moves left: each move burns one).
    #[inline]
    pub fn squares(self) -> u32 {
        self.empty.count_ones()
    }

    /// Whether some amazon can move (it then always can: shooting back to where it came from).
    #[inline]
    pub fn can_move(self) -> bool {
        king(self.amazons, self.empty) != 0
    }

    /// The part connected to the lowest amazon, and the rest (whose `amazons` may be empty).
    /// Empty squares connected to no amazon of the first part stay in the rest.
    #[inline]
    pub fn split_first(self) -> (Area, Area) {
        let comp = flood(low_bit(self.amazons), self.amazons | self.empty);
        (
            Area {
                amazons: self.amazons & comp,
                empty: self.empty & comp,
            },
            Area {
                amazons: self.amazons & !comp,
                empty: self.empty & !comp,
            },
        )
    }

    /// The same area without the empty squares no amazon can ever reach.
    pub fn reachable(self) -> Area {
        Area {
            amazons: self.amazons,
            empty: self.empty & flood(self.amazons, self.amazons | self.empty),
        }
    }

    /// Independent parts, one per king-connected group holding an amazon (unreachable empty
    /// squares are dropped).
    pub fn parts(self) -> Vec<Area> {
        let mut out = Vec::new();
        let mut rest = self;
        while rest.amazons != 0 {
            let (first, r) = rest.split_first();
            out.push(first);
            rest = r;
        }
        out
    }

    /// The area shifted towards a1 so that it touches the first rank and the first file. Moves
    /// never leave the empty squares, so the moves left do not change; shifting makes identical
    /// shapes from different positions share cache entries.
    pub fn normalized(self) -> Area {
        let all = self.amazons | self.empty;
        if all == 0 {
            return self;
        }
        let rank = all.trailing_zeros() as usize / STRIDE;
        let mut files = 0u128;
        let mut x = all;
        while x != 0 {
            files |= x;
            x >>= STRIDE;
        }
        let file = (files & ((1 << STRIDE) - 1)).trailing_zeros() as usize;
        let by = rank * STRIDE + file;
        Area {
            amazons: self.amazons >> by,
            empty: self.empty >> by,
        }
    }

    /// Calls `f(from, to, arrow, child)` for every move, where `from`, `to` and `arrow` are single
    /// bits and `child` is the area after the move.
    #[inline]
    pub fn for_each_move(self, mut f: impl FnMut(u128, u128, u128, Area)) {
        let mut amazons = self.amazons;
        while amazons != 0 {
            let from = low_bit(amazons);
            amazons ^= from;
            let mut dests = queen_reach(from, self.empty);
            while dests != 0 {
                let to = low_bit(dests);
                dests ^= to;
                let free = (self.empty | from) & !to;
                let after = self.amazons ^ from ^ to;
                let mut arrows = queen_reach(to, free);
                while arrows != 0 {
                    let arrow = low_bit(arrows);
                    arrows ^= arrow;
                    f(
                        from,
                        to,
                        arrow,
                        Area {
                            amazons: after,
                            empty: free ^ arrow,
                        },
                    );
                }
            }
        }
    }

    /// Number of moves available now.
    pub fn count_moves(self) -> u32 {
        let mut n = 0;
        self.for_each_move(|_, _, _, _| n += 1);
        n
    }

    /// Upper bound on the moves left that needs no search: the empty squares reachable from the
    /// amazons, or 0 when no amazon can move.
    #[inline]
    pub fn quick_upper(self) -> u32 {
        if !self.can_move() {
            0
        } else {
            self.reachable().squares()
        }
    }
}

/// The 3x3 block of `set` centred on the square with index `index`, as 9 bits: bits 0..3 the rank
/// below (west to east), 3..6 the square's rank, 6..9 the rank above. The padding column keeps
/// edge squares from picking up squares of the other edge.
#[inline]
pub(crate) fn block(set: u128, index: u32) -> u32 {
    const S: u32 = STRIDE as u32;
    let w = if index > S {
        (set >> (index - S - 1)) as u32
    } else {
        (set << (S + 1 - index)) as u32
    };
    (w & 7) | (w >> (S - 3) & 0o70) | (w >> (2 * S - 6) & 0o700)
}

/// `RING_CONNECTED[p]`: whether the squares set in the 3x3 pattern `p` (centre ignored) are
/// king-connected among themselves (vacuously true for none).
static RING_CONNECTED: [bool; 512] = ring_table();

const fn ring_table() -> [bool; 512] {
    let mut t = [false; 512];
    let mut p = 0;
    while p < 512 {
        let cells = p & !(1 << 4);
        if cells == 0 {
            t[p] = true;
        } else {
            // Flood from the lowest cell within the pattern.
            let mut seen = cells & cells.wrapping_neg();
            loop {
                let mut grown = seen;
                let mut i: usize = 0;
                while i < 9 {
                    if seen >> i & 1 != 0 {
                        let mut j: usize = 0;
                        while j < 9 {
                            let (ri, ci, rj, cj) = (i / 3, i % 3, j / 3, j % 3);
                            let near = ri.abs_diff(rj) <= 1 && ci.abs_diff(cj) <= 1;
                            if near && cells >> j & 1 != 0 {
                                grown |= 1 << j;
                            }
                            j += 1;
                        }
                    }
                    i += 1;
                }
                if grown == seen {
                    break;
                }
                seen = grown;
            }
            t[p] = seen == cells;
        }
        p += 1;
    }
    t
}

/// Whether taking the square with index `index` out of the king-connected set `set` surely leaves
/// it in one piece: the square's neighbours in `set` are king-connected among themselves, so any
/// path through it can go round.
#[inline]
pub(crate) fn ring_connected(set: u128, index: u32) -> bool {
    RING_CONNECTED[block(set, index) as usize]
}

/// Squares of `open` with exactly one king neighbour in `open`.
#[inline]
pub(crate) fn single_neighbour(open: u128) -> u128 {
    const S: u32 = STRIDE as u32;
    let mut ones = 0;
    let mut twos = 0;
    for n in [
        open << 1,
        open >> 1,
        open << S,
        open >> S,
        open << (S + 1),
        open >> (S + 1),
        open << (S - 1),
        open >> (S - 1),
    ] {
        twos |= ones & n;
        ones |= n;
    }
    ones & !twos & open
}

/// What a move does to the area locally, judged from the arrow's 3x3 neighbourhood.
///
/// A move only takes one square out of "empty squares plus amazons": the arrow's (the amazon's old
/// square becomes empty, its new one was empty). So the area can only fall apart around the
/// arrow: if the arrow's neighbours that remain are king-connected among themselves, everything
/// stays connected; and a neighbour is cut off alone exactly when the arrow was its only neighbour.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Effect {
    /// Empty neighbours of the arrow left with no neighbour at all: lost for good.
    pub orphans: u32,
    /// Whether the area is certainly still in one piece (otherwise it may or may not be).
    pub connected: bool,
    /// Move ordering key (smaller is tried first).
    pub key: u32,
}

/// Per-node data for [`Node::effect`].
pub(crate) struct Node {
    open: u128,
    single: u128,
}

impl Node {
    /// Prepares to judge the moves of `area`.
    #[inline]
    pub fn new(area: Area) -> Node {
        let open = area.amazons | area.empty;
        Node {
            open,
            single: single_neighbour(open),
        }
    }

    /// The [`Effect`] of the move `from`-`to` shooting `arrow`, giving `child`.
    ///
    /// The ordering key prefers, in turn: moves that orphan nothing, arrows on squares with few
    /// free neighbours (hard to use later), and destinations with few exits (Warnsdorff's rule
    /// for long paths) but not none (that walls the amazon in early).
    #[inline]
    pub fn effect(&self, from: u128, to: u128, arrow: u128, child: Area) -> Effect {
        let x = arrow.trailing_zeros();
        let ring = block(self.open, x) & !(1 << 4);
        let orphans = (block(self.single & child.empty, x) & !(1 << 4)).count_ones();
        let connected = orphans == 0 && RING_CONNECTED[ring as usize];
        let to_degree = match block(child.empty, to.trailing_zeros()).count_ones() {
            0 => 9,
            d => d,
        };
        // Shooting back at the square just left is the classic safe fill (walk and burn behind):
        // it breaks ties.
        let back = (arrow != from) as u32;
        let key = orphans * 100 + ring.count_ones() * 20 + to_degree * 2 + back;
        Effect {
            orphans,
            connected,
            key,
        }
    }
}

/// Moves made by a greedy fill, a proven lower bound on the moves left: at each step the first
/// move in move-ordering order (burn hard-to-reach squares, Warnsdorff for the amazon) that keeps
/// every empty square reachable, or failing that the one that keeps the most.
pub fn greedy_fill(mut area: Area) -> u32 {
    let mut made = 0;
    let mut moves: Vec<(u32, Area)> = Vec::with_capacity(256);
    loop {
        moves.clear();
        let node = Node::new(area);
        area.for_each_move(|from, to, arrow, child| {
            moves.push((node.effect(from, to, arrow, child).key, child))
        });
        if moves.is_empty() {
            return made;
        }
        moves.sort_unstable_by_key(|m| m.0);
        let whole = area.reachable().squares() - 1;
        let mut best = (0, moves[0].1);
        for &(_, child) in moves.iter().take(24) {
            let keep = child.quick_upper();
            if keep == whole {
                best = (keep, child);
                break;
            }
            if keep > best.0 {
                best = (keep, child);
            }
        }
        area = best.1;
        made += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::square::Square;
    use crate::Color;

    fn area_of(text: &str) -> Area {
        let p: Position = text.parse().unwrap();
        Area::new(p.amazons(Color::White), p.empty_squares())
    }

    #[test]
    fn moves_match_the_rules_core() {
        use rand::rngs::StdRng;
        use rand::SeedableRng;
        let mut rng = StdRng::seed_from_u64(11);
        for size in [6, 8, 10] {
            let mut p = Position::start(size).unwrap();
            while let Some(m) = p.random_move(&mut rng) {
                p.make(m);
                // With the other side's amazons as walls, the area's moves are the position's.
                let side = p.side_to_move();
                let a = Area::new(p.amazons(side), p.empty_squares());
                let mut mine: Vec<(u128, u128, u128)> = Vec::new();
                a.for_each_move(|f, t, x, _| mine.push((f, t, x)));
                mine.sort_unstable();
                let mut core: Vec<(u128, u128, u128)> = p
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        (
                            1u128 << m.from.index(),
                            1u128 << m.to.index(),
                            1u128 << m.arrow.index(),
                        )
                    })
                    .collect();
                core.sort_unstable();
                assert_eq!(mine, core, "{p}");
            }
        }
    }

    #[test]
    fn local_patterns() {
        // Every square: the block of the full board equals its king step plus itself.
        let board = Bitboard::board(10).0;
        for sq in Bitboard::board(10) {
            let bit = 1u128 << sq.index();
            let b = block(board, sq.index() as u32);
            assert_eq!(b.count_ones(), king(bit, board).count_ones() + 1, "{sq}");
            assert_eq!(b >> 4 & 1, 1);
        }
        assert!(RING_CONNECTED[0]);
        assert!(RING_CONNECTED[0b000_000_101 | 0b10]); // a row of three below
        assert!(!RING_CONNECTED[0b000_000_101]); // two corners, nothing between
        assert!(RING_CONNECTED[0b000_001_010]); // below and west touch diagonally
        assert!(!RING_CONNECTED[0b010_000_010]); // above and below

        // On squares: a1 b1 c1 fall apart without b1; with a2 too, a1 and a2 still touch.
        let sq = |f: usize, r: usize| 1u128 << crate::square::Square::new(f, r).index();
        let b1 = crate::square::Square::new(1, 0).index() as u32;
        assert!(!ring_connected(sq(0, 0) | sq(1, 0) | sq(2, 0), b1));
        assert!(ring_connected(sq(0, 0) | sq(1, 0) | sq(0, 1), b1));
        // A corner and the opposite edge's square never count as neighbours (the padding).
        let a1 = crate::square::Square::new(0, 0).index() as u32;
        assert!(ring_connected(sq(0, 0) | sq(1, 0) | sq(9, 0), a1));

        // a1 b2 c1 (White on b2): both a1 and c1 have exactly one neighbour.
        let a = area_of("xxx/xWx/1x1 w");
        assert_eq!(single_neighbour(a.amazons | a.empty), a.empty);
    }

    #[test]
    fn normalizing_shifts_to_the_corner() {
        let a = area_of("x4x/x4x/x1xW1x/x2x1x/x4x/xxxxxx w");
        let n = a.normalized();
        assert_eq!(n.amazons.count_ones(), 1);
        assert_eq!(n.empty.count_ones(), a.empty.count_ones());
        assert_eq!(n.amazons | n.empty, (a.amazons | a.empty) >> (STRIDE + 1));
        assert_eq!(greedy_fill(n), greedy_fill(a));
        assert_eq!(n.normalized(), n);
    }

    #[test]
    fn splitting_and_reach() {
        //   4 . . x W
        //   3 x x x .
        //   2 . . x x
        //   1 W . x .
        // White a1 owns a2 b2 b1, White d4 owns d3; a4 b4 and d1 are pockets nobody reaches.
        let a = area_of("2xW/xxx1/2xx/W1x1 w");
        let parts = a.parts();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].amazons, 1 << Square::new(0, 0).index());
        assert_eq!(parts[0].squares(), 3);
        assert_eq!(parts[1].squares(), 1);
        assert_eq!(a.quick_upper(), 4);
        assert_eq!(a.squares(), 7);
    }
}

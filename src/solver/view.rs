//! What a position's regions tell the search: the bounds that settle it early, and the part of
//! the board that still matters.
//!
//! A region holding one side's amazons only (a *territory*) is, in combinatorial-game terms, an
//! integer: the moves its owner can still make there, which the exact endgame solver counts. The
//! game is the sum of the mixed regions and these integers, so its outcome depends only on the
//! mixed regions' contents and on `x`, White's territory moves minus Black's. Two consequences:
//! - **Keys.** When every territory is solved exactly, the table key hashes the mixed regions
//!   alone (every other square reads as an arrow) together with `x`: positions that differ only in
//!   the shape of their territories, or in how the owners have already filled them, share one
//!   entry.
//! - **Moves.** A move inside one's own territory changes only `x`, by at most one; a move that
//!   keeps the territory's moves left at their maximum (a perfect fill) does exactly that, so it
//!   is at least as good as any other territory move. The search tries one such move instead of
//!   all of them.
//!
//! Dead regions (no amazon) are blanked like territories, and with them amazons walled in alone.
//!
//! The outcome is monotone in `x` (a larger integer added to a game is never worse for White), so
//! a proven White win at one balance is one at every larger balance of the same mixed part, and a
//! loss at every smaller one. A second table of these thresholds by mixed part, and settling
//! leaves with few mixed empty squares by a local search of their own, were tried: positions
//! seldom recur with only the balance changed, and the local search, with no proof numbers to
//! steer it, looked at far more positions than df-pn needs, so both cost time (the figures:
//! docs/results.md, 2026-12-07).
//!
//! Spare moves (see [`super::tempo`]) sharpen the bounds by a tempo or two: a side that can burn a
//! mixed square without touching anything else gains a move over the squares' count.
//!
//! Inside a mixed region, a *pocket* (empty squares touching amazons of one side only, see
//! [`View::settle`]) is as good as a territory for that side when it comes to bounds: the side
//! can seal it whenever it likes, and the other side can never enter it.

use super::tempo::Tempo;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::endgame::area::Area;
use crate::endgame::{Budget, FillSolver as Endgame, MovesLeft};
use crate::position::Position;
use crate::regions::{flood, RegionKind, Regions};

/// Endgame nodes allowed per region; small boards' regions are solved in far fewer.
const REGION_BUDGET: u64 = 20_000;

/// The regions of one position, summed up.
#[derive(Copy, Clone, Debug)]
pub(super) struct View {
    /// Squares (empty and amazons) of the mixed regions.
    pub mixed: Bitboard,
    /// Empty squares of the mixed regions.
    pub mixed_empty: u32,
    /// Proven bounds on each side's moves in its own territories, by colour index.
    pub lo: [u32; 2],
    /// See `lo`.
    pub hi: [u32; 2],
    /// Whether every territory's moves left are known exactly: only then may the key leave out
    /// their shapes and the search try one territory move.
    pub exact: bool,
    /// Per colour, a territory where that side has a move and that is solved exactly, with its
    /// moves left.
    pub fill: [Option<(Area, u32)>; 2],
    /// Per colour, moves its pockets surely give; counted only inside [`View::settle`], 0 here.
    pub pocket_sure: [u32; 2],
    /// Per colour, empty squares of its pockets, which the other side can never use.
    pub pocket_size: [u32; 2],
}

/// What the bounds say of a leaf, pockets counted (see [`View::settle`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// Decided: whether the side to move wins.
    Settled(bool),
    /// Open; `margin` is the side to move's lead in the naive race with its pockets counted as
    /// its own: both sides fill their territories and pockets and take turns on the other empty
    /// squares of the mixed regions until they are full (so the mover gets the odd square). The
    /// mover wins the race when `margin > 0` (it is *ahead*); at 0 it runs out first.
    Open { margin: i32 },
}

impl View {
    /// The view of `pos` from scratch.
    pub fn of(pos: &Position, endgame: &mut Endgame) -> View {
        let mut view = View {
            mixed: Bitboard::EMPTY,
            mixed_empty: 0,
            lo: [0; 2],
            hi: [0; 2],
            exact: true,
            fill: [None; 2],
            pocket_sure: [0; 2],
            pocket_size: [0; 2],
        };
        for region in Regions::of(pos) {
            match region.kind() {
                RegionKind::Dead => {}
                RegionKind::Mixed => {
                    view.mixed |= region.squares();
                    view.mixed_empty += region.empty.count();
                }
                kind => {
                    let c = kind.owner().expect("white and black regions have an owner");
                    if region.empty.is_empty() {
                        continue;
                    }
                    let area = Area::new(region.amazons(c), region.empty);
                    let v: MovesLeft = endgame.area_moves_left(area, Budget::nodes(REGION_BUDGET));
                    view.lo[c.index()] += v.lo;
                    view.hi[c.index()] += v.hi;
                    if v.lo != v.hi {
                        view.exact = false;
                    } else if v.lo > 0 && view.fill[c.index()].is_none() {
                        view.fill[c.index()] = Some((area, v.lo));
                    }
                }
            }
        }
        view
    }

    /// The view after an arrow on `arrow`, an empty square of a mixed region whose removal keeps
    /// that region in one piece: only the region's size changes.
    pub fn after_simple_arrow(&self, arrow: Bitboard) -> View {
        View {
            mixed: self.mixed & !arrow,
            mixed_empty: self.mixed_empty - 1,
            ..*self
        }
    }

    /// `Some(true)` when `side` (to move, with a legal move) surely wins, `Some(false)` when it
    /// surely loses, `None` when the bounds do not settle it.
    ///
    /// A mixed region's empty squares bound what either side can still get from it (every move
    /// burns one), so `side` wins if its sure territory moves exceed the most the other side could
    /// make (it moves first, so it needs strictly more), and loses if the other side's sure moves
    /// reach the most `side` could make. With no mixed region and exact counts this is the exact
    /// result.
    ///
    /// Pockets, once added, count as sure moves for their guard's side and are out of the other
    /// side's reach.
    ///
    /// Spare moves (see [`super::tempo`]) tighten both: a side to move with a spare square
    /// spends it, after which the other side is to move with one mixed square fewer and the
    /// first side's sure moves intact, so it wins when its sure moves reach the other side's
    /// possible ones less one; a side not to move whose spare squares no single move can fill
    /// spends one after any move of the other side, which then loses when its possible moves
    /// are at most two more than the first side's sure ones. Two spare moves in a row (see
    /// [`Tempo::double`] and [`Tempo::robust_double`]) add two more each.
    pub fn verdict(&self, side: Color, tempo: &Tempo) -> Option<bool> {
        let me = side.index();
        let other = (!side).index();
        let sure = |c: usize| self.lo[c] + self.pocket_sure[c];
        let possible =
            |c: usize| self.hi[c] + self.mixed_empty.saturating_sub(self.pocket_size[1 - c]);
        let (mine, theirs) = (sure(me), possible(other));
        if mine > theirs
            || (mine + 1 >= theirs && tempo.count(me) >= 1)
            || (mine + 3 >= theirs && tempo.double(me))
        {
            return Some(true);
        }
        let (mine, theirs) = (possible(me), sure(other));
        if theirs >= mine
            || (theirs + 2 >= mine && tempo.robust(other))
            || (theirs + 4 >= mine && tempo.robust_double(other))
        {
            return Some(false);
        }
        None
    }

    /// `pos`'s verdict for its side to move (see [`View::verdict`]), with the *pockets* of its
    /// mixed regions counted: a part of a mixed region's empty squares (king-connected) that
    /// touches amazons of one side only, its *guards*. Nothing of the other side can enter it nor
    /// shoot into it while the guards stay (every way in passes a guard's square), and a guard can
    /// at any time step in and shoot back onto the square it left, sealing the pocket as a
    /// territory with the other guards, if any, left outside as walls. So a side that keeps its
    /// guards still except to seal surely gets one seal (one move, plus the territory's moves left
    /// after it) per guard, each from a pocket of its own, whatever the other side does, and the
    /// other side never uses any pocket square.
    ///
    /// A guard with pockets of its own (touching it alone) seals the best of them; a pocket shared
    /// by several guards is sealed by one of them not yet counted, the best such seal (small
    /// boards' amazons stand by the edges, where squares behind two of one side's amazons are
    /// common; figures in docs/results.md, 2026-12-07). The seals' values take endgame searches,
    /// so they are only worked out when the pockets could settle the verdict at all (a seal worth
    /// at most its pocket squares).
    ///
    /// When they leave it open, the reading gives the side to move's lead in the naive race
    /// with the pockets' squares counted as its own (see [`Reading::Open`]), which took fewer nodes
    /// than the race without them (with the weak disproof rule it wanted a larger factor, see
    /// `AHEAD_FACTOR` in `super::dfpn`; figures in docs/results.md, 2026-12-07).
    ///
    /// `self` is `pos`'s view without pockets.
    pub fn settle(&self, pos: &Position, endgame: &mut Endgame) -> Reading {
        let side = pos.side_to_move();
        let mut view = *self;
        let white = pos.amazons(Color::White);
        let black = pos.amazons(Color::Black);
        let amazons = white | black;
        if let Some(v) = view.verdict(side, &Tempo::new(pos, view.mixed, [Bitboard::EMPTY; 2])) {
            return Reading::Settled(v);
        }
        let empty = view.mixed & !amazons;
        // Every part touches an amazon (a part touching none would be a region of its own, and
        // a dead one), so a side's pockets are the parts reached from its amazons and not from
        // the other side's: two floods instead of one per part. The parts themselves are only
        // needed when the pockets could settle the verdict, which is rare.
        let near_white = flood(white.king_step(empty), empty);
        let near_black = flood(black.king_step(empty), empty);
        // Pocket squares by colour index.
        let pocket = [near_white & !near_black, near_black & !near_white];
        view.pocket_size = pocket.map(Bitboard::count);
        view.pocket_sure = view.pocket_size;
        let (me, other) = (side.index(), (!side).index());
        let free = view.mixed_empty - view.pocket_size[0] - view.pocket_size[1];
        let margin = (view.lo[me] + view.pocket_size[me] + free % 2) as i32
            - (view.lo[other] + view.pocket_size[other]) as i32;
        let open = Reading::Open { margin };
        let pocketed = pocket[0] | pocket[1];
        let tempo = Tempo::new(pos, view.mixed, pocket);
        if pocketed.is_empty() || view.verdict(side, &tempo).is_none() {
            return open;
        }
        // (side, guards, pocket squares): a guard's own pockets merged into one entry, a shared
        // pocket an entry of its own.
        let mut pockets: Vec<(Color, Bitboard, Bitboard)> = Vec::new();
        let mut left = pocketed;
        while let Some(seed) = left.first() {
            let part = flood(Bitboard::from_square(seed), empty);
            left &= !part;
            let guards = part.king_step(amazons);
            let c = if pocket[0].contains(seed) {
                Color::White
            } else {
                Color::Black
            };
            let own = guards.count() == 1;
            match pockets.iter_mut().find(|p| own && p.1 == guards) {
                Some(p) => p.2 |= part,
                None => pockets.push((c, guards, part)),
            }
        }
        view.pocket_sure = [0; 2];
        // Guards with pockets of their own first: each is the only one that can seal them.
        pockets.sort_by_key(|p| p.1.count());
        let mut used = Bitboard::EMPTY;
        for (c, guards, squares) in pockets {
            let mut best = (0, Bitboard::EMPTY);
            for a in guards & !used {
                for s in pos.queen_targets(a) & squares {
                    let s = Bitboard::from_square(s);
                    // The pocket `s` lies in (a guard's own pockets may be several).
                    let part = flood(s, squares);
                    let v = endgame
                        .area_moves_left(Area::new(s, part & !s), Budget::nodes(REGION_BUDGET));
                    if 1 + v.lo > best.0 {
                        best = (1 + v.lo, Bitboard::from_square(a));
                    }
                }
            }
            used |= best.1;
            view.pocket_sure[c.index()] += best.0;
        }
        view.verdict(side, &tempo).map_or(open, Reading::Settled)
    }

    /// White's territory moves minus Black's, when exact.
    pub fn balance(&self) -> Option<i32> {
        self.exact.then(|| self.lo[0] as i32 - self.lo[1] as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> View {
        View::of(&text.parse().unwrap(), &mut Endgame::new())
    }

    /// The verdict for the side to move of `text`, spare moves left out.
    fn bare_verdict(text: &str) -> Option<bool> {
        let side = text.parse::<Position>().unwrap().side_to_move();
        view(text).verdict(side, &Tempo::NONE)
    }

    #[test]
    fn verdicts() {
        // Decided: White has a region of six squares, Black is walled in: White wins either way.
        assert_eq!(bare_verdict("W2x/4/xxxx/Bx2 w"), Some(true));
        assert_eq!(bare_verdict("W2x/4/xxxx/Bx2 b"), Some(false));
        // Equal territories: the side to move runs out first.
        assert_eq!(bare_verdict("W1x1B/xxxxx w"), Some(false));
        // Mixed region of 3 empty squares against Black's sure 4: White to move loses.
        assert_eq!(bare_verdict("W3B/xxxxx/B4 w"), Some(false));
        // A mixed region of 4 against a sure 1: undecided.
        assert_eq!(bare_verdict("W3B/xxxxx/B1xxx w"), None);
    }

    #[test]
    fn tempo_moves() {
        let tempi = |text: &str| {
            let p: Position = text.parse().unwrap();
            let v = View::of(&p, &mut Endgame::new());
            let t = Tempo::new(&p, v.mixed, [Bitboard::EMPTY; 2]);
            let counts = [t.count(0), t.count(1)];
            (
                v.verdict(p.side_to_move(), &Tempo::NONE),
                counts,
                v.verdict(p.side_to_move(), &t),
            )
        };
        // White's territory gives 2 against the 3 mixed squares Black might use, but White can
        // play a3-b3/a3 first: then Black has 2 mixed squares at most against White's 2, to move.
        assert_eq!(tempi("W3B/xxxxx/W2xx w"), (None, [1, 1], Some(true)));
        // Black to move: the mixed region's 7 squares against White's sure 5, and White's b4
        // has 5 empty neighbours, so whatever Black does White can still spend a mixed square
        // (b4 steps next to itself and shoots back): Black then has 5 at most, White 5 to come.
        assert_eq!(tempi("1W3B/3xxx/xxxxxx/W5 b"), (None, [5, 1], Some(false)));
        // With only one empty neighbour of White's, Black might take it away: left open.
        assert_eq!(tempi("W4B/xxxxxx/xxxxxx/W2xxx b"), (None, [1, 1], None));
    }

    #[test]
    fn territories_and_mixed_squares() {
        // Rank 1: a White territory of 3 (moves left 3: W on a1 fills b1 c1 d1 ... one square
        // each); rank 3: a mixed region of 3 empty squares.
        let v = view("W3B/xxxxx/W4 w");
        assert_eq!(v.mixed_empty, 3);
        assert_eq!(v.mixed.count(), 5);
        assert!(v.exact);
        assert_eq!(v.balance(), Some(v.lo[0] as i32));
        assert!(v.fill[0].is_some() && v.fill[1].is_none());
        let after = v.after_simple_arrow(Bitboard::from_square(crate::square::Square::new(1, 2)));
        assert_eq!(after.mixed_empty, 2);
    }

    #[test]
    fn pockets() {
        // Rank 1 only: a1 b1 sit behind White's c1, f1 behind Black's e1. White's seal is worth 2
        // (b1 shooting back to c1, then a1), Black's 1; White's pocket is out of Black's reach.
        let settle = |text: &str| {
            let p: Position = text.parse().unwrap();
            let mut e = Endgame::new();
            View::of(&p, &mut e).settle(&p, &mut e)
        };
        // Black to move: sure White 2 >= possible Black 4 - 2: Black loses.
        assert_eq!(settle("xxxxxx/2W1B1 b"), Reading::Settled(false));
        // White to move: sure 2 against Black's possible 2, and Black's sure 1 against White's
        // possible 3: the bounds leave it open. In the race White has 2 pocket squares and the
        // odd one of the rest (d1) against Black's 1: ahead by 2.
        assert_eq!(settle("xxxxxx/2W1B1 w"), Reading::Open { margin: 2 });
        // No pocket: of three shared squares White gets two, Black one and its territory's one:
        // level, so White, to move, runs out first.
        assert_eq!(settle("W3B/xxxxx/B1xxx w"), Reading::Open { margin: 0 });
        // The same with Black's territory filled: White leads by one.
        assert_eq!(settle("W3B/xxxxx/Bxxxx w"), Reading::Open { margin: 1 });
        assert_eq!(bare_verdict("xxxxxx/2W1B1 b"), None);
    }

    #[test]
    fn shared_pockets() {
        let settle = |text: &str| {
            let p: Position = text.parse().unwrap();
            let mut e = Endgame::new();
            let v = View::of(&p, &mut e);
            (
                v.verdict(p.side_to_move(), &Tempo::NONE),
                v.settle(&p, &mut e),
            )
        };
        // a2 and b1 touch White's a1 and c1 only: a seal (a1-a2/a1, then a2-b1/a2) is worth 2,
        // and Black can only ever use d1: White to move wins, which the squares alone leave open.
        assert_eq!(
            settle("xxxxxx/1xxxxx/W1W1Bx w"),
            (None, Reading::Settled(true))
        );
        // The same with the sides swapped: White, to move, gets d1 at most against Black's sure 2.
        assert_eq!(
            settle("xxxxxx/1xxxxx/B1B1Wx w"),
            (None, Reading::Settled(false))
        );
        // d1 also touches Black's e1 and the pocket a2-b1 is White's: White's sure 2 against
        // Black's possible 2 (d1 and f1) leaves it open. In the race White leads 3 to 1.
        assert_eq!(
            settle("xxxxxx/1xxxxx/W1W1B1 w"),
            (None, Reading::Open { margin: 2 })
        );
    }
}

//! Spare moves: what a side can surely spend in the mixed regions, for the bounds of the
//! regions' view (`View::verdict`, which uses this module).
//!
//! Every move outside the mover's territories burns exactly one empty square of the mixed
//! regions (the amazon leaves one, lands on one, shoots onto one), so the most the other side
//! can still make there is their empty squares less the moves the mover makes there first. An
//! amazon with an empty neighbour can always make such a move without touching anything else:
//! it steps next to itself and shoots back onto the square it left. A *spare* square is an empty
//! neighbour of such an amazon; an amazon that guards a pocket of its side (see `View::settle`)
//! is left out, and so are the pocket squares, so that spending a spare move keeps the pockets,
//! and with them the side's sure moves, as they are.
//!
//! One move of the other side fills at most two empty squares (the landing square and the
//! arrow, on one queen line) and can touch nothing else of ours, so three spare squares, or two on
//! no common line, survive any reply: the side can still spend one after it.
//!
//! Spare moves more than halved the whole 6x4 proof; the variants of which squares survive a
//! reply, and of the double moves, took more nodes (the figures: docs/results.md, 2026-12-07).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;

/// Each side's amazons and pockets, from which its spare squares are worked out when a bound
/// needs them (most verdicts are settled, or left open, by the squares alone).
#[derive(Copy, Clone, Debug)]
pub(super) struct Tempo {
    /// Amazons by colour index.
    amazons: [Bitboard; 2],
    /// Squares (empty and amazons) of the mixed regions.
    mixed: Bitboard,
    /// Pocket squares by colour index (empty when not worked out).
    pockets: [Bitboard; 2],
}

impl Tempo {
    /// No spare moves for either side.
    #[cfg(test)]
    pub const NONE: Tempo = Tempo {
        amazons: [Bitboard::EMPTY; 2],
        mixed: Bitboard::EMPTY,
        pockets: [Bitboard::EMPTY; 2],
    };

    /// The spare moves of `pos`, whose mixed regions are the squares `mixed`, with each side's
    /// pocket squares `pockets` (by colour index) kept out.
    #[inline]
    pub fn new(pos: &Position, mixed: Bitboard, pockets: [Bitboard; 2]) -> Tempo {
        Tempo {
            amazons: [pos.amazons(Color::White), pos.amazons(Color::Black)],
            mixed,
            pockets,
        }
    }

    /// The side `c`'s amazons that may spend spare moves (in the mixed regions, guarding none
    /// of its pockets) and the empty squares they may use (outside its pockets).
    fn free(&self, c: usize) -> (Bitboard, Bitboard) {
        let guards = self.pockets[c].king_step(self.amazons[c]);
        let empty = self.mixed & !(self.amazons[0] | self.amazons[1]) & !self.pockets[c];
        (self.amazons[c] & self.mixed & !guards, empty)
    }

    /// The spare squares of the side with colour index `c`.
    pub fn count(&self, c: usize) -> u32 {
        let (free, empty) = self.free(c);
        free.king_step(empty).count()
    }

    /// Whether the side `c`, not to move, keeps a spare square whatever the other side plays
    /// (see [`survives`]).
    pub fn robust(&self, c: usize) -> bool {
        let (free, empty) = self.free(c);
        survives(free.king_step(empty))
    }

    /// The squares where a spare move of the side `c` can land such that `keeps` holds of the
    /// spare squares it has after that move.
    fn landings(&self, c: usize, keeps: impl Fn(Bitboard) -> bool) -> Bitboard {
        let (free, empty) = self.free(c);
        let mut good = Bitboard::EMPTY;
        for a in free {
            let a = Bitboard::from_square(a);
            let others = free & !a;
            for n in a.king_step(empty) {
                let n = Bitboard::from_square(n);
                if keeps((others | n).king_step(empty & !n)) {
                    good |= n;
                }
            }
        }
        good
    }

    /// Whether the side `c`, to move, can spend a spare move and still keep a spare square
    /// whatever the reply (so it can spend another after it).
    pub fn double(&self, c: usize) -> bool {
        !self.landings(c, survives).is_empty()
    }

    /// Whether the side `c`, *not* to move, can spend two spare moves in a row (as
    /// [`Tempo::double`]) after any move of the other side: its landing squares that leave five
    /// spare squares (three or more once the other side's move has filled two) survive that
    /// move.
    pub fn robust_double(&self, c: usize) -> bool {
        survives(self.landings(c, |spare| spare.count() >= 5))
    }
}

/// Whether one move can never fill all of `squares`: a move fills two squares at most, its
/// landing square and its arrow, and those lie on one queen line; so three squares, or two on
/// no common line, always keep one.
fn survives(squares: Bitboard) -> bool {
    match squares.count() {
        0 | 1 => false,
        2 => {
            let mut it = squares.into_iter();
            let (a, b) = (it.next().unwrap(), it.next().unwrap());
            let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
            df != 0 && dr != 0 && df != dr
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, n| {
            b | Bitboard::from_square(crate::square::Square::parse(n, 10).unwrap())
        })
    }

    /// The squares of `p`'s mixed regions.
    fn mixed(p: &Position) -> Bitboard {
        crate::regions::Regions::of(p)
            .filter(|r| r.kind() == crate::regions::RegionKind::Mixed)
            .fold(Bitboard::EMPTY, |b, r| b | r.squares())
    }

    #[test]
    fn what_one_move_can_fill() {
        assert!(!survives(Bitboard::EMPTY));
        assert!(!survives(squares(&["c3"])));
        // On one line (rank, file, diagonal): land on one, shoot the other.
        assert!(!survives(squares(&["a1", "c1"])));
        assert!(!survives(squares(&["a1", "a4"])));
        assert!(!survives(squares(&["b2", "e5"])));
        // A knight's step or further off every line.
        assert!(survives(squares(&["a1", "b3"])));
        assert!(survives(squares(&["a1", "c2"])));
        assert!(survives(squares(&["a1", "c1", "e1"])));
    }

    #[test]
    fn spare_moves() {
        let tempo = |text: &str| {
            let p: Position = text.parse().unwrap();
            Tempo::new(&p, mixed(&p), [Bitboard::EMPTY; 2])
        };
        // White's b4 has five empty neighbours, Black's f4 one (e4).
        let t = tempo("1W3B/3xxx/xxxxxx/W5 b");
        assert_eq!((t.count(0), t.count(1)), (5, 1));
        assert!(t.robust(0) && !t.robust(1));
        // b4 steps to c4 and shoots back onto b4: c4 then touches d4, b3 and c3 (d3 is an
        // arrow), which one move cannot all fill; Black's f4, stepped to e4, would touch d4 alone.
        assert!(t.double(0) && !t.double(1));
        // No landing leaves White five spare squares.
        assert!(!t.robust_double(0));
        // An open middle: White's c3 and d3 can go on spending whatever Black does.
        let t = tempo("B5/6/2WW2/6/5B w");
        assert!(t.double(0) && t.robust_double(0));
        // An amazon next to its side's pocket (here a4 and a3, were they one) guards it and
        // spends nothing; the pocket squares are not spare either.
        let p: Position = "1W3B/3xxx/xxxxxx/W5 b".parse().unwrap();
        let t = Tempo::new(&p, mixed(&p), [squares(&["a4", "a3"]), Bitboard::EMPTY]);
        assert_eq!((t.count(0), t.count(1)), (0, 1));
    }
}

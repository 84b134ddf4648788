//! Positions whose value is known without searching them.
//!
//! This is where exact knowledge enters the search: a node whose value is known here becomes a
//! proven win or loss, and proofs propagate up the tree (a move to a lost position wins; a position
//! whose every move is proven lost is lost). Two kinds of positions are known:
//! - finished games (the side to move cannot move: it has lost);
//! - *decided* positions (no region holds amazons of both sides, see [`crate::endgame`]): the
//!   exact endgame solver counts each side's moves left, and the side to move wins if and only if
//!   it has more.
//!
//! The check costs one flood fill ([`is_decided`]) on positions that are not decided, so it runs
//! at every new leaf and after every playout move. The solver runs only on decided positions, each
//! call with a small node budget ([`SearchParams::endgame_nodes`]) so that a hard region cannot
//! stall a playout;
//! its transposition table keeps what earlier calls proved about region shapes, so the next call
//! on a similar position starts from there. When the budget leaves the winner open, the proven
//! bounds still say more than the territory evaluation (which counts squares, not moves): their
//! midpoints' difference, mapped to a probability as the evaluation maps a sealed territory count.
//!
//! Each search thread owns an [`Oracle`]; nothing here is shared. Its solver's table (1.3 MB) is
//! made at the first decided position the thread meets and kept between searches; the player
//! counts [`ORACLE_BYTES`] per thread inside its memory setting, taking it from the tree.

use super::params::SearchParams;
use crate::endgame::{is_decided, Budget, FillSolver, MovesLeft, Outcome, Score};
use crate::eval::{win_probability, EvalParams, Evaluation};
use crate::position::Position;
/// Entries of the solver's transposition table per thread: `2^TABLE_BITS` of 40 bytes (1.3 MB).
const TABLE_BITS: u32 = 15;
/// Entries of the per-thread cache of decided positions' values: `2^CACHE_BITS` of 16 bytes.
const CACHE_BITS: u32 = 12;

/// Bytes an [`Oracle`] holds once its solver exists: the solver's table and the cache (about
/// 1.38 MB).
pub const ORACLE_BYTES: usize =
    FillSolver::table_bytes(TABLE_BITS) + (1 << CACHE_BITS) * std::mem::size_of::<CacheEntry>();

/// What is known about a position, for its side to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Knowledge {
    /// Not decided: only the search can tell.
    Open,
    /// The result is proven: 1 the side to move wins, 0 it loses.
    Proven(f32),
    /// Decided, but the solver's budget left the winner open: a win probability estimated from the
    /// proven bounds on both sides' moves left.
    Bounded(f32),
}

impl Knowledge {
    /// The value for the side to move, unless the position is open.
    #[inline]
    pub fn value(self) -> Option<f32> {
        match self {
            Knowledge::Open => None,
            Knowledge::Proven(v) | Knowledge::Bounded(v) => Some(v),
        }
    }
}

/// One cached value: `key` is the position's hash mixed with the board size (0: unused slot).
#[derive(Copy, Clone, Default)]
struct CacheEntry {
    key: u64,
    value: f32,
    proven: bool,
}

/// A search thread's exact-endgame state: a solver with its table, and a small cache of the
/// verdicts of decided positions by hash (leaves are revisited, and playouts often end in the
/// same few sealed positions).
pub struct Oracle {
    /// Created at the first decided position (threads that never meet one allocate nothing).
    solver: Option<FillSolver>,
    cache: Box<[CacheEntry]>,
}

impl Default for Oracle {
    fn default() -> Oracle {
        Oracle::new()
    }
}

impl Oracle {
    /// An empty cache; the solver comes when first needed.
    pub fn new() -> Oracle {
        Oracle {
            solver: None,
            cache: vec![CacheEntry::default(); 1 << CACHE_BITS].into_boxed_slice(),
        }
    }

    /// The solver (its table is kept warm by the search: use it for the root too).
    pub fn solver(&mut self) -> &mut FillSolver {
        self.solver
            .get_or_insert_with(|| FillSolver::with_table_bits(TABLE_BITS))
    }

    /// What is known about `pos` for its side to move: finished positions are lost, decided ones
    /// proven when the solver settles the winner within `params.endgame_nodes` (0: decided
    /// positions are left open).
    #[inline]
    pub fn verdict(&mut self, pos: &Position, params: &SearchParams) -> Knowledge {
        if !pos.has_legal_move() {
            return Knowledge::Proven(0.0);
        }
        if params.endgame_nodes == 0 || !is_decided(pos) {
            return Knowledge::Open;
        }
        self.decided(pos, params)
    }

    /// The value of a decided (or finished) position for its side to move: exact when the solver
    /// settles the winner, else estimated from the bounds (the evaluation's win probability when
    /// `params.endgame_nodes` is 0).
    #[inline]
    pub fn decided_value(&mut self, pos: &Position, params: &SearchParams) -> f32 {
        if params.endgame_nodes == 0 {
            return win_probability(pos, &params.eval);
        }
        self.decided(pos, params)
            .value()
            .expect("a decided position has a value")
    }

    /// The verdict of a decided (or finished) position, from the cache or the solver.
    fn decided(&mut self, pos: &Position, params: &SearchParams) -> Knowledge {
        let key = (pos.hash()
            ^ ((pos.width() * 16 + pos.height()) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .max(1);
        let slot = key as usize & (self.cache.len() - 1);
        let entry = self.cache[slot];
        if entry.key == key {
            return if entry.proven {
                Knowledge::Proven(entry.value)
            } else {
                Knowledge::Bounded(entry.value)
            };
        }
        let verdict = match self
            .solver()
            .outcome(pos, Budget::nodes(params.endgame_nodes))
        {
            Outcome::Decided(score) => score_verdict(&score, &params.eval),
            Outcome::NotDecided => unreachable!("only decided positions are solved"),
        };
        let (value, proven) = match verdict {
            Knowledge::Proven(v) => (v, true),
            Knowledge::Bounded(v) => (v, false),
            Knowledge::Open => unreachable!(),
        };
        self.cache[slot] = CacheEntry { key, value, proven };
        verdict
    }
}

/// The verdict for the side to move of a decided position's score.
pub fn score_verdict(score: &Score, eval: &EvalParams) -> Knowledge {
    match score.winner() {
        Some(c) => Knowledge::Proven(win_value(c == score.side_to_move)),
        None => Knowledge::Bounded(bounded_value(score, eval)),
    }
}

/// 1 for a win, 0 for a loss.
#[inline]
fn win_value(win: bool) -> f32 {
    if win {
        1.0
    } else {
        0.0
    }
}

/// Win probability of the side to move from bounds that do not settle the winner: the difference
/// of the bounds' midpoints is a sealed territory count, scored as the evaluation scores one at
/// phase 0 (where the side to move needs one move more than the other to win).
fn bounded_value(score: &Score, eval: &EvalParams) -> f32 {
    let mid = |m: MovesLeft| (m.lo + m.hi) as f32 / 2.0;
    Evaluation {
        score: mid(score.to_move) - mid(score.other),
        phase: 0.0,
    }
    .win_probability(eval)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

    fn params() -> SearchParams {
        SearchParams::default()
    }

    #[test]
    fn open_finished_and_decided_positions() {
        let mut x = Oracle::new();
        let p = params();
        assert_eq!(x.verdict(&Position::standard(), &p), Knowledge::Open);
        // Black to move, walled in: lost.
        let lost: Position = "Bx3/xx3/5/5/W4 b".parse().unwrap();
        assert_eq!(x.verdict(&lost, &p), Knowledge::Proven(0.0));
        // White b2 has one move (a1+c1+b3 is defective), Black e5 one: White to move must fill
        // first and loses (B+0); with Black to move, Black loses.
        let w: Position = "xxx1B/xxxxx/x1xxx/xWxxx/1x1xx w".parse().unwrap();
        assert_eq!(x.verdict(&w, &p), Knowledge::Proven(0.0));
        assert_eq!(x.decided_value(&w, &p), 0.0);
        let b: Position = "xxx1B/xxxxx/x1xxx/xWxxx/1x1xx b".parse().unwrap();
        assert_eq!(x.verdict(&b, &p), Knowledge::Proven(0.0));
        // Cached answers are the same.
        assert_eq!(x.verdict(&w, &p), Knowledge::Proven(0.0));
        // White to move with 3 moves (the b1-d1 corridor) against 1 wins.
        let win: Position = "xxx1B/xxxxx/xxxxx/xxxxx/W3x w".parse().unwrap();
        assert_eq!(x.verdict(&win, &p), Knowledge::Proven(1.0));
        assert_eq!(x.decided_value(&win, &p), 1.0);
        // Without a solver budget only finished games are known.
        let off = SearchParams {
            endgame_nodes: 0,
            ..SearchParams::default()
        };
        assert_eq!(Oracle::new().verdict(&win, &off), Knowledge::Open);
        assert_eq!(x.verdict(&lost, &off), Knowledge::Proven(0.0));
    }

    #[test]
    fn bounds_that_leave_the_winner_open_give_an_estimate() {
        let p = EvalParams::default();
        let score = |a: (u32, u32), b: (u32, u32)| Score {
            side_to_move: Color::White,
            to_move: MovesLeft { lo: a.0, hi: a.1 },
            other: MovesLeft { lo: b.0, hi: b.1 },
        };
        assert_eq!(
            score_verdict(&score((5, 5), (4, 4)), &p),
            Knowledge::Proven(1.0)
        );
        assert_eq!(
            score_verdict(&score((4, 6), (6, 8)), &p),
            Knowledge::Proven(0.0)
        );
        let ahead = score_verdict(&score((10, 14), (9, 11)), &p)
            .value()
            .unwrap();
        let behind = score_verdict(&score((8, 11), (9, 11)), &p).value().unwrap();
        assert!(ahead > 0.5 && ahead < 1.0, "{ahead}");
        assert!(behind < 0.5 && behind > 0.0, "{behind}");
    }
}

//! The exact endgame: moves left of one-side regions, decided positions, perfect fill-in and the
//! final score.
//!
//! Once no region is mixed (see [`crate::regions`]), the sides never interact again: each side
//! fills its own regions, and the side that runs out of moves first, on its turn, loses. So all
//! that matters is each side's *moves left*: the longest sequence of moves its amazons can still
//! make alone. That can be fewer than its empty squares ("defective" territory: White on b2 with
//! only a1 and c1 free has two squares but one move), and finding it is a longest-path-like search,
//! so it is computed by [`FillSolver`], exactly when the budget allows and as proven bounds otherwise.
//!
//! # Who wins, and the margin
//! With `a` moves left for the side to move and `b` for the other side, the side to move wins if
//! and only if `a > b` (it needs strictly more: with `a == b` it is the first to be stuck).
//!
//! The **margin** is the number of moves the winner still has left at the moment the loser, on
//! move, cannot move, when both sides fill perfectly (the winner maximizing and the loser
//! minimizing that number, which for the loser means using all its moves). So
//! - the side to move wins by `a - b - 1` when `a > b`,
//! - the other side wins by `b - a` when `a <= b`.
//!
//! The margin is 0 or more, and it does not change along perfect play: every perfect move keeps
//! it. A finished game (the side to move has no move) is won by the other side by its moves left,
//! counted with the loser's amazons as walls. As text: `W+5` (White wins by 5) or `B+0` (Black
//! wins by 0: Black moved last). In combinatorial-game terms `a - b` is the value of the sum from
//! the mover's side; the margin is that value minus one for a winning mover, and its negation for a
//! losing one.
//!
//! # Use from the engine
//! - [`is_decided`] (one flood fill) says whether the rest applies;
//! - [`FillSolver::outcome`] gives an [`Outcome`] (winner, margin, exact or bounded) within a
//!   [`Budget`]; [`final_score`] is the one-shot version with a default budget;
//! - [`FillSolver::perfect_move`] plays the fill-in;
//! - [`FillSolver::report`] lists the regions with their moves left (for a `regions` command).
//!
//! A [`FillSolver`] keeps its transposition table between calls (entries are facts about region
//! shapes, valid in any position), so callers that ask often should keep one per thread.

pub mod area;
mod bounds;
mod fill;
mod table;

pub use bounds::{Budget, MovesLeft};

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
pub use crate::regions::is_decided;
use crate::regions::{Region, RegionKind, Regions};
use area::Area;
use fill::{bits_move, Search};
use std::fmt;

/// The result of a decided or finished position: both sides' moves left (see the module
/// documentation for who wins and what the margin means).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The side to move.
    pub side_to_move: Color,
    /// Moves left of the side to move.
    pub to_move: MovesLeft,
    /// Moves left of the other side.
    pub other: MovesLeft,
}

impl Score {
    /// The winner, when the bounds prove it: the side to move wins iff its moves left exceed the
    /// other side's.
    pub fn winner(&self) -> Option<Color> {
        if self.to_move.lo > self.other.hi {
            Some(self.side_to_move)
        } else if self.to_move.hi <= self.other.lo {
            Some(!self.side_to_move)
        } else {
            None
        }
    }

    /// Bounds on the winner's margin (moves it has left when the loser is stuck), when the winner
    /// is proven.
    pub fn margin(&self) -> Option<MovesLeft> {
        let (a, b) = (self.to_move, self.other);
        match self.winner()? {
            c if c == self.side_to_move => Some(MovesLeft {
                lo: a.lo - b.hi - 1,
                hi: a.hi - b.lo - 1,
            }),
            _ => Some(MovesLeft {
                lo: b.lo - a.hi,
                hi: b.hi - a.lo,
            }),
        }
    }

    /// Whether both sides' moves left are exact (then winner and margin are too).
    pub fn is_exact(&self) -> bool {
        self.to_move.is_exact() && self.other.is_exact()
    }

    /// Moves left of `c`.
    pub fn moves_left(&self, c: Color) -> MovesLeft {
        if c == self.side_to_move {
            self.to_move
        } else {
            self.other
        }
    }
}

impl fmt::Display for Score {
    /// `W+5` / `B+0` when exact; `W+3..5` when the winner is proven but the margin is only
    /// bounded; `undetermined (white 20..23, black 21)` when the bounds do not settle the winner.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner(), self.margin()) {
            (Some(w), Some(m)) => {
                let letter = w.letter().to_ascii_uppercase();
                write!(f, "{letter}+{m}")
            }
            _ => write!(
                f,
                "undetermined (white {}, black {})",
                self.moves_left(Color::White),
                self.moves_left(Color::Black)
            ),
        }
    }
}

/// Whether a position's result is settled, and if so its [`Score`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Some region is mixed and the game is not over: nothing is settled.
    NotDecided,
    /// The position is decided (no mixed region) or finished (the side to move cannot move).
    Decided(Score),
}

impl Outcome {
    /// The score, when decided.
    pub fn score(&self) -> Option<Score> {
        match self {
            Outcome::NotDecided => None,
            Outcome::Decided(s) => Some(*s),
        }
    }

    /// The proven winner, if any.
    pub fn winner(&self) -> Option<Color> {
        self.score()?.winner()
    }
}

impl fmt::Display for Outcome {
    /// The score (see [`Score`]'s `Display`), or `not decided`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::NotDecided => f.write_str("not decided"),
            Outcome::Decided(s) => s.fmt(f),
        }
    }
}

/// One region of a position with its moves left, for a `regions` listing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RegionReport {
    /// The region (its empty squares and amazons).
    pub region: Region,
    /// White-only, black-only, mixed or dead.
    pub kind: RegionKind,
    /// Moves left of the owner for white and black regions, 0 for dead ones, `None` for mixed
    /// ones (they are still contested).
    pub moves_left: Option<MovesLeft>,
}

/// Exact endgame solver; keeps its transposition table between calls.
pub struct FillSolver {
    search: Search,
}

impl Default for FillSolver {
    fn default() -> FillSolver {
        FillSolver::new()
    }
}

impl FillSolver {
    /// A solver with a 2^17-entry table (5 MiB). Hard proofs (defective regions of 20+ squares)
    /// need about half the nodes with each doubling of the table up to 2^18.
    pub fn new() -> FillSolver {
        FillSolver::with_table_bits(17)
    }

    /// A solver with a table of `2^bits` entries of 40 bytes.
    pub fn with_table_bits(bits: u32) -> FillSolver {
        FillSolver {
            search: Search::new(bits),
        }
    }

    /// Bytes of the table of a solver made by [`FillSolver::with_table_bits`] with `bits`.
    pub const fn table_bytes(bits: u32) -> usize {
        table::ENTRY_BYTES << bits
    }

    /// Forgets all cached results (they stay valid; this only frees the table for other shapes).
    pub fn clear(&mut self) {
        self.search.clear();
    }

    /// Search nodes used by the last call.
    pub fn last_nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// Moves left of `area`: its amazons (all of one side) using its empty squares, everything
    /// else a wall (build one with `Area::new(amazons, empty)`, e.g. from a [`Region`]). Several
    /// amazons and several separate parts add up.
    pub fn area_moves_left(&mut self, area: Area, budget: Budget) -> MovesLeft {
        self.search.start(budget);
        self.search.bounds(area)
    }

    /// A move of `area` (see [`FillSolver::area_moves_left`]) that keeps its moves left maximal, with
    /// the bounds after it: a perfect fill when both are exact.
    pub fn area_best_move(&mut self, area: Area, budget: Budget) -> Option<(Move, MovesLeft)> {
        self.search.start(budget);
        let (bits, v) = self.search.best_move(area)?;
        Some((bits_move(bits), v))
    }

    /// Moves left of `c` in `pos` if the opponent never moved again: `c`'s amazons through the
    /// empty squares, the opponent's amazons counted as walls. In a decided position this is
    /// exactly what `c` can still play; in a finished one it is the winner's margin.
    pub fn moves_left(&mut self, pos: &Position, c: Color, budget: Budget) -> MovesLeft {
        self.search.start(budget);
        self.side_moves(pos, c)
    }

    fn side_moves(&mut self, pos: &Position, c: Color) -> MovesLeft {
        self.search
            .bounds(Area::new(pos.amazons(c), pos.empty_squares()))
    }

    /// The outcome of `pos`: [`Outcome::NotDecided`] while a region is mixed and the side to move
    /// can still move; otherwise both sides' moves left, exact when the budget allows.
    pub fn outcome(&mut self, pos: &Position, budget: Budget) -> Outcome {
        self.search.start(budget);
        let stm = pos.side_to_move();
        if !pos.has_legal_move() {
            return Outcome::Decided(Score {
                side_to_move: stm,
                to_move: MovesLeft::exact(0),
                other: self.side_moves(pos, !stm),
            });
        }
        if !is_decided(pos) {
            return Outcome::NotDecided;
        }
        Outcome::Decided(Score {
            side_to_move: stm,
            to_move: self.side_moves(pos, stm),
            other: self.side_moves(pos, !stm),
        })
    }

    /// In a decided position, a move for the side to move that keeps its moves left maximal (a
    /// perfect fill): `None` when the position is not decided or the side to move cannot move.
    ///
    /// It plays in an exactly solved region when there is one; in a region only bounded within the
    /// budget it plays the move with the best proven lower bound (the only case where it may not
    /// be perfect).
    pub fn perfect_move(&mut self, pos: &Position, budget: Budget) -> Option<Move> {
        if !pos.has_legal_move() || !is_decided(pos) {
            return None;
        }
        self.search.start(budget);
        let stm = pos.side_to_move();
        let mut choice: Option<(Area, MovesLeft)> = None;
        for region in Regions::of(pos) {
            if region.kind() != RegionKind::owned_by(stm) {
                continue;
            }
            let area = Area::new(region.amazons(stm), region.empty);
            if !area.can_move() {
                continue;
            }
            let v = self.search.bounds(area);
            let better = match choice {
                None => true,
                Some((_, c)) => (v.is_exact(), v.lo) > (c.is_exact(), c.lo),
            };
            if better {
                choice = Some((area, v));
            }
        }
        let (area, _) = choice?;
        let (bits, _) = self.search.best_move(area)?;
        Some(bits_move(bits))
    }

    /// Every region of `pos` with its kind and moves left, lowest square first.
    pub fn report(&mut self, pos: &Position, budget: Budget) -> Vec<RegionReport> {
        self.search.start(budget);
        Regions::of(pos)
            .map(|region| {
                let kind = region.kind();
                let moves_left = match kind.owner() {
                    Some(c) => Some(
                        self.search
                            .bounds(Area::new(region.amazons(c), region.empty)),
                    ),
                    None if kind == RegionKind::Dead => Some(MovesLeft::exact(0)),
                    None => None,
                };
                RegionReport {
                    region,
                    kind,
                    moves_left,
                }
            })
            .collect()
    }
}

/// [`FillSolver::outcome`] with a fresh solver and the default budget: the final score of a decided
/// or finished position (`W+5`, `B+0`, ...), or `not decided`.
pub fn final_score(pos: &Position) -> Outcome {
    FillSolver::new().outcome(pos, Budget::default())
}

/// [`FillSolver::perfect_move`] with a fresh solver and the default budget.
pub fn perfect_move(pos: &Position) -> Option<Move> {
    FillSolver::new().perfect_move(pos, Budget::default())
}

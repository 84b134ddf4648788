//! The contract between the engine facade and whatever chooses moves (random, greedy, MCTS).
//!
//! A player is handed the whole game record (so it can reuse what it learnt about earlier positions),
//! the limits it must respect and a stop flag, and reports its statistics through a callback: players
//! never print.
//!
//! The concrete players live in their own modules (`random_player`, `greedy`, `mcts`), and the
//! kinds the engine can be set to, with the factory that builds them, in `player_kind`: the
//! contract depends on none of them.

use crate::game::Game;
use crate::mv::Move;
use crate::position::Position;
use crate::proof::{self, Verdict};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a search may use. `None` means unbounded; a search with no bound at all runs until `stop`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Aim to answer by this time (the search may stop earlier when the best move is settled, or
    /// later, up to `hard`, when it is unsure).
    pub soft: Option<Duration>,
    /// Never search longer than this.
    pub hard: Option<Duration>,
    /// Stop after this many playouts (per move, summed over threads).
    pub playouts: Option<u64>,
    /// Call the report callback about this often while searching (for `analyze`).
    pub report_interval: Option<Duration>,
}

/// Search statistics of one candidate move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Estimated win probability for the side to move, 0..=1.
    pub winrate: f64,
    /// Prior probability the move ordering gave it, 0..=1.
    pub prior: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// A snapshot of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchReport {
    /// Candidate moves, best first.
    pub moves: Vec<MoveStats>,
    /// Playouts done so far for this decision.
    pub playouts: u64,
    /// Positions visited so far for this decision (tree nodes walked plus playout moves; 0 for
    /// players that do not count them). At one thread the final count is `bench`'s signature.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// What the whole-position solver proved about the position (`Win` or `Loss`), when it did.
    pub solved: Option<Verdict>,
}

/// A player's answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// The move to play; `None` only when the side to move has no legal move.
    pub mv: Option<Move>,
    /// Estimated win probability of the side to move, when the player has one.
    pub winrate: Option<f64>,
    /// Final statistics.
    pub report: SearchReport,
}

/// Something that chooses moves.
pub trait Player: Send {
    /// Chooses a move for the side to move in `game`'s current position. It must return a legal move
    /// whenever one exists, respect `limits.hard`, and return promptly once `stop` is set.
    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision;

    /// Forgets anything kept from earlier positions (a new game begins).
    fn clear(&mut self) {}

    /// Proves whether the side to move in `pos` wins within `limits` (the `solve` command) with
    /// the player's own whole-position solver, whose table then serves play too; `None` for a
    /// player without one (the engine then uses a solver of its own).
    fn solve(
        &mut self,
        _pos: &Position,
        _limits: &proof::ProofLimits,
        _stop: &AtomicBool,
    ) -> Option<Verdict> {
        None
    }

    /// Short name for logs.
    fn name(&self) -> &'static str;
}

//! First moves ranked by the engine's tree search, for the guided root (`otrera solve
//! --guide`, see [`crate::solver::guide`]).
//!
//! The Monte Carlo search with the default weights, the solver off, a fixed seed and one thread,
//! so the same playouts give the same ranking and a guided solve with one thread repeats node for
//! node. On the small boards a hundred thousand playouts take well under a second.

use crate::game::Game;
use crate::mv::Move;
use crate::player::{Limits, Player};
use crate::position::Position;
use crate::settings::Settings;
use std::sync::atomic::AtomicBool;

/// Seed of the tree search behind the ranking.
pub const SEED: u64 = 1;

/// The moves of `pos`'s side to move that the tree search visited in `playouts` playouts, with
/// their visits, most visited first (ties by move, so the order is fixed). Stops early when
/// `stop` is raised.
pub fn ranked_moves(pos: &Position, playouts: u64, stop: &AtomicBool) -> Vec<(Move, u64)> {
    let settings = Settings {
        threads: 1,
        seed: Some(SEED),
        solver_empty: 0,
        ..Settings::default()
    };
    let mut player = settings.player_config().mcts();
    let limits = Limits {
        playouts: Some(playouts.max(1)),
        ..Limits::default()
    };
    let decision = player.choose(&Game::new(pos.clone()), &limits, stop, &mut |_| {});
    let mut moves: Vec<(Move, u64)> = decision
        .report
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .map(|m| (m.mv, m.visits))
        .collect();
    moves.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), m));
    moves
}

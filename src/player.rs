//! The contract between the engine facade and whatever chooses moves (random, greedy, MCTS).
//!
//! A player is handed the whole game record (so it can reuse what it learnt about earlier positions),
//! the limits it must respect and a stop flag, and reports its statistics through a callback: players
//! never print.

use crate::game::Game;
use crate::greedy::GreedyPlayer;
use crate::mcts::{MctsPlayer, SearchParams};
use crate::mv::Move;
use rand::rngs::SmallRng;
use rand::SeedableRng;
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

    /// Short name for logs.
    fn name(&self) -> &'static str;
}

/// Resources a player may be built with.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerConfig {
    /// Worker threads.
    pub threads: usize,
    /// Memory for search trees, in MiB.
    pub memory_mb: usize,
    /// Seed for reproducible play; `None` seeds from entropy.
    pub seed: Option<u64>,
    /// Search and evaluation tunables (MCTS and greedy).
    pub search: SearchParams,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            threads: 1,
            memory_mb: 512,
            seed: None,
            search: SearchParams::default(),
        }
    }
}

/// The kinds of player the engine can be set to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayerKind {
    /// Uniformly random amazon, destination and arrow (a sparring partner and a sanity baseline).
    Random,
    /// The best move by static evaluation one ply ahead.
    Greedy,
    /// Monte Carlo tree search (the engine's real player).
    Mcts,
}

/// Builds a player of `kind`.
pub fn build(kind: PlayerKind, config: &PlayerConfig) -> Box<dyn Player> {
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(config.seed)),
        PlayerKind::Greedy => Box::new(GreedyPlayer::new(config.search.eval.clone(), config.seed)),
        PlayerKind::Mcts => Box::new(MctsPlayer::new(config)),
    }
}

/// Plays a random legal move (see `Position::random_move`).
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player, reproducible when seeded.
    pub fn new(seed: Option<u64>) -> RandomPlayer {
        RandomPlayer {
            rng: match seed {
                Some(s) => SmallRng::seed_from_u64(s),
                None => SmallRng::from_entropy(),
            },
        }
    }
}

impl Player for RandomPlayer {
    fn choose(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _stop: &AtomicBool,
        _on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        Decision {
            mv: game.position().random_move(&mut self.rng),
            ..Decision::default()
        }
    }

    fn name(&self) -> &'static str {
        "random"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let stop = AtomicBool::new(false);
        let play = |seed| {
            let mut p = build(
                PlayerKind::Random,
                &PlayerConfig {
                    seed: Some(seed),
                    ..Default::default()
                },
            );
            let mut g = Game::new(Position::start(6).unwrap());
            while let Some(m) = p.choose(&g, &Limits::default(), &stop, &mut |_| {}).mv {
                g.play(m).unwrap();
            }
            g.moves().to_vec()
        };
        let a = play(3);
        assert!(!a.is_empty());
        assert_eq!(a, play(3));
    }
}

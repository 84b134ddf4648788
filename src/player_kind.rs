//! The kinds of player the engine can be set to, the resources they are built with, and the
//! factory that builds them behind the `Player` contract.

use crate::greedy::GreedyPlayer;
use crate::mcts::{MctsPlayer, SearchParams};
use crate::player::Player;
use crate::random_player::RandomPlayer;

/// Resources a player may be built with.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerConfig {
    /// Worker threads.
    pub threads: usize,
    /// Memory for the search (tree and every thread's endgame table), in MiB.
    pub memory_mb: usize,
    /// Seed for reproducible play; `None` seeds from entropy.
    pub seed: Option<u64>,
    /// Search and evaluation tunables (MCTS and greedy).
    pub search: SearchParams,
}

impl PlayerConfig {
    /// The MCTS player these resources give (for callers that need it concrete, such as tests
    /// looking at its tree).
    pub fn mcts(&self) -> MctsPlayer {
        MctsPlayer::new(self.threads, self.memory_mb, self.seed, self.search.clone())
    }
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
        PlayerKind::Mcts => Box::new(config.mcts()),
    }
}

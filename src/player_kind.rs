//! The kinds of player the engine can be set to, the resources they are built with, and the
//! factory that builds them behind the `Player` contract.

use crate::greedy::GreedyPlayer;
use crate::mcts::{MctsPlayer, SearchParams};
use crate::player::Player;
use crate::proof_player::{memory_split, overhead_mb, ProofPlayer};
use crate::random_player::RandomPlayer;

/// The default of `solver_empty`: the solver is tried once the regions still fought over have at
/// most this many empty squares (measured: docs/solver.md, "The solver in play").
pub const DEFAULT_SOLVER_EMPTY: u32 = 35;

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
    /// The MCTS tries the whole-position solver first once the mixed regions have at most this
    /// many empty squares (0: never).
    pub solver_empty: u32,
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
            solver_empty: DEFAULT_SOLVER_EMPTY,
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

/// Builds a player of `kind`. The MCTS player proves small positions first (see
/// `proof_player`) unless `solver_empty` is 0 or the memory is too small to share; the solver's
/// tables then take a quarter of `memory_mb` and the tree the rest.
pub fn build(kind: PlayerKind, config: &PlayerConfig) -> Box<dyn Player> {
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(config.seed)),
        PlayerKind::Greedy => Box::new(GreedyPlayer::new(config.search.eval.clone(), config.seed)),
        PlayerKind::Mcts => match memory_split(config.memory_mb) {
            Some((solver_mb, tree_mb)) if config.solver_empty > 0 => {
                let mcts = PlayerConfig {
                    memory_mb: tree_mb,
                    ..config.clone()
                };
                Box::new(ProofPlayer::new(
                    Box::new(mcts.mcts()),
                    config.solver_empty,
                    solver_mb.saturating_sub(overhead_mb(config.threads)),
                    config.threads,
                    config.search.eval.clone(),
                ))
            }
            _ => Box::new(config.mcts()),
        },
    }
}

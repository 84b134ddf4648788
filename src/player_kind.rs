//! The kinds of player the engine can be set to, the resources they are built with, and the
//! factory that builds them behind the `Player` contract.

use crate::greedy::GreedyPlayer;
use crate::mcts::{MctsPlayer, SearchParams};
use crate::memory;
use crate::player::Player;
use crate::proof_player::ProofPlayer;
use crate::random_player::RandomPlayer;
use std::fmt;
use std::str::FromStr;

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
        let tree_bytes = memory::split(self.memory_mb, self.threads, false).tree_bytes;
        MctsPlayer::new(self.threads, tree_bytes, self.seed, self.search.clone())
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Uniformly random amazon, destination and arrow (a sparring partner and a sanity baseline).
    Random,
    /// The best move by static evaluation one ply ahead.
    Greedy,
    /// Monte Carlo tree search (the engine's real player).
    Mcts,
}

impl PlayerKind {
    /// Every kind, in the order `--help` and error messages list them.
    pub const ALL: [PlayerKind; 3] = [PlayerKind::Random, PlayerKind::Greedy, PlayerKind::Mcts];

    /// Its name, as options and flags spell it.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Mcts => "mcts",
        }
    }

    /// A line of help on it.
    pub fn help(self) -> &'static str {
        match self {
            PlayerKind::Random => {
                "Uniformly random amazon, destination and arrow (a sparring partner and a sanity \
                 baseline)"
            }
            PlayerKind::Greedy => "The best move by static evaluation one ply ahead",
            PlayerKind::Mcts => "Monte Carlo tree search (the engine's real player)",
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PlayerKind {
    type Err = String;

    /// A kind by name, in any case.
    fn from_str(text: &str) -> Result<PlayerKind, String> {
        let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("'{text}' is not a player kind ({})", names.join(", ")))
    }
}

/// Builds a player of `kind`. The MCTS player proves small positions first (see
/// `proof_player`) unless `solver_empty` is 0 or the memory is too small to share; `memory::split`
/// says how the memory is then shared.
pub fn build(kind: PlayerKind, config: &PlayerConfig) -> Box<dyn Player> {
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(config.seed)),
        PlayerKind::Greedy => Box::new(GreedyPlayer::new(config.search.eval.clone(), config.seed)),
        PlayerKind::Mcts => {
            let split = memory::split(config.memory_mb, config.threads, config.solver_empty > 0);
            let mcts = MctsPlayer::new(
                config.threads,
                split.tree_bytes,
                config.seed,
                config.search.clone(),
            );
            match split.solver_table_mb {
                Some(table_mb) => Box::new(ProofPlayer::new(
                    Box::new(mcts),
                    config.solver_empty,
                    table_mb,
                    config.threads,
                    config.search.eval.clone(),
                )),
                None => Box::new(mcts),
            }
        }
    }
}

//! Search tunables, all in one struct (no global settings).

use super::ordering::OrderingWeights;
use crate::eval::EvalParams;

/// Everything the Monte Carlo tree search can be tuned by.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Static evaluation weights (used at playout cut-offs, by the move ordering and by greedy).
    pub eval: EvalParams,
    /// Weights of the cheap move ordering.
    pub ordering: OrderingWeights,
    /// Exploration weight of the prior term `c * P * sqrt(N) / (1 + n)`.
    pub c_puct: f32,
    /// First-play urgency: an unvisited child is assumed to be this much worse than its parent.
    pub fpu_reduction: f32,
    /// Progressive widening: a node with `N` visits considers its first
    /// `pw_base + pw_factor * N^pw_exponent` children in prior order.
    pub pw_base: f32,
    /// See `pw_base`.
    pub pw_factor: f32,
    /// See `pw_base`.
    pub pw_exponent: f32,
    /// Rank prior: the child ranked `r` by the move ordering gets a prior proportional to
    /// `1 / (r + 1)^prior_decay`.
    pub prior_decay: f32,
    /// A leaf is expanded once it has been visited this many times (before that it is only
    /// evaluated), which keeps the tree small where the search does not return.
    pub expand_visits: u32,
    /// Moves played by the playout policy after the tree before the position is evaluated.
    pub playout_depth: u32,
    /// Playout policy: how many random moves are drawn per playout move; the best of them by a
    /// cheap feature score is played (1 = uniformly random moves).
    pub playout_candidates: u32,
    /// Order the root's moves by a full one-ply evaluation instead of the cheap move features.
    pub root_full_ordering: bool,
    /// Once a node has this many visits, its further children are chosen by one-ply evaluation
    /// of the best `refine_candidates` moves by the cheap ranking.
    pub refine_visits: u32,
    /// See `refine_visits`.
    pub refine_candidates: u16,
    /// Once a node has this many visits, its further children are chosen by one-ply evaluation
    /// of every move.
    pub full_ordering_visits: u32,
    /// Endgame solver nodes spent on a decided leaf to prove its winner (0: never).
    pub endgame_nodes: u64,
    /// Endgame solver nodes for choosing the fill-in move when the position to play is decided.
    pub endgame_root_nodes: u64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            eval: EvalParams::default(),
            ordering: OrderingWeights::default(),
            c_puct: 2.0,
            fpu_reduction: 0.1,
            pw_base: 2.0,
            pw_factor: 1.0,
            pw_exponent: 0.5,
            prior_decay: 1.0,
            expand_visits: 2,
            playout_depth: 2,
            playout_candidates: 1,
            root_full_ordering: true,
            refine_visits: 16,
            refine_candidates: 128,
            full_ordering_visits: 4000,
            endgame_nodes: 5_000,
            endgame_root_nodes: 2_000_000,
        }
    }
}

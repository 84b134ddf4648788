//! Search tunables, all in one struct (no global settings). Every tunable's struct lives here
//! or in `eval` (the evaluation's weights), so the modules that use them depend on this one and
//! never the other way round.

use crate::eval::EvalParams;
use crate::net::Network;
use std::sync::Arc;

/// Everything the Monte Carlo tree search can be tuned by.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Static evaluation weights (used at playout cut-offs, by the move ordering and by greedy).
    pub eval: EvalParams,
    /// The network that evaluates playout cut-offs in place of the linear evaluation (which it
    /// takes as an input, with `eval`'s weights), if any.
    pub net: Option<Arc<Network>>,
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
            net: None,
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

/// Weights of the cheap move features, in score units.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderingWeights {
    /// Arrow next to an enemy amazon, per amazon, scaled up for amazons with few moves.
    pub arrow_near_enemy: f32,
    /// Arrow next to one of one's own amazons (including the one that moved), per amazon.
    pub arrow_near_own: f32,
    /// Arrow on a square both sides reach at about the same queen distance.
    pub arrow_contested: f32,
    /// Arrow on a square the enemy reaches first.
    pub arrow_enemy_side: f32,
    /// Arrow on a square one's own amazons reach at least two moves sooner (wasted).
    pub arrow_own_side: f32,
    /// Destination mobility: this times `ln(1 + queen moves from the destination)`.
    pub destination_mobility: f32,
    /// Moving an amazon that has few moves where it stands (escaping).
    pub escape: f32,
    /// Arrow on a square an enemy amazon reaches in one queen move (cuts its mobility), per
    /// amazon. This and the next three were added for a learned move prior that lost its gating
    /// match; they are 0 in the hand-set and in the embedded weights.
    pub arrow_blocks_enemy: f32,
    /// Arrow on a square one of one's own amazons reaches in one queen move, per amazon.
    pub arrow_blocks_own: f32,
    /// Destination an enemy amazon reaches in one queen move (exposed to being shut in).
    pub destination_attacked: f32,
    /// Destination next to an enemy amazon, per amazon.
    pub destination_near_enemy: f32,
}

impl OrderingWeights {
    /// Whether any of the learned reach terms is used (the search skips their tables if not).
    pub fn uses_reach(&self) -> bool {
        self.arrow_blocks_enemy != 0.0
            || self.arrow_blocks_own != 0.0
            || self.destination_attacked != 0.0
            || self.destination_near_enemy != 0.0
    }
}

impl Default for OrderingWeights {
    fn default() -> Self {
        OrderingWeights {
            arrow_near_enemy: 1.0,
            arrow_near_own: 1.0,
            arrow_contested: 1.0,
            arrow_enemy_side: 0.4,
            arrow_own_side: 1.0,
            destination_mobility: 1.0,
            escape: 1.0,
            arrow_blocks_enemy: 0.0,
            arrow_blocks_own: 0.0,
            destination_attacked: 0.0,
            destination_near_enemy: 0.0,
        }
    }
}

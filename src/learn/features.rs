//! The cheap move ordering's features: the ordering (`mcts/ordering.rs`) is a linear model
//! `sum(w_i * f_i(move))` with the [`OrderingWeights`] as the `w_i`. This file names the weights
//! (for the weights file) and computes the `f_i` one by one, as a plain reference: the search
//! never builds these vectors but folds the weights into per-square tables, and a test checks the
//! two agree move by move. (`otrera train` no longer fits these weights: a fitted move prior
//! lost its gating matches.)

use crate::mcts::ordering::{distance_table, ReachTables, LN_1P, NEIGHBOURS};
use crate::mcts::params::OrderingWeights;
use crate::mv::Move;
use crate::position::Position;
use crate::square::NUM_INDICES;
use crate::territory::queen_distances;

/// Number of features (and weights) of the move ordering.
pub const NUM_FEATURES: usize = 11;

/// The first this many features are the original seven of the hand-set ordering; the rest
/// (queen-line reach of both sides' amazons, enemy amazons next to the destination) were added
/// for a learned prior and weigh 0 in the hand-set and in the embedded weights.
pub const NUM_BASIC_FEATURES: usize = 7;

/// One move's feature values.
pub type FeatureVector = [f32; NUM_FEATURES];

/// Feature names, in vector order: the [`OrderingWeights`] field each one is weighted by.
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "arrow_near_enemy",
    "arrow_near_own",
    "arrow_contested",
    "arrow_enemy_side",
    "arrow_own_side",
    "destination_mobility",
    "escape",
    "arrow_blocks_enemy",
    "arrow_blocks_own",
    "destination_attacked",
    "destination_near_enemy",
];

/// The weights as a vector, in [`FEATURE_NAMES`] order.
pub fn weight_vector(w: &OrderingWeights) -> [f64; NUM_FEATURES] {
    [
        w.arrow_near_enemy,
        w.arrow_near_own,
        w.arrow_contested,
        w.arrow_enemy_side,
        w.arrow_own_side,
        w.destination_mobility,
        w.escape,
        w.arrow_blocks_enemy,
        w.arrow_blocks_own,
        w.destination_attacked,
        w.destination_near_enemy,
    ]
    .map(f64::from)
}

/// The weights from a vector in [`FEATURE_NAMES`] order.
pub fn weights_from_vector(v: &[f64; NUM_FEATURES]) -> OrderingWeights {
    OrderingWeights {
        arrow_near_enemy: v[0] as f32,
        arrow_near_own: v[1] as f32,
        arrow_contested: v[2] as f32,
        arrow_enemy_side: v[3] as f32,
        arrow_own_side: v[4] as f32,
        destination_mobility: v[5] as f32,
        escape: v[6] as f32,
        arrow_blocks_enemy: v[7] as f32,
        arrow_blocks_own: v[8] as f32,
        destination_attacked: v[9] as f32,
        destination_near_enemy: v[10] as f32,
    }
}

/// The model's score of a move: the weighted sum of its features.
pub fn score(w: &[f64; NUM_FEATURES], f: &FeatureVector) -> f64 {
    w.iter().zip(f).map(|(w, &x)| w * x as f64).sum()
}

/// How a square stands in the queen-distance race before the move.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Race {
    /// Neither side reaches it (or it is occupied).
    None,
    /// Both reach it within one move of each other.
    Contested,
    /// The opponent reaches it at least two moves sooner.
    Enemy,
    /// The side to move reaches it at least two moves sooner.
    Own,
}

/// Per-position tables from which each move's features are read.
pub struct MoveFeatures {
    near_enemy: [f32; NUM_INDICES],
    near_own: [u8; NUM_INDICES],
    race: [Race; NUM_INDICES],
    escape: [f32; NUM_INDICES],
    reach: ReachTables,
}

impl MoveFeatures {
    /// The tables for `pos` (side to move's point of view).
    pub fn new(pos: &Position) -> MoveFeatures {
        let me = pos.side_to_move();
        let mut near_enemy = [0.0f32; NUM_INDICES];
        for a in pos.amazons(!me) {
            let bonus = 1.0 + 8.0 / (2.0 + pos.destination_count(a) as f32);
            for s in NEIGHBOURS[a.index()] {
                near_enemy[s.index()] += bonus;
            }
        }
        let mut near_own = [0u8; NUM_INDICES];
        let mut escape = [0.0f32; NUM_INDICES];
        for a in pos.amazons(me) {
            for s in NEIGHBOURS[a.index()] {
                near_own[s.index()] += 1;
            }
            escape[a.index()] = 4.0 / (1.0 + pos.destination_count(a) as f32);
        }
        let dm = distance_table(&queen_distances(pos, me));
        let dt = distance_table(&queen_distances(pos, !me));
        let mut race = [Race::None; NUM_INDICES];
        for s in pos.empty_squares() {
            let (a, b) = (dm[s.index()], dt[s.index()]);
            race[s.index()] = if a == u8::MAX && b == u8::MAX {
                Race::None
            } else if a.abs_diff(b) <= 1 {
                Race::Contested
            } else if b < a {
                Race::Enemy
            } else {
                Race::Own
            };
        }
        MoveFeatures {
            near_enemy,
            near_own,
            race,
            escape,
            reach: ReachTables::new(pos),
        }
    }

    /// The features of legal move `m` of `pos`.
    pub fn of(&self, pos: &Position, m: Move) -> FeatureVector {
        let a = m.arrow.index();
        let near = NEIGHBOURS[a];
        // Own amazons next to the arrow after the move: the mover counts where it lands.
        let own =
            self.near_own[a] as i32 - near.contains(m.from) as i32 + near.contains(m.to) as i32;
        let race = self.race[a];
        let mobility = pos.destination_count(m.to) as usize;
        [
            self.near_enemy[a],
            -(own as f32),
            (race == Race::Contested) as u8 as f32,
            (race == Race::Enemy) as u8 as f32,
            -((race == Race::Own) as u8 as f32),
            LN_1P[mobility.min(63)],
            self.escape[m.from.index()],
            self.reach.enemy_reach[a] as f32,
            -(self.reach.own_reach[a] as f32),
            -(self.reach.enemy_reach[m.to.index()] as f32),
            self.reach.enemy_near[m.to.index()] as f32,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::ordering::{Orderer, Ranking};
    use crate::mcts::SearchParams;
    use crate::symmetry::Symmetry;
    use rand::SeedableRng;

    fn features_of(pos: &Position, text: &str) -> FeatureVector {
        let m = Move::parse(text, 10).unwrap();
        MoveFeatures::new(pos).of(pos, m)
    }

    #[test]
    fn known_moves_have_known_features() {
        let pos = Position::standard();
        // d1-d6/b8: the arrow is next to Black's a7 amazon (20 queen moves: bonus 1 + 8/22), no
        // White amazon is near it, and both sides reach b8 in one move (contested).
        let f = features_of(&pos, "d1-d6/b8");
        assert!((f[0] - (1.0 + 8.0 / 22.0)).abs() < 1e-6, "{f:?}");
        assert_eq!(&f[1..5], &[0.0, 1.0, 0.0, 0.0]);
        // From d6 the amazon has 31 queen moves (d1 still counts as occupied): ln(1 + 31).
        assert!((f[5] - 32f32.ln()).abs() < 1e-3, "{f:?}");
        // d1 has 20 queen moves at the start: escape 4 / 21.
        assert!((f[6] - 4.0 / 21.0).abs() < 1e-6);
        // Reach terms, from the position before the move: b8 is on queen lines of Black's a7
        // and d10 (c9) amazons and of no White amazon (d6-c7-b8 only opens after the move).
        assert_eq!(f[7], 2.0, "{f:?}");
        assert_eq!(f[8], 0.0);
        // Of Black's amazons only d10 reaches d6 (down the d file); none stands next to it.
        assert_eq!(f[9], -1.0, "{f:?}");
        assert_eq!(f[10], 0.0);
        // d1-d2/c1: the arrow lands next to the moved amazon on d2 (counted once: d1 was left).
        let f = features_of(&pos, "d1-d2/c1");
        assert_eq!(f[0], 0.0);
        assert_eq!(f[1], -1.0);
        // Shooting back to the square just left: d1 is not empty before the move, so no race.
        let f = features_of(&pos, "d1-d2/d1");
        assert_eq!(&f[1..5], &[-1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn model_scores_agree_with_the_cheap_ordering() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut pos = Position::standard();
        let mut orderer = Orderer::default();
        let params = SearchParams {
            ordering: weights_from_vector(&[
                1.3, 0.7, 0.9, -0.2, 1.1, 0.8, 1.7, 0.6, -0.4, 0.3, -0.9,
            ]),
            ..SearchParams::default()
        };
        let w = weight_vector(&params.ordering);
        for ply in 0.. {
            let Some(m) = pos.random_move(&mut rng) else {
                break;
            };
            if ply % 7 == 0 {
                let ranked = orderer.rank_all(&pos, Ranking::Cheap, &params);
                let f = MoveFeatures::new(&pos);
                let scores: Vec<f64> = ranked.iter().map(|&m| score(&w, &f.of(&pos, m))).collect();
                // The ordering sorts by its own (f32) score: ours must be non-increasing along it.
                for k in 1..scores.len() {
                    assert!(scores[k] <= scores[k - 1] + 1e-4, "{pos} {k}");
                }
            }
            pos.make(m);
        }
    }

    #[test]
    fn mirrored_positions_give_mirrored_scores() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        let mut pos = Position::standard();
        for _ in 0..15 {
            let m = pos.random_move(&mut rng).unwrap();
            pos.make(m);
        }
        let w = weight_vector(&OrderingWeights::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let f = MoveFeatures::new(&pos);
        for s in Symmetry::ALL {
            let image = s.position(&pos);
            let g = MoveFeatures::new(&image);
            for &m in moves.iter().step_by(5) {
                let a = f.of(&pos, m);
                let b = g.of(&image, s.mv(m, 10, 10));
                assert_eq!(a, b, "{s:?} {m}");
                assert_eq!(score(&w, &a), score(&w, &b));
            }
            let p = crate::eval::EvalParams::default();
            assert_eq!(
                crate::eval::evaluate(&pos, &p),
                crate::eval::evaluate(&image, &p)
            );
        }
    }
}

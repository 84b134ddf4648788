//! The greedy player: the move with the best static evaluation one ply ahead, and the perfect
//! fill-in once the position is decided.

use crate::endgame::{is_decided, Budget, FillSolver};
use crate::eval::{evaluate, EvalParams};
use crate::game::Game;
use crate::mv::Move;
use crate::player::{Decision, Limits, MoveStats, Player, SearchReport};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// Moves between looks at the clock and the stop flag.
const CHECK_EVERY: usize = 256;
/// Candidate moves listed in the report.
const REPORTED_MOVES: usize = 10;

/// Plays the move after which the evaluation is best for it (a finishing move first); ties are
/// broken at random (reproducibly when seeded). In a decided position it plays the exact
/// endgame's perfect fill-in instead.
pub struct GreedyPlayer {
    params: EvalParams,
    rng: SmallRng,
    solver: FillSolver,
}

impl GreedyPlayer {
    /// A greedy player using `params`, reproducible when seeded.
    pub fn new(params: EvalParams, seed: Option<u64>) -> GreedyPlayer {
        GreedyPlayer {
            params,
            rng: match seed {
                Some(s) => SmallRng::seed_from_u64(s),
                None => SmallRng::from_entropy(),
            },
            solver: FillSolver::with_table_bits(15),
        }
    }
}

impl Player for GreedyPlayer {
    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        _on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        let start = Instant::now();
        let mut pos = game.position().clone();
        if is_decided(&pos) {
            let budget = match limits.hard {
                Some(h) => Budget::default().until(start + h / 2),
                None => Budget::default(),
            };
            if let Some(m) = self.solver.perfect_move(&pos, budget) {
                let winrate = self.solver.outcome(&pos, budget).winner().map(|w| {
                    if w == pos.side_to_move() {
                        1.0
                    } else {
                        0.0
                    }
                });
                return Decision {
                    mv: Some(m),
                    winrate,
                    report: SearchReport {
                        moves: vec![MoveStats {
                            mv: m,
                            visits: 0,
                            winrate: winrate.unwrap_or(0.5),
                            prior: 1.0,
                            pv: vec![m],
                        }],
                        playouts: 0,
                        nodes: 0,
                        elapsed: start.elapsed(),
                        solved: None,
                    },
                };
            }
        }
        let moves = pos.legal_moves();
        let mut scored: Vec<(f32, f32, Move)> = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            // Keep at least one scored move, then honour the stop flag and the hard limit.
            if i > 0 && i % CHECK_EVERY == 0 {
                let late = limits.hard.is_some_and(|h| start.elapsed() >= h);
                if late || stop.load(Relaxed) {
                    break;
                }
            }
            pos.make(m);
            let (score, winrate) = if pos.has_legal_move() {
                let e = evaluate(&pos, &self.params);
                (-e.score, 1.0 - e.win_probability(&self.params))
            } else {
                (f32::INFINITY, 1.0)
            };
            pos.unmake(m);
            scored.push((score, winrate, m));
        }
        let best_score = scored.iter().map(|s| s.0).fold(f32::NEG_INFINITY, f32::max);
        // Uniform choice among the ties, by reservoir sampling.
        let mut chosen = None;
        let mut ties = 0;
        for &(score, winrate, m) in &scored {
            if score == best_score {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    chosen = Some((m, winrate));
                }
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let report = SearchReport {
            moves: scored
                .iter()
                .take(REPORTED_MOVES)
                .map(|&(_, winrate, m)| MoveStats {
                    mv: m,
                    visits: 1,
                    winrate: winrate as f64,
                    prior: 0.0,
                    pv: vec![m],
                })
                .collect(),
            playouts: scored.len() as u64,
            nodes: scored.len() as u64,
            elapsed: start.elapsed(),
            solved: None,
        };
        Decision {
            mv: chosen.map(|c| c.0),
            winrate: chosen.map(|c| c.1 as f64),
            report,
        }
    }

    fn name(&self) -> &'static str {
        "greedy"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn greedy_takes_a_winning_move() {
        // Black's a3 amazon has one free neighbour, b3; only b1-c2/b3 fills it and ends the game.
        let pos: Position = "B1x/xx1/1W1 w".parse().unwrap();
        let mut g = GreedyPlayer::new(EvalParams::default(), Some(1));
        let game = Game::new(pos.clone());
        let d = g.choose(
            &game,
            &Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let mut after = pos.clone();
        after.play(d.mv.unwrap()).unwrap();
        assert!(after.is_game_over(), "{}", d.mv.unwrap());
        assert_eq!(d.winrate, Some(1.0));
    }

    #[test]
    fn greedy_plays_whole_games() {
        let stop = AtomicBool::new(false);
        let mut g = GreedyPlayer::new(EvalParams::default(), Some(2));
        let mut game = Game::new(Position::start(6).unwrap());
        while let Some(m) = g.choose(&game, &Limits::default(), &stop, &mut |_| {}).mv {
            game.play(m).unwrap();
        }
        assert!(game.position().is_game_over());
    }
}

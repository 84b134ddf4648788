//! The exact endgame inside the players: decided positions are answered by the solver's perfect
//! fill-in without searching, played out to exactly the predicted score, and proven in the tree.

mod oracle;

use oracle::wins;
use otrera::endgame::{is_decided, Budget, FillSolver, Outcome};
use otrera::engine::{Answer, Engine};
use otrera::mcts::exact::Oracle;
use otrera::mcts::node::{PROVEN_LOSS, PROVEN_WIN};
use otrera::mcts::ordering::RankPrior;
use otrera::mcts::search::Shared;
use otrera::mcts::tree::Tree;
use otrera::mcts::SearchParams;
use otrera::player::Limits;
use otrera::player_kind::{build, PlayerConfig, PlayerKind};
use otrera::settings::Settings;
use otrera::{Game, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Decided positions (not finished) reached by seeded random games on `size` boards, where both
/// sides together still have at least `min_moves` moves left, exactly known.
fn decided_positions(size: usize, count: usize, min_moves: u32, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut solver = FillSolver::new();
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = Position::start(size).unwrap();
        while !is_decided(&pos) {
            match pos.random_move(&mut rng) {
                Some(m) => pos.make(m),
                None => break,
            }
        }
        if !pos.has_legal_move() {
            continue;
        }
        let Outcome::Decided(score) = solver.outcome(&pos, Budget::default()) else {
            unreachable!("the loop stopped at a decided position")
        };
        let total = score.to_move.lo + score.other.lo;
        if score.is_exact() && total >= min_moves {
            found.push(pos);
        }
    }
    found
}

fn self_play_engine(player: PlayerKind) -> Engine {
    Engine::new(Settings {
        player,
        seed: Some(11),
        playouts: Some(300),
        resign: None,
        memory_mb: 16,
        ..Settings::default()
    })
}

#[test]
fn decided_games_end_as_final_score_predicts() {
    let mut positions = decided_positions(10, 3, 12, 1);
    positions.extend(decided_positions(8, 3, 8, 2));
    // Two big sealed halves: White 48 empty squares with two amazons, Black 33 with four.
    positions.push(
        "3B2B3/x1x1x5/10/B8B/xxxxxxxxxx/10/10/W8W/10/10 w"
            .parse()
            .unwrap(),
    );
    for player in [PlayerKind::Mcts, PlayerKind::Greedy] {
        for pos in &positions {
            let mut e = self_play_engine(player);
            e.set_position(pos.clone());
            let predicted = e.final_score().unwrap();
            let winner = predicted.winner().expect("exact scores have a winner");
            let text = predicted.to_string();
            loop {
                let side = e.position().side_to_move();
                match e.genmove(side, Instant::now()).unwrap() {
                    Answer::Move(_) => {
                        // Perfect play on both sides keeps the margin.
                        assert_eq!(e.final_score().unwrap().to_string(), text, "{pos}");
                    }
                    Answer::Resign => break,
                }
            }
            let end = e.position();
            assert!(end.is_game_over(), "{pos}: {player:?} resigned early");
            assert_eq!(end.side_to_move(), !winner, "{pos}");
            assert_eq!(e.final_score().unwrap(), {
                let mut s = FillSolver::new();
                s.outcome(end, Budget::default()).score().unwrap()
            });
            assert_eq!(e.final_score().unwrap().to_string(), text, "{pos}");
        }
    }
}

#[test]
fn mcts_answers_decided_positions_at_once_with_a_perfect_move() {
    let stop = AtomicBool::new(false);
    let mut solver = FillSolver::new();
    for pos in decided_positions(10, 4, 10, 3) {
        let mut player = build(
            PlayerKind::Mcts,
            &PlayerConfig {
                seed: Some(1),
                memory_mb: 16,
                ..PlayerConfig::default()
            },
        );
        // A budget that would take many seconds if it were searched.
        let limits = Limits {
            playouts: Some(5_000_000),
            ..Limits::default()
        };
        let d = player.choose(&Game::new(pos.clone()), &limits, &stop, &mut |_| {});
        assert_eq!(d.report.playouts, 0, "{pos}: searched");
        let m = d.mv.unwrap();
        let me = pos.side_to_move();
        let before = solver.moves_left(&pos, me, Budget::default());
        let mut after = pos.clone();
        after.play(m).unwrap();
        let left = solver.moves_left(&after, me, Budget::default());
        assert!(before.is_exact() && left.is_exact());
        assert_eq!(left.lo + 1, before.lo, "{pos}: {m} wastes moves");
        let won = solver.outcome(&pos, Budget::default()).winner() == Some(me);
        assert_eq!(d.winrate, Some(if won { 1.0 } else { 0.0 }), "{pos}");
        // The report's line is the perfect fill-in from here.
        let line = &d.report.moves[0].pv;
        assert_eq!(line[0], m);
        let mut p = pos.clone();
        for &m in line {
            p.play(m).unwrap();
        }
    }
}

#[test]
fn search_proves_a_decided_root_at_once() {
    let params = SearchParams::default();
    let priors = RankPrior::new(params.prior_decay);
    let stop = AtomicBool::new(false);
    let mut solver = FillSolver::new();
    for pos in decided_positions(8, 4, 6, 4) {
        let tree = Tree::new(1 << 20);
        let shared = Shared::new(&tree, &params, &priors, &pos, None, &stop, Some(1_000_000));
        let mut oracles = vec![Oracle::new()];
        let totals = shared.run(
            &mut oracles,
            1,
            &Limits::default(),
            Instant::now(),
            &mut |_| {},
        );
        // One batch of playouts at most: the root is proven by the first one.
        assert!(totals.playouts <= 64, "{pos}: {} playouts", totals.playouts);
        let won = solver.outcome(&pos, Budget::default()).winner() == Some(pos.side_to_move());
        // Proofs are for the side that moved into the node.
        let want = if won { PROVEN_LOSS } else { PROVEN_WIN };
        assert_eq!(tree.root().proof(), want, "{pos}");
    }
}

#[test]
fn mcts_proves_a_sealing_win_and_stops() {
    // Undecided 6x6 positions where the side to move can wall off a won endgame in one move.
    let mut rng = StdRng::seed_from_u64(9);
    let mut solver = FillSolver::new();
    let mut tested = 0;
    while tested < 3 {
        let mut pos = Position::start(6).unwrap();
        while pos.empty_squares().count() > 13 && !is_decided(&pos) {
            match pos.random_move(&mut rng) {
                Some(m) => pos.make(m),
                None => break,
            }
        }
        if is_decided(&pos) || !pos.has_legal_move() {
            continue;
        }
        let me = pos.side_to_move();
        let sealing = pos.legal_moves().into_iter().any(|m| {
            let mut p = pos.clone();
            p.make(m);
            is_decided(&p) && solver.outcome(&p, Budget::default()).winner() == Some(me)
        });
        if !sealing {
            continue;
        }
        tested += 1;
        let mut player = build(
            PlayerKind::Mcts,
            &PlayerConfig {
                seed: Some(2),
                memory_mb: 16,
                ..PlayerConfig::default()
            },
        );
        let budget = 200_000;
        let limits = Limits {
            playouts: Some(budget),
            ..Limits::default()
        };
        let d = player.choose(
            &Game::new(pos.clone()),
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(d.winrate, Some(1.0), "{pos}");
        assert!(
            d.report.playouts < budget / 2,
            "{pos}: proven root kept searching"
        );
        let mut after = pos.clone();
        after.play(d.mv.unwrap()).unwrap();
        assert!(
            !wins(&mut after, &mut HashMap::new()),
            "{pos}: {}",
            d.mv.unwrap()
        );
        assert_eq!(after.side_to_move(), !me);
    }
}

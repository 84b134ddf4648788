//! The whole-position solver in play, through the engine facade: `genmove` plays proven wins out
//! exactly, resists in proven losses, and the `solver_empty` option turns it off. Budgets are
//! playout (node) limits, never the clock, so the results do not depend on the machine's speed.

mod oracle;

use oracle::wins;
use otrera::engine::{Engine, Go, SearchResult};
use otrera::regions::is_decided;
use otrera::settings::Settings;
use otrera::solver::{ProofLimits, ProofSolver, Verdict};
use otrera::{Move, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A seeded engine without a clock: each move gets 100,000 playouts, so the solver gets 12,500
/// nodes.
fn engine(solver_empty: u32) -> Engine {
    Engine::new(Settings {
        seed: Some(3),
        playouts: Some(100_000),
        resign: None,
        memory_mb: 64,
        solver_empty,
        ..Settings::default()
    })
}

/// `reg_genmove` for the side to move: the search's result without playing it.
fn search(e: &mut Engine) -> SearchResult {
    e.go(Go::Genmove {
        color: e.position().side_to_move(),
        play: false,
        started: Instant::now(),
    })
    .unwrap();
    e.wait().unwrap()
}

/// Positions late in seeded random 6x6 games, not decided yet, that the side to move wins
/// although some of its moves lose.
fn won_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = Position::start(6).unwrap();
        while pos.empty_squares().count() > 12 {
            match pos.random_move(&mut rng) {
                Some(m) => pos.make(m),
                None => break,
            }
        }
        if !pos.has_legal_move() || is_decided(&pos) {
            continue;
        }
        let mut memo = HashMap::new();
        let mut p = pos.clone();
        if !wins(&mut p, &mut memo) {
            continue;
        }
        let losing = pos.legal_moves().into_iter().any(|m| {
            p.make(m);
            let lost = wins(&mut p, &mut memo);
            p.unmake(m);
            lost
        });
        if losing {
            found.push(pos);
        }
    }
    found
}

#[test]
fn proven_wins_are_played_out_exactly() {
    for start in won_positions(4, 5) {
        let winner = start.side_to_move();
        let mut e = engine(30);
        e.set_position(start.clone());
        let mut memo = HashMap::new();
        while e.position().has_legal_move() {
            let side = e.position().side_to_move();
            let before = e.position().clone();
            let result = search(&mut e);
            let mv = result.decision.mv.unwrap();
            e.play(side, mv).unwrap();
            if side == winner {
                // Every move of the winner keeps the win (the oracle is independent of the
                // solver), and the solver proved it while any region was still contested.
                let mut after = e.position().clone();
                assert!(!wins(&mut after, &mut memo), "{start}: {before} {mv}");
                if !is_decided(&before) {
                    assert_eq!(
                        result.decision.report.solved,
                        Some(Verdict::Win(mv)),
                        "{before}"
                    );
                    assert_eq!(result.decision.winrate, Some(1.0));
                }
            } else if !is_decided(&before) {
                assert_eq!(result.decision.report.solved, Some(Verdict::Loss));
                assert_eq!(result.decision.winrate, Some(0.0));
            }
        }
        assert_ne!(e.position().side_to_move(), winner, "{start}");
    }
}

/// Nodes a fresh solver needs to prove that the side to move wins `pos`.
fn proof_work(pos: &Position) -> u64 {
    let mut s = ProofSolver::new(1);
    let r = s.solve(
        pos,
        &ProofLimits {
            nodes: otrera::proof_player::PROBE_NODES,
            ..ProofLimits::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(matches!(r.verdict, Verdict::Win(_) | Verdict::Unknown));
    r.stats.nodes
}

#[test]
fn a_proven_loss_resists_with_the_hardest_refutation() {
    // White to move loses (not decided yet): b1-a1/b1 loses in 3 plies, d2-c3/b3 holds out for 5.
    let pos: Position = oracle::LOST_ROOT.parse().unwrap();
    let length = oracle::resistance(&pos);
    let longest = *length.values().max().unwrap();
    let mut e = engine(30);
    e.set_position(pos.clone());
    let result = search(&mut e);
    assert_eq!(result.decision.report.solved, Some(Verdict::Loss));
    assert_eq!(result.decision.winrate, Some(0.0));
    let chosen = result.decision.mv.unwrap();
    assert!(pos.check_move(chosen).is_ok());
    // The refutation after the chosen move needs the most proof work of all moves.
    let work = |m: Move| {
        let mut after = pos.clone();
        after.make(m);
        proof_work(&after)
    };
    let hardest = length.keys().map(|&m| work(m)).max().unwrap();
    assert_eq!(work(chosen), hardest, "{chosen}");
    // Here it is also the longest resistance.
    assert_eq!(length[&chosen], longest, "{chosen}");
}

#[test]
fn solver_empty_zero_turns_the_solver_off() {
    let pos = won_positions(1, 9).remove(0);
    let mut on = engine(30);
    on.set_position(pos.clone());
    let r = search(&mut on);
    assert!(matches!(r.decision.report.solved, Some(Verdict::Win(_))));
    assert_eq!(r.decision.report.playouts, 0);
    let mut off = engine(0);
    off.set_position(pos.clone());
    let r = search(&mut off);
    assert_eq!(r.decision.report.solved, None);
    assert!(r.decision.report.playouts > 0);
    // The option set at run time: off, then a threshold below the position's contested squares.
    on.set_option("solver_empty", "0").unwrap();
    assert_eq!(search(&mut on).decision.report.solved, None);
    let mixed = otrera::proof_player::mixed_empty(&pos).unwrap();
    assert!(mixed > 1, "{pos}");
    on.set_option("solver_empty", &(mixed - 1).to_string())
        .unwrap();
    assert_eq!(search(&mut on).decision.report.solved, None);
    on.set_option("solver_empty", &mixed.to_string()).unwrap();
    assert!(search(&mut on).decision.report.solved.is_some());
    assert_eq!(on.position().side_to_move(), pos.side_to_move());
}

#[test]
fn a_stopped_search_still_answers_with_a_legal_move() {
    use otrera::player::Limits as SearchLimits;
    use otrera::player_kind::{build, PlayerConfig, PlayerKind};
    use otrera::Game;
    // The stop flag is up before the search starts (a `quit` racing a `genmove`): the player
    // does not wait for the solver thread and still names a legal move; the next search, not
    // stopped, gets the solver back and proves the position.
    let pos = won_positions(1, 13).remove(0);
    let game = Game::new(pos.clone());
    let mut p = build(
        PlayerKind::Mcts,
        &PlayerConfig {
            seed: Some(1),
            memory_mb: 64,
            ..PlayerConfig::default()
        },
    );
    // A node per 8 playouts: 50,000 nodes, many times what the proof takes (891).
    let limits = SearchLimits {
        playouts: Some(400_000),
        ..SearchLimits::default()
    };
    let d = p.choose(&game, &limits, &AtomicBool::new(true), &mut |_| {});
    assert!(pos.check_move(d.mv.unwrap()).is_ok());
    assert_eq!(d.report.solved, None);
    let d = p.choose(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(matches!(d.report.solved, Some(Verdict::Win(_))), "{pos}");
}

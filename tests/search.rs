//! Black-box tests of the search players through the `Player` contract.

mod oracle;

use oracle::wins;
use otrera::player::{Limits, Player};
use otrera::player_kind::{build, PlayerConfig, PlayerKind};
use otrera::{Game, Move, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn config(seed: u64) -> PlayerConfig {
    PlayerConfig {
        seed: Some(seed),
        memory_mb: 64,
        // These test the tree search itself (tests/solver_play.rs has the solver in play).
        solver_empty: 0,
        ..PlayerConfig::default()
    }
}

fn playouts(n: u64) -> Limits {
    Limits {
        playouts: Some(n),
        ..Limits::default()
    }
}

/// Positions late in seeded random 6x6 games that the side to move wins, but where some moves
/// lose and no move wins at once.
fn won_positions(count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = Position::start(6).unwrap();
        while pos.empty_squares().count() > 11 {
            match pos.random_move(&mut rng) {
                Some(m) => pos.make(m),
                None => break,
            }
        }
        if !pos.has_legal_move() {
            continue;
        }
        let mut memo = HashMap::new();
        let mut p = pos.clone();
        if !wins(&mut p, &mut memo) {
            continue;
        }
        let mut losing = 0;
        let mut immediate = false;
        for m in pos.legal_moves() {
            p.make(m);
            immediate |= !p.has_legal_move();
            if wins(&mut p, &mut memo) {
                losing += 1;
            }
            p.unmake(m);
        }
        if losing > 0 && !immediate {
            found.push(pos);
        }
    }
    found
}

#[test]
fn finds_forced_wins_in_small_positions() {
    let stop = AtomicBool::new(false);
    for pos in won_positions(4) {
        let mut player = build(PlayerKind::Mcts, &config(1));
        let d = player.choose(
            &Game::new(pos.clone()),
            &playouts(20_000),
            &stop,
            &mut |_| {},
        );
        let m = d.mv.expect("a move");
        let mut after = pos.clone();
        after.play(m).unwrap();
        assert!(
            !wins(&mut after, &mut HashMap::new()),
            "{pos}: {m} lets the opponent win"
        );
    }
}

#[test]
fn one_thread_search_is_reproducible() {
    let stop = AtomicBool::new(false);
    let run = || {
        let mut p = build(PlayerKind::Mcts, &config(42));
        let mut g = Game::new(Position::standard());
        let mut reports = Vec::new();
        for _ in 0..3 {
            let d = p.choose(&g, &playouts(3000), &stop, &mut |_| {});
            reports.push((d.mv, d.report.moves.clone()));
            g.play(d.mv.unwrap()).unwrap();
        }
        reports
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a[0].1.len() > 3);
}

#[test]
fn stop_flag_ends_an_unbounded_search() {
    let stop = AtomicBool::new(false);
    let mut p = build(
        PlayerKind::Mcts,
        &PlayerConfig {
            threads: 2,
            ..config(3)
        },
    );
    let g = Game::new(Position::standard());
    let started = Instant::now();
    let d = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        p.choose(&g, &Limits::default(), &stop, &mut |_| {})
    });
    assert!(started.elapsed() < Duration::from_secs(5));
    let m = d.mv.unwrap();
    assert!(g.position().check_move(m).is_ok());
    // Already stopped: still a legal move, at once.
    let d = p.choose(&g, &Limits::default(), &stop, &mut |_| {});
    assert!(g.position().check_move(d.mv.unwrap()).is_ok());
}

#[test]
fn hard_limit_and_reports() {
    let stop = AtomicBool::new(false);
    let mut p = build(PlayerKind::Mcts, &config(4));
    let g = Game::new(Position::standard());
    let limits = Limits {
        soft: Some(Duration::from_millis(150)),
        hard: Some(Duration::from_millis(300)),
        report_interval: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    let mut reports = 0;
    let started = Instant::now();
    let d = p.choose(&g, &limits, &stop, &mut |r| {
        reports += 1;
        assert!(!r.moves.is_empty());
        assert!(r
            .moves
            .iter()
            .all(|m| m.pv[0] == m.mv && (0.0..=1.0).contains(&m.winrate)));
    });
    // Generous: the machine may be loaded.
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(reports >= 1);
    assert!(d.report.playouts > 0);
    assert_eq!(d.mv, Some(d.report.moves[0].mv));
}

#[test]
fn never_passes_while_moves_exist() {
    let stop = AtomicBool::new(false);
    for (kind, budget) in [
        (PlayerKind::Mcts, 0),
        (PlayerKind::Mcts, 1),
        (PlayerKind::Mcts, 50),
        (PlayerKind::Greedy, 0),
    ] {
        let mut p = build(kind, &config(5));
        let mut g = Game::new(Position::start(8).unwrap());
        while !g.position().is_game_over() {
            let d = p.choose(&g, &playouts(budget), &stop, &mut |_| {});
            let m =
                d.mv.unwrap_or_else(|| panic!("{kind:?} passed in {}", g.position()));
            g.play(m).unwrap();
        }
        assert_eq!(p.choose(&g, &playouts(budget), &stop, &mut |_| {}).mv, None);
    }
}

#[test]
fn memory_cap_is_respected_and_search_goes_on() {
    let stop = AtomicBool::new(false);
    let mut p = PlayerConfig {
        memory_mb: 1,
        ..config(6)
    }
    .mcts();
    let (_, capacity) = p.tree().usage();
    assert!(p.tree().reserved_bytes() <= 1 << 20);
    let g = Game::new(Position::standard());
    let d = p.choose(&g, &playouts(40_000), &stop, &mut |_| {});
    assert!(d.mv.is_some());
    assert_eq!(d.report.playouts, 40_000);
    let (used, cap) = p.tree().usage();
    assert_eq!(cap, capacity);
    assert!(used <= cap);
    assert!(p.tree().is_full(), "the budget should have filled 1 MiB");
}

#[test]
fn tree_is_reused_along_the_game() {
    let stop = AtomicBool::new(false);
    let mut p = config(8).mcts();
    let mut g = Game::new(Position::standard());
    let d = p.choose(&g, &playouts(5000), &stop, &mut |_| {});
    let pv: Vec<Move> = d.report.moves[0].pv.clone();
    assert!(pv.len() >= 2);
    let kept = {
        // Visits of the node two plies down the principal variation, before the next search.
        let t = p.tree();
        let c = t.find_child(t.root(), pv[0]).unwrap();
        let gc = t.find_child(t.node(c), pv[1]).unwrap();
        t.node(gc).visits()
    };
    assert!(kept > 0);
    g.play(pv[0]).unwrap();
    g.play(pv[1]).unwrap();
    p.choose(&g, &playouts(10), &stop, &mut |_| {});
    assert_eq!(p.tree().root().visits(), kept + 10);
    // An undone move makes the game diverge: the tree starts over.
    g.undo();
    g.undo();
    g.play(d.report.moves[1].mv).unwrap();
    p.choose(&g, &playouts(10), &stop, &mut |_| {});
    assert_eq!(p.tree().root().visits(), 10);
}

#[test]
fn two_threads_share_the_budget() {
    let stop = AtomicBool::new(false);
    let mut p = PlayerConfig {
        threads: 2,
        ..config(9)
    }
    .mcts();
    let g = Game::new(Position::standard());
    let d = p.choose(&g, &playouts(4000), &stop, &mut |_| {});
    assert_eq!(d.report.playouts, 4000);
    assert_eq!(p.tree().root().visits(), 4000);
    assert_eq!(p.tree().root().in_flight(), 0);
    assert!(g.position().check_move(d.mv.unwrap()).is_ok());
}

#[test]
fn decided_positions_are_filled_in_perfectly() {
    use otrera::endgame::{Budget, FillSolver};
    let stop = AtomicBool::new(false);
    let mut solver = FillSolver::new();
    // Separated regions where the search alone (territory evaluation, 100 playouts) wastes moves
    // with its first move; the endgame solver fills them perfectly.
    for text in [
        "x2xxx/1xW2x/x2xxx/1xxx2/xx1x2/xxxB2 w",
        "xx2xx/2xx2/xx1Wx1/1xxxxx/2xxBx/1x3x w",
        "x3xx/Wxx1xx/x1x1xx/xxxx2/1B1xxx/1x4 w",
    ] {
        let mut game = Game::new(text.parse().unwrap());
        let mut p = build(PlayerKind::Mcts, &config(10));
        while !game.position().is_game_over() {
            let side = game.position().side_to_move();
            let before = solver.moves_left(game.position(), side, Budget::UNLIMITED);
            let d = p.choose(&game, &playouts(100), &stop, &mut |_| {});
            game.play(d.mv.unwrap()).unwrap();
            let after = solver.moves_left(game.position(), side, Budget::UNLIMITED);
            assert_eq!(
                after.value().unwrap() + 1,
                before.value().unwrap(),
                "{text}: {}",
                game.position()
            );
        }
    }
}

#[test]
fn a_search_that_proves_its_root_reports_and_ends() {
    // Decided: White (to move) has 3 moves left, Black 2. An unbounded search (as for `analyze`)
    // proves the win, ends by itself and reports the winning move once.
    let stop = AtomicBool::new(false);
    let pos: Position = "B2x/xxxx/2xx/W1xW w".parse().unwrap();
    let mut p = build(PlayerKind::Mcts, &config(11));
    let limits = Limits {
        report_interval: Some(Duration::from_secs(3600)),
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let d = p.choose(&Game::new(pos), &limits, &stop, &mut |r| {
        reports.push(r.clone())
    });
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].moves[0].winrate, 1.0);
    assert_eq!(d.winrate, Some(1.0));
    assert_eq!(d.mv, Some(reports[0].moves[0].mv));
}

#[test]
fn a_lost_root_plays_the_move_that_resists_longest() {
    use otrera::mcts::{MctsPlayer, SearchParams};
    // White to move loses (not decided yet). The seeded search proves every move lost; its
    // most-visited move, b1-a1/b1, loses in 3 plies, while d2-c3/b3 holds out for 5.
    let pos: Position = oracle::LOST_ROOT.parse().unwrap();
    let length = oracle::resistance(&pos);
    let longest = *length.values().max().unwrap();
    let stop = AtomicBool::new(false);
    let mut p = MctsPlayer::new(1, 16 << 20, Some(1), SearchParams::default());
    let d = p.choose(
        &Game::new(pos.clone()),
        &playouts(3_000),
        &stop,
        &mut |_| {},
    );
    let tree = p.tree();
    assert!(tree.all_children_lost(tree.root()));
    assert_eq!(d.winrate, Some(0.0));
    let most_visited = tree.node(tree.best_child(tree.root()).unwrap()).mv();
    let chosen = d.mv.unwrap();
    assert!(
        length[&most_visited] < length[&chosen],
        "{most_visited} vs {chosen}"
    );
    assert_eq!(length[&chosen], longest, "{chosen}");
}

#[test]
fn memory_holds_the_tree_and_every_threads_endgame_oracle() {
    use otrera::mcts::exact::ORACLE_BYTES;
    use otrera::mcts::{MctsPlayer, SearchParams};
    let mib = 1 << 20;
    let tree_bytes = |threads| {
        let split = otrera::memory::split(64, threads, false);
        MctsPlayer::new(threads, split.tree_bytes, Some(1), SearchParams::default())
            .tree()
            .reserved_bytes()
    };
    for threads in [1, 2, 8] {
        let tree = tree_bytes(threads);
        assert!(
            tree + threads * ORACLE_BYTES <= 64 * mib,
            "{threads}: {tree}"
        );
        // Nothing else is taken (the tree's per-node cost is rounded up, which leaves about 3%).
        assert!(
            tree + threads * ORACLE_BYTES > 62 * mib,
            "{threads}: {tree}"
        );
    }
    // Seven more oracles take seven oracles from the tree (less its rounding).
    assert!(tree_bytes(1) - tree_bytes(8) > 7 * ORACLE_BYTES * 9 / 10);
    assert!((1_300_000..1_500_000).contains(&ORACLE_BYTES));
}

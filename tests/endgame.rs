//! The exact endgame checked against brute force over the rules core's own move generator.
//!
//! The solver has its own bitboard move generator; everything here that serves as the reference
//! (longest solo fill, two-player game values) is computed with `Position::legal_moves`,
//! `make` and `is_game_over` instead.

use otrera::cli::endgame_bench::random::{decided_position, random_shape, Shape};
use otrera::endgame::area::{greedy_fill, Area};
use otrera::endgame::{final_score, perfect_move, Budget, FillSolver, MovesLeft, Outcome, Score};
use otrera::regions::{is_decided, regions, RegionKind};
use otrera::{Bitboard, Color, Move, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// The same pieces with `side` to move (the rules core has no pass move).
fn with_side(pos: &Position, side: Color) -> Position {
    let mut p = Position::empty_rect(pos.width(), pos.height(), side);
    for rank in 0..pos.height() {
        for file in 0..pos.width() {
            let sq = Square::new(file, rank);
            if let Some(piece) = pos.piece_at(sq) {
                p.put(sq, piece);
            }
        }
    }
    p
}

/// The most moves `c` can make in a row in `pos` if the opponent never moves: full tree search,
/// memoized on the exact piece placement.
fn brute_solo(pos: &Position, c: Color, memo: &mut HashMap<(u128, u128), u32>) -> u32 {
    let key = (pos.amazons(c).0, pos.arrows().0);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let here = with_side(pos, c);
    let mut best = 0;
    for m in here.legal_moves() {
        let mut next = here.clone();
        next.make(m);
        best = best.max(1 + brute_solo(&next, c, memo));
    }
    memo.insert(key, best);
    best
}

/// A 10x10 position holding only the White area `a` (everything else burnt), White to move.
fn area_position(a: Area) -> Position {
    let mut p = Position::empty(10, Color::White);
    for sq in Bitboard::board(10) {
        let bit = 1u128 << sq.index();
        if a.amazons & bit != 0 {
            p.put(sq, Piece::Amazon(Color::White));
        } else if a.empty & bit == 0 {
            p.put(sq, Piece::Arrow);
        }
    }
    p
}

/// The value of `pos` by full two-player search, from the side to move's view: `m + 1` when it
/// wins with `m` moves to spare, `-(m + 1)` when it loses and the winner has `m` moves to spare;
/// the winner maximizes its spare moves, the loser minimizes them. A finished game is lost by the
/// side to move, and the winner's spare moves are its solo moves left.
fn brute_game(pos: &Position, memo: &mut HashMap<(u128, u128, u128, bool), i32>) -> i32 {
    let key = (
        pos.amazons(Color::White).0,
        pos.amazons(Color::Black).0,
        pos.arrows().0,
        pos.side_to_move() == Color::White,
    );
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = if pos.is_game_over() {
        -(brute_solo(pos, !pos.side_to_move(), &mut HashMap::new()) as i32 + 1)
    } else {
        let mut best = i32::MIN;
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.make(m);
            best = best.max(-brute_game(&next, memo));
        }
        best
    };
    memo.insert(key, v);
    v
}

/// A score in [`brute_game`]'s encoding.
fn encode(score: &Score) -> i32 {
    let m = score.margin().unwrap().value().unwrap() as i32;
    if score.winner() == Some(score.side_to_move) {
        m + 1
    } else {
        -(m + 1)
    }
}

fn solve(solver: &mut FillSolver, pos: &Position, c: Color) -> u32 {
    let v = solver.moves_left(pos, c, Budget::UNLIMITED);
    assert!(v.is_exact());
    v.lo
}

/// A sparse random region: each square of a random box of up to 5x5 is free with probability
/// 0.6; `amazons` of the free squares get amazons, and what they cannot reach is dropped. Such
/// regions hang together by diagonal steps and thin necks, so many are defective.
fn sparse_area(rng: &mut StdRng, amazons: u32) -> Area {
    loop {
        let (w, h) = (rng.gen_range(2..=5), rng.gen_range(2..=5));
        let (f0, r0) = (rng.gen_range(0..=10 - w), rng.gen_range(0..=10 - h));
        let mut free = Bitboard::EMPTY;
        for r in r0..r0 + h {
            for f in f0..f0 + w {
                if rng.gen_bool(0.6) {
                    free |= Bitboard::from_square(Square::new(f, r));
                }
            }
        }
        if free.count() <= amazons {
            continue;
        }
        let mut queens = Bitboard::EMPTY;
        for _ in 0..amazons {
            let rest = Bitboard(free.0 & !queens.0);
            queens |= Bitboard::from_square(rest.nth(rng.gen_range(0..rest.count())).unwrap());
        }
        let area = Area::new(queens, Bitboard(free.0 & !queens.0)).reachable();
        if (2..=10).contains(&area.squares()) {
            return area;
        }
    }
}

#[test]
fn solver_matches_brute_force_on_random_regions() {
    // Thousands of small regions; brute force checks every one the solver finds defective or
    // where the greedy fill falls short (the interesting cases), and every tenth of the others.
    let mut rng = StdRng::seed_from_u64(20);
    let mut solver = FillSolver::with_table_bits(12);
    let (mut checked, mut defective, mut greedy_short) = (0, 0, 0);
    for i in 0..3000 {
        let squares = rng.gen_range(2..=9);
        let amazons = if i % 4 == 3 { 2 } else { 1 };
        let area = match i % 3 {
            0 => random_shape(&mut rng, Shape::Blob, squares, amazons),
            1 => random_shape(&mut rng, Shape::Holey, squares, amazons),
            _ => sparse_area(&mut rng, amazons),
        };
        if i % 2 == 0 {
            solver.clear();
        }
        let pos = area_position(area);
        let got = solve(&mut solver, &pos, Color::White);
        let greedy = greedy_fill(area);
        assert!(greedy <= got);
        let interesting = got < area.squares() || greedy < got;
        if interesting || i % 10 == 0 {
            let want = brute_solo(&pos, Color::White, &mut HashMap::new());
            assert_eq!(got, want, "{pos}\n{}", pos.diagram());
            checked += 1;
            defective += (want < area.squares()) as u32;
            greedy_short += (greedy < want) as u32;
        }
    }
    // The sample must exercise what it claims to test.
    assert!(checked >= 300, "only {checked} regions checked");
    assert!(defective >= 40, "only {defective} defective regions");
    assert!(
        greedy_short >= 10,
        "only {greedy_short} regions where the greedy fill falls short"
    );
}

#[test]
fn defective_corner() {
    // White b2 with only a1 and c1 free: two squares but one move (after b2-a1 the arrow can
    // only go back to b2, and c1 is cut off; likewise the other way).
    let p: Position = "xxx/xWx/1x1 w".parse().unwrap();
    let mut solver = FillSolver::new();
    assert_eq!(solve(&mut solver, &p, Color::White), 1);
    assert_eq!(brute_solo(&p, Color::White, &mut HashMap::new()), 1);
    // The same shape in a corner of the 10x10 board, next to a Black 3x3 room: decided.
    let p: Position = "xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/\
                       xxxxxxx3/xxxxxxxB2/xWxxxxx3/1x1xxxxxxx w"
        .parse()
        .unwrap();
    assert!(is_decided(&p));
    assert_eq!(regions(&p).len(), 2);
    let outcome = solver.outcome(&p, Budget::UNLIMITED);
    let score = outcome.score().unwrap();
    assert_eq!(score.to_move, MovesLeft::exact(1));
    assert_eq!(score.other, MovesLeft::exact(8));
    assert_eq!(brute_solo(&p, Color::Black, &mut HashMap::new()), 8);
    // White (to move) has 1, Black 8: Black wins, with 8 - 1 = 7 moves left when White is stuck.
    assert_eq!(outcome.winner(), Some(Color::Black));
    assert_eq!(outcome.to_string(), "B+7");
}

#[test]
fn greedy_fill_loses_a_move() {
    //   4 x x x W
    //   3 x x . x
    //   2 . . x x
    //   1 x x . x
    // b2 is a hub with two dead ends, a2 and c1 (each reachable only from b2). Walking in and
    // burning behind (d4-c3/d4, c3-b2/c3, b2-a2/b2) gets 3 moves; the best fill first jumps to b2
    // to burn a dead end, steps back out and comes in again: d4-b2/a2, b2-c3/d4, c3-b2/c3,
    // b2-c1/b2, all four squares.
    let p: Position = "xxxW/xx1x/2xx/xx1x w".parse().unwrap();
    let area = Area::new(p.amazons(Color::White), p.empty_squares());
    let mut solver = FillSolver::new();
    assert_eq!(solve(&mut solver, &p, Color::White), 4);
    assert_eq!(brute_solo(&p, Color::White, &mut HashMap::new()), 4);
    assert!(
        greedy_fill(area) < 4,
        "the greedy fill is expected to fall short here"
    );
    let mut walk = p.clone();
    for (i, text) in ["d4-c3/d4", "c3-b2/c3", "b2-a2/b2"].iter().enumerate() {
        walk = with_side(&walk, Color::White);
        walk.play(Move::parse(text, 4).unwrap()).unwrap();
        assert_eq!(i == 2, with_side(&walk, Color::White).is_game_over());
    }
    let mut best = p.clone();
    for text in ["d4-b2/a2", "b2-c3/d4", "c3-b2/c3", "b2-c1/b2"] {
        best = with_side(&best, Color::White);
        best.play(Move::parse(text, 4).unwrap()).unwrap();
    }
    assert_eq!(best.empty_squares().count(), 0);
}

#[test]
fn two_amazons_share_a_region() {
    //   3 x . . . x
    //   2 . . . x x
    //   1 W . W . x     (5x5, ranks 4 and 5 burnt)
    let p: Position = "xxxxx/xxxxx/x3x/3xx/W1W1x w".parse().unwrap();
    let r = regions(&p);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].white.count(), 2);
    assert_eq!(r[0].empty.count(), 8);
    let mut solver = FillSolver::new();
    let both = solve(&mut solver, &p, Color::White);
    assert_eq!(both, brute_solo(&p, Color::White, &mut HashMap::new()));
    assert_eq!(both, 8);
    // Random shared regions: the amazons count together, not as the sum of their solo values.
    let mut rng = StdRng::seed_from_u64(8);
    let mut differs = 0;
    for _ in 0..60 {
        let n = rng.gen_range(4..=8);
        let area = random_shape(&mut rng, Shape::Holey, n, 2);
        let pos = area_position(area);
        let got = solve(&mut solver, &pos, Color::White);
        assert_eq!(got, brute_solo(&pos, Color::White, &mut HashMap::new()));
        let alone: u32 = Bitboard(area.amazons)
            .iter()
            .map(|sq| {
                let one = Area::new(Bitboard::from_square(sq), Bitboard(area.empty));
                solver.area_moves_left(one, Budget::UNLIMITED).lo
            })
            .sum();
        differs += (alone != got) as u32;
    }
    assert!(differs > 0);
}

#[test]
fn a_move_splits_a_region() {
    //   3 . . x . .
    //   2 W . . . B      one mixed region: the rooms meet at c2
    //   1 . . x . .
    let p: Position = "xxxxx/xxxxx/2x2/W3B/2x2 w".parse().unwrap();
    assert_eq!(regions(&p).len(), 1);
    assert!(!is_decided(&p));
    assert_eq!(final_score(&p), Outcome::NotDecided);
    assert_eq!(final_score(&p).to_string(), "not decided");
    // a2-b3/c2 closes the door: a White room and a Black room.
    let mut q = p.clone();
    q.play(Move::parse("a2-b3/c2", 5).unwrap()).unwrap();
    let kinds: Vec<(RegionKind, u32)> = regions(&q)
        .iter()
        .map(|r| (r.kind(), r.empty.count()))
        .collect();
    assert_eq!(kinds, [(RegionKind::White, 5), (RegionKind::Black, 5)]);
    assert!(is_decided(&q));
    let mut solver = FillSolver::new();
    let score = solver.outcome(&q, Budget::UNLIMITED).score().unwrap();
    assert_eq!(score.moves_left(Color::White), MovesLeft::exact(5));
    assert_eq!(score.moves_left(Color::Black), MovesLeft::exact(5));
    // Black to move with 5 against 5 runs out first: White wins with 0 to spare.
    assert_eq!(score.winner(), Some(Color::White));
    assert_eq!(score.to_string(), "W+0");
    assert_eq!(encode(&score), brute_game(&q, &mut HashMap::new()));
    // One White amazon splitting its own region: the parts add up.
    let p: Position = "xxxxx/xxxxx/2x2/W3W/2x2 w".parse().unwrap();
    let whole = solve(&mut solver, &p, Color::White);
    assert_eq!(whole, brute_solo(&p, Color::White, &mut HashMap::new()));
    let mut q = p.clone();
    q.make(Move::parse("a2-b3/c2", 5).unwrap());
    assert_eq!(regions(&q).len(), 2);
    assert_eq!(solve(&mut solver, &q, Color::White), whole - 1);
}

#[test]
fn decided_positions_match_the_game_tree() {
    // Small decided positions on 6x6 and 8x8 boards: winner and margin against full two-player
    // search over the real rules.
    let mut rng = StdRng::seed_from_u64(31);
    let mut solver = FillSolver::new();
    let mut winners = [0; 2];
    for i in 0..40 {
        let size = if i % 2 == 0 { 6 } else { 8 };
        let side = if i % 4 < 2 {
            Color::White
        } else {
            Color::Black
        };
        let w = rng.gen_range(2..=6);
        let b = rng.gen_range(2..=6);
        let pos = decided_position(&mut rng, size, w, b, 1 + (i % 3 == 0) as u32, side);
        let outcome = solver.outcome(&pos, Budget::UNLIMITED);
        let score = outcome.score().expect("decided");
        assert!(score.is_exact());
        let want = brute_game(&pos, &mut HashMap::new());
        assert_eq!(encode(&score), want, "{pos}\n{}", pos.diagram());
        winners[score.winner().unwrap().index()] += 1;
    }
    assert!(winners[0] > 0 && winners[1] > 0);
}

#[test]
fn perfect_fill_ends_as_predicted() {
    // Decided positions with larger regions, played out by the perfect-fill chooser for both
    // sides: the score never changes, and the game ends exactly as it said.
    let mut rng = StdRng::seed_from_u64(9);
    let mut solver = FillSolver::new();
    for i in 0..12 {
        let size = [6, 8, 10][i % 3];
        let cells = [10, 16, 22][i % 3];
        let side = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let w = cells - rng.gen_range(0..4);
        let b = cells - rng.gen_range(0..4);
        let mut pos = decided_position(&mut rng, size, w, b, 1 + (i % 4 == 0) as u32, side);
        let start = solver.outcome(&pos, Budget::UNLIMITED);
        let score = start.score().unwrap();
        assert!(score.is_exact());
        let winner = score.winner().unwrap();
        let margin = score.margin().unwrap().lo;
        let mut left = [Color::White, Color::Black].map(|c| score.moves_left(c).lo);
        let mut plies = 0;
        while let Some(m) = solver.perfect_move(&pos, Budget::UNLIMITED) {
            let mover = pos.side_to_move();
            pos.play(m).expect("perfect moves are legal");
            plies += 1;
            left[mover.index()] -= 1;
            let now = solver.outcome(&pos, Budget::UNLIMITED).score().unwrap();
            assert_eq!(now.moves_left(Color::White), MovesLeft::exact(left[0]));
            assert_eq!(now.moves_left(Color::Black), MovesLeft::exact(left[1]));
            assert_eq!(now.to_string(), start.to_string());
        }
        assert!(pos.is_game_over());
        assert_eq!(!pos.side_to_move(), winner);
        let end = final_score(&pos).score().unwrap();
        assert_eq!(end.winner(), Some(winner));
        assert_eq!(end.margin().unwrap().value(), Some(margin));
        assert_eq!(final_score(&pos).to_string(), start.to_string());
        // Total plies: the loser used all its moves, the winner all but `margin`.
        let (a, b) = (score.to_move.lo, score.other.lo);
        assert_eq!(plies, a + b - margin);
    }
}

#[test]
fn finished_games_are_scored() {
    // White a1 is walled in next to Black b2 (one mixed region), and White is to move: the game
    // is over and Black wins with its two moves (c2 and c3) to spare.
    let p: Position = "xx1/xB1/Wxx w".parse().unwrap();
    assert!(p.is_game_over());
    assert!(!is_decided(&p));
    let outcome = final_score(&p);
    assert_eq!(outcome.winner(), Some(Color::Black));
    assert_eq!(outcome.to_string(), "B+2");
    assert_eq!(perfect_move(&p), None);
    // A position with no amazons to move for either side: the side to move loses by 0.
    let p: Position = "xx/xx b".parse().unwrap();
    assert_eq!(final_score(&p).to_string(), "W+0");
}

#[test]
fn the_start_is_not_decided() {
    for size in [6, 8, 10] {
        let p = Position::start(size).unwrap();
        assert!(!is_decided(&p));
        assert_eq!(final_score(&p), Outcome::NotDecided);
        assert_eq!(perfect_move(&p), None);
    }
}

#[test]
fn budget_gives_proven_bounds() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut solver = FillSolver::new();
    let mut bounded = 0;
    for _ in 0..30 {
        let area = random_shape(&mut rng, Shape::Holey, 22, 1);
        solver.clear();
        let quick = solver.area_moves_left(area, Budget::nodes(0));
        assert!(solver.last_nodes() <= 1);
        solver.clear();
        let exact = solver.area_moves_left(area, Budget::UNLIMITED);
        assert!(exact.is_exact());
        assert!(
            quick.lo <= exact.lo && exact.lo <= quick.hi,
            "{quick} vs {exact}"
        );
        assert_eq!(quick.lo, greedy_fill(area));
        bounded += !quick.is_exact() as u32;
    }
    assert!(bounded > 0);
    // A deadline in the past stops the search as well.
    let area = random_shape(&mut rng, Shape::Holey, 40, 2);
    let past = std::time::Instant::now();
    let b = solver.area_moves_left(area, Budget::UNLIMITED.until(past));
    assert!(b.lo <= b.hi && b.hi <= 40);
}

#[test]
fn region_report() {
    //   4 . x B .
    //   3 x x x x
    //   2 W x . .       a White room of one square, a Black room of three, a dead
    //   1 . x . B       square (a4), and a Black amazon with one square (d4)
    let p: Position = "1xB1/xxxx/Wx2/1x1B w".parse().unwrap();
    let report = FillSolver::new().report(&p, Budget::default());
    let rows: Vec<(RegionKind, u32, Option<MovesLeft>)> = report
        .iter()
        .map(|r| (r.kind, r.region.empty.count(), r.moves_left))
        .collect();
    assert_eq!(
        rows,
        [
            (RegionKind::White, 1, Some(MovesLeft::exact(1))),
            (RegionKind::Black, 3, Some(MovesLeft::exact(3))),
            (RegionKind::Dead, 1, Some(MovesLeft::exact(0))),
            (RegionKind::Black, 1, Some(MovesLeft::exact(1))),
        ]
    );
    let mixed = FillSolver::new().report(&Position::standard(), Budget::default());
    assert_eq!(mixed.len(), 1);
    assert_eq!(mixed[0].kind, RegionKind::Mixed);
    assert_eq!(mixed[0].moves_left, None);
}

#[test]
fn endgame_bench_runs_from_the_binary() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args([
            "endgame-bench",
            "--samples",
            "4",
            "--seed",
            "3",
            "--sizes",
            "10,15",
        ])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .filter(|f: &Vec<&str>| f.first().is_some_and(|w| ["10", "15"].contains(w)))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        // squares, regions, median, p90, max, nodes, exact, over budget, defective, greedy short
        assert_eq!(row.len(), 10, "{row:?}");
        assert_eq!(row[1], "4");
        assert_eq!(
            row[6].parse::<u32>().unwrap() + row[7].parse::<u32>().unwrap(),
            4
        );
    }
    assert!(text.contains("is_decided"), "{text}");
}

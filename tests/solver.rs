//! The proof-number solver against plain exhaustive search on random small positions.

use otrera::solver::guide::{Guide, Outcome};
use otrera::solver::{MoveStatus, ProofLimits, ProofSolver, SolveReport, Verdict};
use otrera::Move;
use otrera::{Bitboard, Color, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicBool;

/// Memo keys are the position's full contents, hashed by a plain multiply-xor.
type Key = (u128, u128, u128, bool);

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(w)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            self.0 ^= self.0 >> 29;
        }
    }
}

type Memo = HashMap<Key, bool, BuildHasherDefault<KeyHasher>>;

/// Whether the side to move wins: full minimax over every legal move, memoized by position.
/// `None` when more than `budget` positions would be needed.
fn wins(p: &mut Position, memo: &mut Memo, budget: &mut u64) -> Option<bool> {
    let key = (
        p.amazons(Color::White).0,
        p.amazons(Color::Black).0,
        p.arrows().0,
        p.side_to_move() == Color::White,
    );
    if let Some(&v) = memo.get(&key) {
        return Some(v);
    }
    *budget = budget.checked_sub(1)?;
    let mut result = false;
    for m in p.legal_moves() {
        p.make(m);
        let opponent_wins = wins(p, memo, budget);
        p.unmake(m);
        if !opponent_wins? {
            result = true;
            break;
        }
    }
    memo.insert(key, result);
    Some(result)
}

/// Positions the exhaustive search may visit for one test position; harder ones are replaced.
const ORACLE_BUDGET: u64 = 8_000;

/// A random position: `w` x `h`, `n` amazons a side, at most `max_empty` empty squares.
fn random_position(rng: &mut StdRng, max_empty: u32) -> Position {
    loop {
        let (w, h) = (rng.gen_range(3..=6), rng.gen_range(3..=6));
        let n = rng.gen_range(1..=4);
        if 2 * n + 1 > w * h {
            continue;
        }
        let mut squares: Vec<Square> = (0..h)
            .flat_map(|r| (0..w).map(move |f| Square::new(f, r)))
            .collect();
        squares.shuffle(rng);
        let room = (w * h - 2 * n) as u32;
        // The larger of two draws: more positions near the upper limit, where search is deep.
        let top = room.min(max_empty);
        let empty = rng.gen_range(1..=top).max(rng.gen_range(1..=top));
        let side = if rng.gen_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        let mut p = Position::empty_rect(w, h, side);
        let mut it = squares.into_iter();
        for c in [Color::White, Color::Black] {
            for _ in 0..n {
                p.put(it.next().unwrap(), Piece::Amazon(c));
            }
        }
        for sq in it.skip(empty as usize) {
            p.put(sq, Piece::Arrow);
        }
        return p;
    }
}

/// A random position split by a wall of arrows on one file: on its left one or two amazons of one
/// side alone (a territory, sometimes defective), on its right a random fight. These are the
/// positions whose keys leave out the territory's shape and whose search tries one fill move.
fn walled_position(rng: &mut StdRng, max_empty: u32) -> Position {
    loop {
        let p = random_position(rng, max_empty);
        let (w, h) = (p.width(), p.height());
        if w < 4 {
            continue;
        }
        let wall = rng.gen_range(1..w - 2);
        let mut q = Position::empty_rect(w, h, p.side_to_move());
        let owner = if rng.gen_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        let mut left: Vec<Square> = (0..h)
            .flat_map(|r| (0..wall).map(move |f| Square::new(f, r)))
            .collect();
        left.shuffle(rng);
        let amazons = rng.gen_range(1..=2.min(left.len() - 1));
        let arrows = rng.gen_range(0..=left.len() - amazons);
        for (i, sq) in left.into_iter().enumerate() {
            if i < amazons {
                q.put(sq, Piece::Amazon(owner));
            } else if i < amazons + arrows {
                q.put(sq, Piece::Arrow);
            }
        }
        for r in 0..h {
            q.put(Square::new(wall, r), Piece::Arrow);
            for f in wall + 1..w {
                let sq = Square::new(f, r);
                if let Some(piece) = p.piece_at(sq) {
                    q.put(sq, piece);
                }
            }
        }
        let right = Bitboard::rect(w, h) & !Bitboard::rect(wall + 1, h);
        let has = |c| !(q.amazons(c) & right).is_empty();
        if q.empty_squares().count() <= max_empty && has(Color::White) && has(Color::Black) {
            return q;
        }
    }
}

/// Positions with a territory beside the fight, where the search abstracts the territory.
#[test]
fn territories_agree_with_exhaustive_search() {
    let (wins_seen, losses_seen, _, _) = check_agreement_of(walled_position, 1, 600, 31, false);
    assert!(
        wins_seen > 100 && losses_seen > 100,
        "{wins_seen} {losses_seen}"
    );
}

#[test]
fn solver_agrees_with_exhaustive_search() {
    let (wins_seen, losses_seen, skipped, by_empty) = check_agreement(1, 2000, 2026);
    // Both outcomes and every size of position must be well represented for the comparison to
    // mean something; few positions may be too hard for the exhaustive search.
    assert!(
        wins_seen > 400 && losses_seen > 400,
        "{wins_seen} {losses_seen}"
    );
    assert!(by_empty[10..].iter().all(|&n| n >= 15), "{by_empty:?}");
    assert!(skipped < 2000, "{skipped} positions skipped");
}

/// Several threads share one table and stop each other: the verdicts must not change.
#[test]
fn threaded_solver_agrees_with_exhaustive_search() {
    let (wins_seen, losses_seen, _, _) = check_agreement(3, 300, 77);
    assert!(
        wins_seen > 60 && losses_seen > 60,
        "{wins_seen} {losses_seen}"
    );
}

/// [`check_agreement_of`] on random positions on one thread, `guided` or not, and more than
/// `least` of both verdicts.
fn agreement(count: u32, seed: u64, guided: bool, least: u32) {
    let (wins_seen, losses_seen, _, _) =
        check_agreement_of(random_position, 1, count, seed, guided);
    assert!(
        wins_seen > least && losses_seen > least,
        "{wins_seen} {losses_seen}"
    );
}

/// Solves `count` random positions with `threads` threads and checks each verdict (and each
/// winning move) against the exhaustive search. Returns wins, losses, skipped positions and the
/// count by empty squares.
fn check_agreement(threads: usize, count: u32, seed: u64) -> (u32, u32, u32, [u32; 15]) {
    check_agreement_of(random_position, threads, count, seed, false)
}

/// The guided root (`solve --guide`) must prove what the plain solve proves: candidates drawn at
/// random (winning, losing, an illegal one and a repeat), with random weights and first budgets
/// from one node (every round stops at the first limit check) to more than most positions need.
#[test]
fn guided_solver_agrees_with_exhaustive_search() {
    agreement(400, 515, true, 80);
}

/// A random guide for `p`: up to four of its legal moves, a repeat of the first and a move from
/// an empty square (illegal), with random weights, and a first budget of 1 to 16,384 nodes.
fn random_guide(rng: &mut StdRng, p: &Position) -> Guide {
    let mut moves = p.legal_moves();
    moves.shuffle(rng);
    moves.truncate(rng.gen_range(0..=4));
    if let Some(&m) = moves.first() {
        moves.push(m);
    }
    if let Some(empty) = p.empty_squares().iter().next() {
        moves.insert(
            rng.gen_range(0..=moves.len()),
            Move::new(empty, empty, empty),
        );
    }
    Guide {
        candidates: moves
            .into_iter()
            .map(|m| (m, rng.gen_range(-0.5..2.0)))
            .collect(),
        first_budget: [1, 1024, 16_384][rng.gen_range(0..3)],
    }
}

/// [`check_agreement`] on positions drawn by `draw`.
fn check_agreement_of(
    draw: fn(&mut StdRng, u32) -> Position,
    threads: usize,
    count: u32,
    seed: u64,
    guided: bool,
) -> (u32, u32, u32, [u32; 15]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut solver = ProofSolver::with_threads(16, threads);
    let never = AtomicBool::new(false);
    let mut memo = Memo::default();
    let (mut wins_seen, mut losses_seen, mut skipped) = (0, 0, 0);
    let mut by_empty = [0u32; 15];
    let mut checked = 0;
    let mut solver_time = std::time::Duration::ZERO;
    // Guided tries by outcome: wins, losses, open.
    let mut outcomes = [0u32; 3];
    while checked < count {
        let p = draw(&mut rng, 14);
        memo.clear();
        let Some(want) = wins(&mut p.clone(), &mut memo, &mut ORACLE_BUDGET.clone()) else {
            skipped += 1;
            continue;
        };
        checked += 1;
        by_empty[p.empty_squares().count() as usize] += 1;
        if checked % 100 == 0 {
            // Results stay valid across positions; clearing now and then also tests fresh tables.
            solver.clear();
        }
        let t0 = std::time::Instant::now();
        let report: SolveReport = if guided {
            let guide = random_guide(&mut rng, &p);
            let mut attempts = Vec::new();
            let report = solver.solve_guided(
                &p,
                &guide,
                &ProofLimits::default(),
                &never,
                &mut |_| {},
                &mut |a| attempts.push(*a),
            );
            // Only legal candidates are tried, and a win found by one is the verdict's move
            // unless the last pass over the root proved another.
            for a in &attempts {
                assert!(p.check_move(a.mv).is_ok(), "{p}: tried illegal {}", a.mv);
                outcomes[a.outcome as usize] += 1;
            }
            if let Some(a) = attempts.iter().find(|a| a.outcome == Outcome::Wins) {
                assert!(
                    matches!(report.verdict, Verdict::Win(_)),
                    "{p}: {} wins",
                    a.mv
                );
            }
            report
        } else {
            solver.solve(&p, &ProofLimits::default(), &never, &mut |_| {})
        };
        solver_time += t0.elapsed();
        if report.verdict != Verdict::Unknown {
            // The proof the table holds checks out, position by position.
            let won = report.verdict != Verdict::Loss;
            let check = solver.check_proof(&p, won, &never);
            assert!(check.verified, "{p}: proof does not check: {check:?}");
        }
        match report.verdict {
            Verdict::Win(m) => {
                assert!(want, "solver says win, exhaustive search says loss: {p}");
                let mut q = p.clone();
                q.play(m).unwrap_or_else(|e| panic!("{p}: {m}: {e}"));
                let reply = wins(&mut q, &mut memo, &mut u64::MAX.clone());
                assert_eq!(reply, Some(false), "{p}: {m} does not win");
                wins_seen += 1;
            }
            Verdict::Loss => {
                assert!(!want, "solver says loss, exhaustive search says win: {p}");
                losses_seen += 1;
            }
            Verdict::Unknown => panic!("no limit was set but {p} is unknown"),
        }
    }
    eprintln!("positions by empty squares {by_empty:?}, {skipped} skipped, solver {solver_time:?}");
    if guided {
        // The test must see candidates proven, refuted and left open by their budget (few are:
        // a try runs to the first limit check, 1,024 nodes, and most of these positions take
        // fewer).
        let [won, lost, open] = outcomes;
        assert!(
            won >= 20 && lost >= 20 && open >= 3,
            "tries won/lost/open {outcomes:?}"
        );
    }
    (wins_seen, losses_seen, skipped, by_empty)
}

#[test]
fn a_budget_gives_unknown_and_ctrl_c_stops() {
    let p = Position::named_start(5, 5).unwrap();
    let mut solver = ProofSolver::new(8);
    let never = AtomicBool::new(false);
    let limits = ProofLimits {
        nodes: 2000,
        ..ProofLimits::default()
    };
    let report = solver.solve(&p, &limits, &never, &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(report.stopped);
    assert!(report
        .moves
        .iter()
        .any(|(_, s)| matches!(s, MoveStatus::Open { .. })));
    let stop = AtomicBool::new(true);
    let report = solver.solve(&p, &ProofLimits::default(), &stop, &mut |_| {});
    assert_eq!(report.verdict, Verdict::Unknown);
}

#[test]
fn finished_and_one_move_positions() {
    let mut solver = ProofSolver::new(8);
    let never = AtomicBool::new(false);
    let mut solve = |t: &str| {
        let p: Position = t.parse().unwrap();
        solver
            .solve(&p, &ProofLimits::default(), &never, &mut |_| {})
            .verdict
    };
    assert_eq!(solve("xxx/xWx/xxx w"), Verdict::Loss);
    // White's only move a1-b1/a1 leaves Black on c2 stuck.
    assert_eq!(solve("xxB/xxx/W1x w").to_string(), "win a1-b1/a1");
}

/// Whether the side to move wins, by plain minimax with a fixed-size cache of results keyed by
/// the Zobrist hash (a result is the hash with its low bit replaced; a lost entry is recomputed),
/// for checks too large for the full-key memo of [`wins`].
fn wins_cached(p: &mut Position, cache: &mut [u64]) -> bool {
    let tag = p.hash() & !1;
    let slot = (p.hash() >> 1) as usize & (cache.len() - 1);
    if cache[slot] & !1 == tag && tag != 0 {
        return cache[slot] & 1 == 1;
    }
    let mut result = false;
    for m in p.legal_moves() {
        p.make(m);
        let opponent_wins = wins_cached(p, cache);
        p.unmake(m);
        if !opponent_wins {
            result = true;
            break;
        }
    }
    cache[slot] = tag | result as u64;
    result
}

/// Settles a small start by exhaustive search, which uses no solver code, and checks the
/// proof-number solver's verdict (and its winning move, if it names one) against it:
/// `SOLVE_EXHAUSTIVE=4x5 cargo test --release --test solver -- --ignored --nocapture` (a 2 GiB
/// cache; long on 4x5). Prints the result and the exhaustive search's time.
#[test]
#[ignore]
fn named_start_by_exhaustive_search() {
    let dims = std::env::var("SOLVE_EXHAUSTIVE").unwrap_or_else(|_| "4x4".into());
    let (w, h) = otrera::position::parse_dims(&dims).expect("WxH");
    let p = Position::named_start(w, h).expect("a named start");
    let started = std::time::Instant::now();
    let mut cache = vec![0u64; 1 << 28];
    let first = wins_cached(&mut p.clone(), &mut cache);
    eprintln!(
        "{dims} {p}: side to move {} ({:.1}s)",
        if first { "wins" } else { "loses" },
        started.elapsed().as_secs_f64()
    );
    let never = AtomicBool::new(false);
    let report = ProofSolver::new(1024).solve(&p, &ProofLimits::default(), &never, &mut |_| {});
    eprintln!("solver: {}", report.verdict);
    match report.verdict {
        Verdict::Win(m) => {
            assert!(
                first,
                "the solver proves a win the exhaustive search refutes"
            );
            let mut after = p.clone();
            after.make(m);
            assert!(
                !wins_cached(&mut after, &mut cache),
                "the solver's winning move {m} loses"
            );
        }
        Verdict::Loss => assert!(
            !first,
            "the solver proves a loss the exhaustive search wins"
        ),
        Verdict::Unknown => panic!("the solver did not settle {dims}"),
    }
}

#[path = "cli_support/mod.rs"]
mod cli_support;

/// The table starts at 16 MiB and takes its whole `--hash` only when three quarters full: a
/// small proof reports a small table, a larger one grows it, solves again with the whole table
/// and still checks.
#[test]
fn solve_table_grows_as_the_proof_needs() {
    use cli_support::{otrera, text};
    let memory = |stdout: &str| -> f64 {
        let summary = stdout.lines().find(|l| l.starts_with("summary: ")).unwrap();
        let tail = summary.rsplit("table memory ").next().unwrap();
        tail.trim_end_matches(" MiB").parse().unwrap()
    };
    let out = otrera(&["solve", "--position", "4/W2B/W1B1/4 w"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("table 1024 MiB (from 16 MiB, grown when three quarters full)"));
    assert!(!stdout.contains("table grown"), "{stdout}");
    assert!(memory(&stdout) <= 16.0, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: loss"));
    let out = otrera(&["solve", "--board", "4x5", "--hash", "64", "--verify"]);
    let grown = text(&out.stdout);
    assert!(
        grown.contains("\ntable grown: 16 MiB three quarters full after "),
        "{grown}"
    );
    assert!(grown.contains("\nproof: verified, "), "{grown}");
    assert!(memory(&grown) > 16.0, "{grown}");
    assert_eq!(grown.lines().last(), Some("result: loss"));
}

/// `otrera solve` from the command line: the summary, the last line, threads and bad input.
#[test]
fn solve_command_line() {
    use cli_support::{otrera, text};
    let out = otrera(&[
        "solve",
        "--board",
        "4x4",
        "--threads",
        "2",
        "--hash",
        "8",
        "--verify",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("table 8 MiB, 2 threads"), "{stdout}");
    assert!(stdout.contains("\nproof: verified, "), "{stdout}");
    assert!(stdout.contains("summary: loss in "), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: loss"), "{stdout}");
    // White's only move a1-b1/a1 leaves Black on c2 stuck.
    // The header gives the table's real size: `--hash 0` gets the least, 1 MiB.
    let out = otrera(&["solve", "--position", "xxB/xxx/W1x w", "--hash", "0"]);
    assert!(text(&out.stdout).contains("table 1 MiB, 1 thread"));
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("result: win a1-b1/a1")
    );
    // The removed `--disproof` switch is refused, not ignored.
    let out = otrera(&["solve", "--board", "4x4", "--disproof", "sum"]);
    assert_eq!(out.status.code(), Some(2));
    let out = otrera(&["solve", "--board", "5x5", "--nodes", "3000", "--hash", "8"]);
    assert_eq!(text(&out.stdout).lines().last(), Some("result: unknown"));
    // Progress lines count the first moves (up to symmetry) settled so far; 6x4 is lost, so none
    // is ever won, and it takes far longer than a second.
    let out = otrera(&[
        "solve",
        "--board",
        "6x4",
        "--time",
        "1",
        "--progress",
        "0.1",
        "--hash",
        "8",
    ]);
    let stdout = text(&out.stdout);
    let progress: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(!progress.is_empty(), "{stdout}");
    for line in progress {
        assert!(line.contains(" first moves won 0 lost "), "{line}");
        assert!(line.ends_with(" of 128"), "{line}");
    }
    let out = otrera(&["solve", "--board", "5by5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("bad --board '5by5'"));
}

/// `otrera solve --guide`: the tree search's ranking, the tries of its candidates, a proof
/// that checks, and bad input.
#[test]
fn solve_guided_command_line() {
    use cli_support::{otrera, text};
    // 5x4 is won; the tree search's favourite, d1-d2/b2, is the mirror image of b1-b2/d2, which
    // the plain solve proves, and it wins in the first round.
    let out = otrera(&[
        "solve", "--board", "5x4", "--guide", "20000", "--hash", "8", "--verify",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let guide = stdout
        .lines()
        .find(|l| l.starts_with("guide: tree search, 20000 playouts in "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(guide.contains(": d1-d2/b2 ("), "{guide}");
    assert_eq!(guide.matches(" visits)").count(), 4, "{guide}");
    assert!(
        stdout.contains("\nguide: round 1, d1-d2/b2 (budget "),
        "{stdout}"
    );
    assert!(stdout.contains("): wins after "), "{stdout}");
    assert!(stdout.contains("\nproof: verified, "), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: win d1-d2/b2"));
    // 4x4 is lost: every candidate is refuted, and the root's pass proves the rest.
    let out = otrera(&[
        "solve",
        "--board",
        "4x4",
        "--guide",
        "5000",
        "--guide-moves",
        "2",
        "--hash",
        "8",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("): loses after ").count(), 2, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: loss"), "{stdout}");
    // A budget too small for 5x5 leaves it unknown.
    let out = otrera(&[
        "solve", "--board", "5x5", "--guide", "1000", "--nodes", "5000", "--hash", "8",
    ]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("): open after "), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: unknown"), "{stdout}");
    // Progress lines come at the solve's pace, though every try starts a clock of its own.
    let out = otrera(&[
        "solve",
        "--board",
        "5x5",
        "--guide",
        "1000",
        "--time",
        "1.5",
        "--progress",
        "0.2",
        "--hash",
        "8",
    ]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\nprogress: nodes "), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("result: unknown"), "{stdout}");
    let out = otrera(&["solve", "--board", "4x4", "--guide", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("bad --guide 0"));
}

/// A wider check than the default tests, for changes to the bounds (48,000 positions, about a
/// minute): `cargo test --release --test solver -- --ignored wider`.
#[test]
#[ignore]
fn wider_agreement_with_exhaustive_search() {
    for seed in 100..106u64 {
        let (wins, losses, _, _) = check_agreement(1, 4000, seed);
        assert!(wins > 800 && losses > 800, "{wins} {losses}");
        agreement(2000, seed + 1000, true, 400);
        let (wins, losses, _, _) = check_agreement_of(walled_position, 1, 2000, seed + 3000, false);
        assert!(wins > 200 && losses > 200, "{wins} {losses}");
    }
}

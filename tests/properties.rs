//! Property tests of the rules core over positions from seeded random games on 6x6, 8x8 and 10x10
//! and on rectangles (5x6, 7x4, 4x9, 10x5).

use otrera::{Color, Move, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Positions along random games (including finished ones).
fn sample_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let (w, h) = [(6, 6), (8, 8), (10, 10), (5, 6), (7, 4), (4, 9), (10, 5)][g % 7];
        let mut p = Position::named_start(w, h).unwrap();
        loop {
            if rng.gen_bool(0.15) {
                out.push(p.clone());
            }
            match p.random_move(&mut rng) {
                Some(m) => p.make(m),
                None => {
                    out.push(p);
                    break;
                }
            }
        }
    }
    out
}

/// Every (amazon, square, square) triple the square-walking checker accepts.
fn brute_force_moves(p: &Position) -> HashSet<Move> {
    let (w, h) = (p.width(), p.height());
    let squares: Vec<Square> = (0..h)
        .flat_map(|r| (0..w).map(move |f| Square::new(f, r)))
        .collect();
    let mut out = HashSet::new();
    for from in p.amazons(p.side_to_move()) {
        for &to in &squares {
            for &arrow in &squares {
                let m = Move::new(from, to, arrow);
                if p.check_move(m).is_ok() {
                    out.insert(m);
                }
            }
        }
    }
    out
}

#[test]
fn generator_matches_slow_checker() {
    for p in sample_positions(1, 24) {
        let fast = p.legal_moves();
        let set: HashSet<Move> = fast.iter().copied().collect();
        assert_eq!(set.len(), fast.len(), "duplicate moves in {p}");
        assert_eq!(set, brute_force_moves(&p), "{p}");
        assert_eq!(p.count_moves(), fast.len() as u64, "{p}");
        assert_eq!(p.has_legal_move(), !fast.is_empty(), "{p}");
    }
}

/// Perft by the square-walking checker alone.
fn brute_force_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    brute_force_moves(p)
        .into_iter()
        .map(|m| {
            let mut q = p.clone();
            q.play(m).unwrap();
            brute_force_perft(&q, depth - 1)
        })
        .sum()
}

#[test]
fn rectangle_perft_matches_brute_force() {
    // The named starts of small rectangles, and positions along random games on them.
    let mut rng = StdRng::seed_from_u64(12);
    for (w, h) in [(4, 5), (5, 4), (3, 7), (7, 3), (2, 6), (6, 2)] {
        let mut p = match Position::named_start(w, h) {
            Some(p) => p,
            None => {
                let mut p = Position::empty_rect(w, h, Color::White);
                p.put(Square::new(0, 0), Piece::Amazon(Color::White));
                p.put(Square::new(w - 1, h - 1), Piece::Amazon(Color::Black));
                p
            }
        };
        for _ in 0..4 {
            let depth = if p.empty_squares().count() > 14 { 2 } else { 3 };
            let want = brute_force_perft(&p, depth);
            let got = otrera::perft::perft(&mut p.clone(), depth);
            assert_eq!(got, want, "{p} depth {depth}");
            for _ in 0..2 {
                if let Some(m) = p.random_move(&mut rng) {
                    p.make(m);
                }
            }
        }
    }
}

#[test]
fn make_unmake_restores_everything() {
    for p in sample_positions(2, 30) {
        let mut q = p.clone();
        for m in p.legal_moves().into_iter().step_by(7) {
            q.make(m);
            assert_ne!(q.hash(), p.hash());
            let reparsed: Position = q.to_string().parse().unwrap();
            assert_eq!(reparsed, q, "incremental state must match a fresh parse");
            assert_eq!(reparsed.hash(), q.hash());
            q.unmake(m);
            assert_eq!(q, p);
            assert_eq!(q.hash(), p.hash());
        }
    }
}

#[test]
fn position_strings_round_trip() {
    for p in sample_positions(3, 30) {
        let text = p.to_string();
        let q: Position = text.parse().unwrap();
        assert_eq!(q, p);
        assert_eq!(q.to_string(), text);
    }
}

#[test]
fn move_text_round_trips() {
    for p in sample_positions(4, 6) {
        for m in p.legal_moves().into_iter().step_by(11) {
            let text = m.to_string();
            assert_eq!(Move::parse_rect(&text, p.width(), p.height()), Ok(m));
            let quarry = text.to_uppercase().replace('/', "-");
            assert_eq!(Move::parse_rect(&quarry, p.width(), p.height()), Ok(m));
        }
    }
}

#[test]
fn random_moves_are_legal() {
    let mut rng = StdRng::seed_from_u64(5);
    for p in sample_positions(5, 30) {
        let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
        for _ in 0..50 {
            match p.random_move(&mut rng) {
                Some(m) => assert!(legal.contains(&m), "{m} in {p}"),
                None => assert!(legal.is_empty()),
            }
        }
    }
}

#[test]
fn random_moves_reach_every_legal_move() {
    // Small positions, so every move can be seen in a bounded number of draws.
    let mut rng = StdRng::seed_from_u64(6);
    let positions = [
        "1B2B1/B4B/6/6/W4W/1W2W1 w",
        "xxxx/1W1B/x2x/xxxx b",
        "B1xxx/xxxxx/xxxxx/xWxxx/1x1xx w",
        "4/1W2/2B1/4 w",
    ];
    for text in positions {
        let p: Position = text.parse().unwrap();
        let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
        let mut seen = HashSet::new();
        for _ in 0..legal.len() * 400 {
            seen.insert(p.random_move(&mut rng).unwrap());
            if seen.len() == legal.len() {
                break;
            }
        }
        assert_eq!(seen, legal, "{text}");
    }
}

#[test]
fn game_over_means_no_moves() {
    let p: Position = "xxx/xWx/xxx w".parse().unwrap();
    assert!(p.is_game_over());
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.random_move(&mut StdRng::seed_from_u64(0)), None);
    assert_eq!(
        p.clone()
            .play(Move::parse("b2-a1/b2", 3).unwrap())
            .unwrap_err()
            .to_string(),
        "illegal move: the side to move has no legal move (game over)"
    );
    let mut p = Position::empty(4, Color::White);
    p.put(Square::new(1, 1), Piece::Amazon(Color::Black));
    assert!(p.is_game_over(), "a side without amazons cannot move");
}

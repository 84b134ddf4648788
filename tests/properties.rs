//! Property tests of the rules core over positions from seeded random games on 6x6, 8x8 and 10x10.

use hippolyta::{Color, Move, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Positions along random games (including finished ones).
fn sample_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let size = [6, 8, 10][g % 3];
        let mut p = Position::start(size).unwrap();
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
    let n = p.size();
    let squares: Vec<Square> = (0..n)
        .flat_map(|r| (0..n).map(move |f| Square::new(f, r)))
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
            assert_eq!(Move::parse(&text, p.size()), Ok(m));
            let quarry = text.to_uppercase().replace('/', "-");
            assert_eq!(Move::parse(&quarry, p.size()), Ok(m));
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

//! The tests' exact game values: plain exhaustive search with a memo, simple enough to trust,
//! and independent of the engine's search, endgame solver and proof-number solver.
#![allow(dead_code)]

use otrera::{Move, Position};
use std::collections::HashMap;

/// Whether the side to move wins.
pub fn wins(pos: &mut Position, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&pos.hash()) {
        return w;
    }
    let mut win = false;
    for m in pos.legal_moves() {
        pos.make(m);
        let opponent_wins = wins(pos, memo);
        pos.unmake(m);
        if !opponent_wins {
            win = true;
            break;
        }
    }
    memo.insert(pos.hash(), win);
    win
}

/// Whether the side to move wins, and in how many plies the game ends when the winner hurries
/// and the loser resists longest.
pub fn value_and_length(pos: &mut Position, memo: &mut HashMap<u64, (bool, u32)>) -> (bool, u32) {
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut quickest_win: Option<u32> = None;
    let mut longest_loss = 0;
    for m in pos.legal_moves() {
        pos.make(m);
        let (opponent_wins, plies) = value_and_length(pos, memo);
        pos.unmake(m);
        if opponent_wins {
            longest_loss = longest_loss.max(plies + 1);
        } else {
            quickest_win = Some(quickest_win.map_or(plies + 1, |q| q.min(plies + 1)));
        }
    }
    let v = quickest_win.map_or((false, longest_loss), |q| (true, q));
    memo.insert(pos.hash(), v);
    v
}

/// A position whose side to move (White) loses whatever it plays, before its regions are closed,
/// where the moves resist for different lengths: b1-a1/b1 loses in 3 plies, d2-c3/b3 in 5.
pub const LOST_ROOT: &str = "1BWxxx/xxBxxx/BxxBxx/x2x1x/xxxWxx/1W1xxW w";

/// How many plies the game lasts after each move of `pos` with the winner hurrying and the loser
/// resisting, checking that every move loses.
pub fn resistance(pos: &Position) -> HashMap<Move, u32> {
    let mut memo = HashMap::new();
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = pos.clone();
            after.make(m);
            let (opponent_wins, plies) = value_and_length(&mut after, &mut memo);
            assert!(opponent_wins, "{m} does not lose in {pos}");
            (m, plies)
        })
        .collect()
}

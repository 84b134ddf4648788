//! The result of a finished game: who won, and by how much.
//!
//! A game is over when the side to move has no legal move; the other side wins. The margin is the
//! number of moves the winner could still make, counted as the empty squares its amazons can still
//! reach (king steps over empty squares). That count is exact unless some of the winner's territory
//! is defective (squares an amazon can reach but not all fill in); it is then an upper bound.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::Position;
use std::fmt;

/// A finished game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The side that won.
    pub winner: Color,
    /// Moves the winner could still make (see the module documentation).
    pub margin: u32,
}

impl fmt::Display for Score {
    /// `W+12` or `B+3` (the SGF `RE` form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = match self.winner {
            Color::White => 'W',
            Color::Black => 'B',
        };
        write!(f, "{w}+{}", self.margin)
    }
}

/// Empty squares king-connected to an amazon of `side`.
pub fn reachable(pos: &Position, side: Color) -> Bitboard {
    let empty = pos.empty_squares();
    let mut seen = pos.amazons(side).king_step(empty);
    loop {
        let next = seen | seen.king_step(empty);
        if next == seen {
            return seen;
        }
        seen = next;
    }
}

/// The result of `pos` if the game is over there, `None` if the side to move can still move.
pub fn final_score(pos: &Position) -> Option<Score> {
    if pos.has_legal_move() {
        return None;
    }
    let winner = !pos.side_to_move();
    Some(Score {
        winner,
        margin: reachable(pos, winner).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_positions() {
        let cases = [
            // Black to move is walled in; White reaches all 20 empty squares.
            ("Bx3/xx3/5/5/W4 b", Some("W+20")),
            // A wall cuts off the 3 squares next to Black: White reaches 14.
            ("Bx3/xxxxx/5/5/W4 b", Some("W+14")),
            // White to move cannot move; Black reaches d2 and, diagonally from it, c1.
            ("xxxxx/xWxxx/xxxxx/xxx1x/xx1xB w", Some("B+2")),
            // Both walled in: the side to move loses and the winner has nothing left either.
            ("Wxxxx/xxxxx/xxxxx/xxxxx/xxxxB w", Some("B+0")),
            // Not over.
            ("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w", None),
            ("Bx3/xx3/5/5/W4 w", None),
        ];
        for (text, want) in cases {
            let pos: Position = text.parse().unwrap();
            let got = final_score(&pos).map(|s| s.to_string());
            assert_eq!(got.as_deref(), want, "{text}");
        }
    }
}

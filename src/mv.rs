//! Moves and move text.
//!
//! Canonical text is `d1-d7/g7` (from-to/arrow, lower case). Input also accepts, in any case,
//! `d1-d7-g7`, `d1-d7xg7`, `d1-d7(g7)` and `d1d7g7`.

use crate::square::{Square, SquareError};
use std::fmt;

/// An amazon move: the amazon on `from` goes to `to` and shoots an arrow to `arrow`. Three bytes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    /// Where the amazon starts.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
    /// Where its arrow lands.
    pub arrow: Square,
}

impl Move {
    /// A move from its three squares.
    pub const fn new(from: Square, to: Square, arrow: Square) -> Move {
        Move { from, to, arrow }
    }

    /// Reads move text for a board of side `size`. This checks the syntax and that the squares are on
    /// the board, not that the move is legal (see `Position::check_move`).
    pub fn parse(text: &str, size: usize) -> Result<Move, ParseMoveError> {
        Move::parse_rect(text, size, size)
    }

    /// Reads move text for a board of `width` files and `height` ranks (see [`Move::parse`]).
    pub fn parse_rect(text: &str, width: usize, height: usize) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let syntax = |reason: &'static str| ParseMoveError::Syntax {
            text: t.to_string(),
            reason,
        };
        if !t.is_ascii() {
            return Err(syntax(
                "moves use only letters, digits and the separators - / x ( )",
            ));
        }
        let lower = t.to_ascii_lowercase();
        let b = lower.as_bytes();
        let mut i = 0;
        // A square name is a letter followed by one or two digits.
        let take_square = |i: &mut usize| -> Result<Square, ParseMoveError> {
            let start = *i;
            if *i < b.len() && b[*i].is_ascii_lowercase() && b[*i] != b'x' {
                *i += 1;
            } else {
                return Err(syntax("expected a square such as d7"));
            }
            while *i < b.len() && b[*i].is_ascii_digit() && *i - start < 3 {
                *i += 1;
            }
            Square::parse_rect(&lower[start..*i], width, height).map_err(ParseMoveError::Square)
        };
        let from = take_square(&mut i)?;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        let to = take_square(&mut i)?;
        let mut paren = false;
        if i < b.len() {
            match b[i] {
                b'/' | b'-' | b'x' => i += 1,
                b'(' => {
                    paren = true;
                    i += 1;
                }
                _ => {}
            }
        }
        let arrow = take_square(&mut i)?;
        if paren {
            if i < b.len() && b[i] == b')' {
                i += 1;
            } else {
                return Err(syntax("missing ')' after the arrow square"));
            }
        }
        if i != b.len() {
            return Err(syntax("unexpected text after the arrow square"));
        }
        Ok(Move { from, to, arrow })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}/{}", self.from, self.to, self.arrow)
    }
}

/// Move text that could not be read (as opposed to a readable move that is illegal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Nothing was given.
    Empty,
    /// The text does not have the shape of a move.
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// One of the squares is malformed or off the board.
    Square(SquareError),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => {
                write!(f, "empty move (expected from-to/arrow, like d1-d7/g7)")
            }
            ParseMoveError::Syntax { text, reason } => {
                write!(
                    f,
                    "cannot read move '{text}': {reason} (expected from-to/arrow, like d1-d7/g7)"
                )
            }
            ParseMoveError::Square(e) => write!(f, "bad move: {e}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// Why a well-formed move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// The side to move has no legal move at all.
    GameOver,
    /// A square of the move is outside this position's board.
    OffBoard(Square),
    /// No amazon stands on the from-square.
    NoAmazon(Square),
    /// The amazon on the from-square belongs to the other side.
    NotYourAmazon(Square),
    /// From and to are the same square or not on one queen line.
    NotQueenLine {
        /// Start of the step.
        from: Square,
        /// End of the step.
        to: Square,
        /// "move" or "arrow".
        what: &'static str,
    },
    /// A square on the way (or the target itself) is taken.
    Blocked {
        /// Start of the step.
        from: Square,
        /// End of the step.
        to: Square,
        /// The first square that is taken.
        at: Square,
        /// "move" or "arrow".
        what: &'static str,
    },
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::GameOver => write!(
                f,
                "illegal move: the side to move has no legal move (game over)"
            ),
            IllegalMoveError::OffBoard(s) => {
                write!(f, "illegal move: square {s} is off this board")
            }
            IllegalMoveError::NoAmazon(s) => write!(f, "illegal move: there is no amazon on {s}"),
            IllegalMoveError::NotYourAmazon(s) => {
                write!(
                    f,
                    "illegal move: the amazon on {s} belongs to the side not on move"
                )
            }
            IllegalMoveError::NotQueenLine { from, to, what } if from == to => {
                write!(
                    f,
                    "illegal move: {what} from {from} to {to} does not leave its square"
                )
            }
            IllegalMoveError::NotQueenLine { from, to, what } => {
                write!(f, "illegal move: {what} from {from} to {to} is not along a rank, file or diagonal")
            }
            IllegalMoveError::Blocked { from, to, at, what } if at == to => {
                write!(
                    f,
                    "illegal move: {what} target {to} (from {from}) is occupied"
                )
            }
            IllegalMoveError::Blocked { from, to, at, what } => {
                write!(
                    f,
                    "illegal move: {what} path from {from} to {to} is blocked at {at}"
                )
            }
        }
    }
}

impl std::error::Error for IllegalMoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s, 10).unwrap()
    }

    #[test]
    fn accepted_forms() {
        let want = Move::new(sq("d1"), sq("d7"), sq("g7"));
        for text in [
            "d1-d7/g7",
            "d1-d7-g7",
            "d1-d7xg7",
            "d1-d7(g7)",
            "d1d7g7",
            "D1-D7-G7",
            "D1-D7XG7",
            " d1-d7/g7 ",
        ] {
            assert_eq!(Move::parse(text, 10), Ok(want), "{text}");
        }
        assert_eq!(want.to_string(), "d1-d7/g7");
        let ten = Move::parse("j10j1a10", 10).unwrap();
        assert_eq!(ten.to_string(), "j10-j1/a10");
    }

    #[test]
    fn rejected_forms() {
        for text in [
            "",
            "d1",
            "d1-d7",
            "d1-d7/",
            "d1-d7/g7/",
            "d1--d7/g7",
            "d1-d7(g7",
            "d1-d7/g7)",
            "d1-d7//g7",
            "d1-k7/g7",
            "d0-d7/g7",
            "x1-d7/g7",
            "d1-d7/g77",
            "d1·d7/g7",
        ] {
            assert!(Move::parse(text, 10).is_err(), "{text}");
        }
        assert!(matches!(
            Move::parse("a1-a8/a2", 6),
            Err(ParseMoveError::Square(_))
        ));
    }

    #[test]
    fn illegal_messages_name_the_problem() {
        let e = IllegalMoveError::Blocked {
            from: sq("d7"),
            to: sq("d1"),
            at: sq("d4"),
            what: "arrow",
        };
        assert_eq!(
            e.to_string(),
            "illegal move: arrow path from d7 to d1 is blocked at d4"
        );
    }
}

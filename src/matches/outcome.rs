//! How a game ended.

use crate::color::Color;
use std::fmt;

/// Ways an engine can lose other than being out of moves or resigning.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForfeitKind {
    /// A readable move that is not legal in the position.
    IllegalMove,
    /// An answer to `genmove` that is not a move (nor `resign`).
    Unparsable,
    /// A `?` error in answer to `genmove`.
    GenmoveError,
    /// The engine took longer than its clock allowed (beyond the margin), but answered.
    TimeOverrun,
    /// No answer at all within the hard limit.
    Hang,
    /// The process exited or closed its output.
    Crash,
    /// A malformed response, or a `?` to a command it must accept (`play`, `boardsize`, ...).
    Protocol,
    /// The engine could not be (re)started.
    StartFailure,
}

impl ForfeitKind {
    /// Every kind, in table order.
    pub const ALL: [ForfeitKind; 8] = [
        ForfeitKind::IllegalMove,
        ForfeitKind::Unparsable,
        ForfeitKind::GenmoveError,
        ForfeitKind::TimeOverrun,
        ForfeitKind::Hang,
        ForfeitKind::Crash,
        ForfeitKind::Protocol,
        ForfeitKind::StartFailure,
    ];

    /// Short machine-readable name.
    pub fn key(self) -> &'static str {
        match self {
            ForfeitKind::IllegalMove => "illegal",
            ForfeitKind::Unparsable => "unparsable",
            ForfeitKind::GenmoveError => "genmove_error",
            ForfeitKind::TimeOverrun => "time",
            ForfeitKind::Hang => "hang",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Protocol => "protocol",
            ForfeitKind::StartFailure => "start",
        }
    }

    /// Index into [`ForfeitKind::ALL`].
    pub fn index(self) -> usize {
        ForfeitKind::ALL
            .iter()
            .position(|&k| k == self)
            .expect("ALL lists every kind")
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The loser had no legal move: the normal end.
    NoMoves,
    /// The loser answered `resign`.
    Resignation,
    /// The loser broke a rule of the match.
    Forfeit(ForfeitKind),
    /// The referee found the position decided (exact endgame count) and stopped the game.
    Adjudication,
}

impl Termination {
    /// Short machine-readable name (`normal`, `resign`, `adjudicated`, or the forfeit key).
    pub fn key(self) -> &'static str {
        match self {
            Termination::NoMoves => "normal",
            Termination::Resignation => "resign",
            Termination::Adjudication => "adjudicated",
            Termination::Forfeit(k) => k.key(),
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The side that won.
    pub winner: Color,
    /// How the game ended.
    pub termination: Termination,
    /// Human-readable explanation, e.g. `black played illegal move a1-a2/a3: ...`.
    pub reason: String,
    /// For a normal or adjudicated end, the winner's exact margin (moves it still has when the
    /// loser is stuck, with perfect fill-in) when the endgame solver found it.
    pub margin: Option<u32>,
}

impl Outcome {
    /// The SGF `RE` value: `W+`/`B+`, then `R` for resignation, `T` for time, `F` for any other
    /// forfeit; for a normal or adjudicated end the margin when known (`W+5`), else nothing.
    pub fn sgf_result(&self) -> String {
        let side = match self.winner {
            Color::White => "W+",
            Color::Black => "B+",
        };
        let how = match self.termination {
            Termination::NoMoves | Termination::Adjudication => {
                self.margin.map(|m| m.to_string()).unwrap_or_default()
            }
            Termination::Resignation => "R".into(),
            Termination::Forfeit(ForfeitKind::TimeOverrun) => "T".into(),
            Termination::Forfeit(_) => "F".into(),
        };
        format!("{side}{how}")
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins: {}", self.winner, self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_indexed_in_order() {
        for (i, k) in ForfeitKind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i);
        }
    }

    #[test]
    fn sgf_results() {
        let o = |winner, termination| Outcome {
            winner,
            termination,
            reason: String::new(),
            margin: None,
        };
        assert_eq!(o(Color::White, Termination::NoMoves).sgf_result(), "W+");
        let with_margin = Outcome {
            margin: Some(5),
            ..o(Color::Black, Termination::Adjudication)
        };
        assert_eq!(with_margin.sgf_result(), "B+5");
        assert_eq!(
            o(Color::Black, Termination::Resignation).sgf_result(),
            "B+R"
        );
        assert_eq!(
            o(Color::Black, Termination::Forfeit(ForfeitKind::TimeOverrun)).sgf_result(),
            "B+T"
        );
        assert_eq!(
            o(Color::White, Termination::Forfeit(ForfeitKind::Crash)).sgf_result(),
            "W+F"
        );
    }
}

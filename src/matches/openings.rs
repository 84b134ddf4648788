//! Openings: where each game pair starts.
//!
//! An opening is a start position (the default start of the board size, or a position string)
//! and moves played from it. Each opening is played twice, the engines swapping colours.

use crate::mv::Move;
use crate::position::Position;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt;
use std::path::Path;

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where the moves start.
    pub start: Position,
    /// Whether `start` must be sent with `set_position` (a position string was given); otherwise it
    /// is the default start of its size and `clear_board` sets it up.
    pub custom_start: bool,
    /// Moves played from `start`, sent with `play`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The default start of a board of side `size` with no moves.
    pub fn standard(size: usize) -> Option<Opening> {
        Some(Opening {
            start: Position::start(size)?,
            custom_start: false,
            moves: Vec::new(),
        })
    }

    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.make(m);
        }
        p
    }

    /// Reads one line of an openings file: a position string, or moves from the default start of
    /// `size` separated by spaces (optionally numbered `1.` `2.` ...).
    pub fn parse(line: &str, size: usize) -> Result<Opening, OpeningError> {
        let line = line.trim();
        let err = |reason: String| OpeningError {
            line: 0,
            text: line.to_string(),
            reason,
        };
        if let Ok(p) = line.parse::<Position>() {
            if p.square_size() != Some(size) {
                return Err(err(format!(
                    "the position is {} but the match is on {size}x{size}",
                    p.dims_text()
                )));
            }
            if !p.has_legal_move() {
                return Err(err("the side to move has no legal move".into()));
            }
            return Ok(Opening {
                start: p,
                custom_start: true,
                moves: Vec::new(),
            });
        }
        let mut o = Opening::standard(size)
            .ok_or_else(|| err(format!("board size {size} has no default start")))?;
        let mut pos = o.start.clone();
        for word in line.split_whitespace() {
            if word.ends_with('.') && word[..word.len() - 1].chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let m = Move::parse(word, size).map_err(|e| {
                err(format!(
                    "neither a position string nor a move sequence: {e}"
                ))
            })?;
            pos.play(m)
                .map_err(|e| err(format!("move {} {m}: {e}", o.moves.len() + 1)))?;
            o.moves.push(m);
        }
        if !pos.has_legal_move() {
            return Err(err(
                "the side to move has no legal move after these moves".into()
            ));
        }
        Ok(o)
    }

    /// `n` random legal plies from the default start, drawn from a generator seeded with `seed`.
    /// If the side to move is stuck before or after the last ply (only possible on small boards),
    /// the last plies are drawn again.
    pub fn random(size: usize, plies: usize, seed: u64) -> Option<Opening> {
        let mut rng = StdRng::seed_from_u64(seed);
        let base = Opening::standard(size)?;
        for _attempt in 0..1000 {
            let mut pos = base.start.clone();
            let mut moves = Vec::with_capacity(plies);
            while moves.len() < plies {
                match pos.random_move(&mut rng) {
                    Some(m) => {
                        pos.make(m);
                        moves.push(m);
                    }
                    None => break,
                }
            }
            if moves.len() == plies && pos.has_legal_move() {
                return Some(Opening { moves, ..base });
            }
        }
        None
    }

    /// One line describing the opening: its moves, or the position string it starts from.
    pub fn describe(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        match (self.custom_start, moves.is_empty()) {
            (false, true) => "start".to_string(),
            (false, false) => moves.join(" "),
            (true, true) => self.start.to_string(),
            (true, false) => format!("{} {}", self.start, moves.join(" ")),
        }
    }
}

/// A bad line in an openings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// Line number (1-based; 0 when not read from a file).
    pub line: usize,
    /// The line.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: '{}': {}", self.line, self.text, self.reason)
        } else {
            write!(f, "'{}': {}", self.text, self.reason)
        }
    }
}

impl std::error::Error for OpeningError {}

/// Where the openings of a match come from.
#[derive(Clone, Debug)]
pub enum OpeningBook {
    /// Every pair starts from the default start.
    Start(Opening),
    /// Openings read from a file, used in order and cycled.
    List(Vec<Opening>),
    /// Random plies from the default start; opening `i` is drawn from seed `seed + i`, so a match
    /// replays the same openings whatever the order in which games finish.
    Random {
        /// Board side.
        size: usize,
        /// Number of plies.
        plies: usize,
        /// Base seed.
        seed: u64,
    },
    /// Part of another book (`--shard I/N`): pair `i` gets the inner book's opening
    /// `index + count * i`, so the shards of a run play disjoint openings.
    Shard {
        /// The whole run's book.
        book: Box<OpeningBook>,
        /// This shard.
        shard: crate::shard::Shard,
    },
}

impl OpeningBook {
    /// Reads an openings file: one opening per line; empty lines and lines starting with `#` are
    /// skipped.
    pub fn from_file(path: &Path, size: usize) -> Result<OpeningBook, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
        let mut list = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let o = Opening::parse(t, size).map_err(|mut e| {
                e.line = i + 1;
                format!("openings file {}: {e}", path.display())
            })?;
            list.push(o);
        }
        if list.is_empty() {
            return Err(format!("openings file {} has no openings", path.display()));
        }
        Ok(OpeningBook::List(list))
    }

    /// The opening of pair `i`.
    pub fn get(&self, i: usize) -> Opening {
        match self {
            OpeningBook::Start(o) => o.clone(),
            OpeningBook::List(list) => list[i % list.len()].clone(),
            OpeningBook::Random { size, plies, seed } => {
                Opening::random(*size, *plies, seed.wrapping_add(i as u64))
                    .or_else(|| Opening::standard(*size))
                    .expect("the size was checked when the book was made")
            }
            OpeningBook::Shard { book, shard } => {
                book.get(shard.index as usize + shard.count as usize * i)
            }
        }
    }

    /// A short description for the summary.
    pub fn describe(&self) -> String {
        match self {
            OpeningBook::Start(_) => "default start".into(),
            OpeningBook::List(l) => format!("{} from a file", l.len()),
            OpeningBook::Random { plies, seed, .. } => {
                format!("{plies} random plies (seed {seed})")
            }
            OpeningBook::Shard { book, shard } => format!("{}, shard {shard}", book.describe()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_positions_and_moves() {
        let o = Opening::parse("1. d1-d7/g7 2. a7-b7/c7", 10).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert!(!o.custom_start);
        assert_eq!(o.describe(), "d1-d7/g7 a7-b7/c7");
        let p = Opening::parse("3B2B3/10/10/B2W2x2B/10/10/W8W/10/10/6W3 b", 10).unwrap();
        assert!(p.custom_start);
        assert_eq!(
            p.position(),
            Opening::parse("d1-d7/g7", 10).unwrap().position()
        );
        assert!(Opening::parse("d1-d7/g7", 8).is_err());
        assert!(Opening::parse("3B2B3/10/10/B2W2x2B/10/10/W8W/10/10/6W3 b", 8).is_err());
        let illegal = Opening::parse("d1-d7/d1 d7-d1/d7", 10).unwrap_err();
        assert!(illegal.reason.contains("move 2"), "{illegal}");
        assert!(Opening::parse("hello", 10).is_err());
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        for size in [6, 8, 10] {
            let a = Opening::random(size, 6, 42).unwrap();
            let b = Opening::random(size, 6, 42).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.moves.len(), 6);
            let mut p = a.start.clone();
            for &m in &a.moves {
                p.play(m).unwrap();
            }
            assert!(p.has_legal_move());
        }
        let book = OpeningBook::Random {
            size: 10,
            plies: 4,
            seed: 7,
        };
        assert_eq!(book.get(3), book.get(3));
        assert_ne!(book.get(3), book.get(4));
    }
}

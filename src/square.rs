//! Squares and their names.
//!
//! Every board size uses one fixed geometry: ranks of [`STRIDE`] = 11 bits, of which the first
//! [`MAX_SIZE`] = 10 hold files a..j and the last is a padding column that is always empty. A square's
//! index is `rank * 11 + file`. The padding makes bitboard shifts wrap-free (see `bitboard.rs`), and
//! smaller boards simply use the lower-left corner of the same geometry.

use std::fmt;

/// Bits per rank in the padded layout (10 files plus one padding column).
pub const STRIDE: usize = 11;
/// Largest supported board side.
pub const MAX_SIZE: usize = 10;
/// Number of square indices in the padded layout (10 ranks of 11).
pub const NUM_INDICES: usize = STRIDE * MAX_SIZE;

/// A square on the board, stored as its padded index (`rank * 11 + file`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1). Both must be below [`MAX_SIZE`].
    #[inline]
    pub const fn new(file: usize, rank: usize) -> Square {
        debug_assert!(file < MAX_SIZE && rank < MAX_SIZE);
        Square((rank * STRIDE + file) as u8)
    }

    /// The square with padded index `index`; the caller guarantees it is not in the padding column.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        Square(index as u8)
    }

    /// Padded index, `rank * 11 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> usize {
        self.0 as usize % STRIDE
    }

    /// Rank, 0 = rank 1 (White's side).
    #[inline]
    pub const fn rank(self) -> usize {
        self.0 as usize / STRIDE
    }

    /// Whether the square lies on a board of `width` files and `height` ranks.
    #[inline]
    pub const fn on_rect(self, width: usize, height: usize) -> bool {
        self.file() < width && self.rank() < height
    }

    /// Parses a square name such as `d7` or `J10` (case-insensitive) on a board of side `size`.
    pub fn parse(text: &str, size: usize) -> Result<Square, SquareError> {
        Square::parse_rect(text, size, size)
    }

    /// Parses a square name on a board of `width` files and `height` ranks.
    pub fn parse_rect(text: &str, width: usize, height: usize) -> Result<Square, SquareError> {
        let bytes = text.as_bytes();
        let bad = || SquareError::Malformed(text.to_string());
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(bad());
        }
        let letter = bytes[0].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() || !bytes[1..].iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        if bytes[1] == b'0' {
            return Err(bad());
        }
        let file = (letter - b'a') as usize;
        let rank: usize = text[1..].parse::<usize>().map_err(|_| bad())? - 1;
        if file >= width || rank >= height {
            return Err(SquareError::OffBoard {
                text: text.to_ascii_lowercase(),
                width,
                height,
            });
        }
        Ok(Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a letter followed by a rank number.
    Malformed(String),
    /// A well-formed name outside the board.
    OffBoard {
        /// The name as given (lower case).
        text: String,
        /// Files of the board.
        width: usize,
        /// Ranks of the board.
        height: usize,
    },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(t) => write!(
                f,
                "'{t}' is not a square name (expected a letter and a rank, like d7)"
            ),
            SquareError::OffBoard {
                text,
                width,
                height,
            } => {
                write!(f, "square {text} is off the {width}x{height} board")
            }
        }
    }
}

impl std::error::Error for SquareError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rank in 0..10 {
            for file in 0..10 {
                let sq = Square::new(file, rank);
                assert_eq!(Square::parse(&sq.to_string(), 10), Ok(sq));
                assert_eq!(Square::parse(&sq.to_string().to_uppercase(), 10), Ok(sq));
            }
        }
        assert_eq!(Square::new(8, 0).to_string(), "i1");
        assert_eq!(Square::new(9, 9).to_string(), "j10");
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "a", "a0", "a01", "1a", "aa", "a100", "-1", "ä1"] {
            assert!(Square::parse(bad, 10).is_err(), "{bad}");
        }
        assert!(matches!(
            Square::parse("k1", 10),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            Square::parse("a11", 10),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            Square::parse("g1", 6),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(Square::parse_rect("e6", 5, 6).is_ok());
        assert!(Square::parse_rect("f5", 5, 6).is_err());
        assert!(Square::parse_rect("a7", 5, 6).is_err());
    }
}

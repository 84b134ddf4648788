//! Positions: amazons, arrows, side to move, Zobrist hash; make/unmake; the position string.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::lines::{empty_lines, line_square, segment, NUM_LINES, SQUARE_LINES};
use crate::mv::{IllegalMoveError, Move};
use crate::square::{Square, MAX_SIZE};
use crate::zobrist;
use std::fmt;
use std::str::FromStr;

/// Smallest board side a position may have.
pub const MIN_SIZE: usize = 2;

/// What stands on a square.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Piece {
    /// An amazon of the given side.
    Amazon(Color),
    /// A burnt square.
    Arrow,
}

/// A position of the Game of the Amazons on a square board of side 2 to 10.
///
/// Besides the bitboards it keeps one occupancy word per queen line (see `lines.rs`), updated by
/// `make`/`unmake`, from which move generation reads rays directly.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    size: u8,
    side: Color,
    amazons: [Bitboard; 2],
    arrows: Bitboard,
    lines: [u16; NUM_LINES],
    hash: u64,
}

impl Position {
    /// An empty board of side `size` (2..=10) with `side` to move.
    pub fn empty(size: usize, side: Color) -> Position {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} out of range"
        );
        Position {
            size: size as u8,
            side,
            amazons: [Bitboard::EMPTY; 2],
            arrows: Bitboard::EMPTY,
            lines: empty_lines(size),
            hash: if side == Color::Black {
                zobrist::BLACK_TO_MOVE
            } else {
                0
            },
        }
    }

    /// The standard 10x10 start: White a4 d1 g1 j4, Black a7 d10 g10 j7, White to move.
    pub fn standard() -> Position {
        Position::start(10).expect("10 is a standard size")
    }

    /// The default start for a board of side 6 to 10, White to move.
    ///
    /// The 10x10 pattern scaled: White on the first file at rank `size/2 - 1`, on rank 1 at files
    /// `size/2 - 2` and `size/2 + 1`, and on the last file at rank `size/2 - 1`; Black mirrored
    /// top to bottom. 8x8: White a3 c1 f1 h3, Black a6 c8 f8 h6. 6x6: White a2 b1 e1 f2, Black a5 b6
    /// e6 f5.
    pub fn start(size: usize) -> Option<Position> {
        if !(6..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut p = Position::empty(size, Color::White);
        let h = size / 2;
        let white = [(0, h - 2), (h - 2, 0), (h + 1, 0), (size - 1, h - 2)];
        for (file, rank) in white {
            p.put(Square::new(file, rank), Piece::Amazon(Color::White));
            p.put(
                Square::new(file, size - 1 - rank),
                Piece::Amazon(Color::Black),
            );
        }
        Some(p)
    }

    /// Puts `piece` on the empty square `sq` (for building positions).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        assert!(sq.on_board(self.size()) && self.piece_at(sq).is_none());
        match piece {
            Piece::Amazon(c) => {
                self.amazons[c.index()] |= Bitboard::from_square(sq);
                self.hash ^= zobrist::PIECE[c.index()][sq.index()];
            }
            Piece::Arrow => {
                self.arrows |= Bitboard::from_square(sq);
                self.hash ^= zobrist::PIECE[zobrist::ARROW][sq.index()];
            }
        }
        self.toggle_lines(sq);
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The amazons of `c`.
    #[inline]
    pub fn amazons(&self, c: Color) -> Bitboard {
        self.amazons[c.index()]
    }

    /// Squares burnt by arrows.
    #[inline]
    pub fn arrows(&self) -> Bitboard {
        self.arrows
    }

    /// Squares holding an amazon or an arrow.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.amazons[0] | self.amazons[1] | self.arrows
    }

    /// All squares of this board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        Bitboard::board(self.size())
    }

    /// Empty squares of this board.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        Bitboard(self.board().0 & !self.occupied().0)
    }

    /// Zobrist hash of pieces and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.arrows.contains(sq) {
            Some(Piece::Arrow)
        } else if self.amazons[0].contains(sq) {
            Some(Piece::Amazon(Color::White))
        } else if self.amazons[1].contains(sq) {
            Some(Piece::Amazon(Color::Black))
        } else {
            None
        }
    }

    /// Line occupancy word `line` (see `lines.rs`).
    #[inline]
    pub(crate) fn line(&self, line: u8) -> u16 {
        self.lines[line as usize]
    }

    #[inline]
    fn toggle_lines(&mut self, sq: Square) {
        let sl = &SQUARE_LINES[sq.index()];
        for k in 0..4 {
            self.lines[sl.line[k] as usize] ^= 1 << sl.slot[k];
        }
    }

    /// Plays a legal move (unchecked: use [`Position::play`] for untrusted moves).
    #[inline]
    pub fn make(&mut self, m: Move) {
        self.apply(m);
        self.side = !self.side;
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// Takes back `m`, the last move made.
    #[inline]
    pub fn unmake(&mut self, m: Move) {
        self.side = !self.side;
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.apply(m);
    }

    /// XORs the move's three squares in or out (its own inverse).
    #[inline]
    fn apply(&mut self, m: Move) {
        let c = self.side.index();
        self.amazons[c] ^= Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        self.arrows ^= Bitboard::from_square(m.arrow);
        self.toggle_lines(m.from);
        self.toggle_lines(m.to);
        self.toggle_lines(m.arrow);
        self.hash ^= zobrist::PIECE[c][m.from.index()]
            ^ zobrist::PIECE[c][m.to.index()]
            ^ zobrist::PIECE[zobrist::ARROW][m.arrow.index()];
    }

    /// Checks `m` and plays it.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        self.check_move(m)?;
        self.make(m);
        Ok(())
    }

    /// Whether the side to move has a legal move. An amazon can move exactly when a neighbouring
    /// square is empty, and it can then always shoot back to the square it left.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        !self.amazons[self.side.index()]
            .king_step(self.empty_squares())
            .is_empty()
    }

    /// Whether the game is over: the side to move has no legal move and loses.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_move()
    }

    /// Explains why `m` is illegal, by walking the board square by square (deliberately independent
    /// of the line tables the generator uses).
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMoveError> {
        for sq in [m.from, m.to, m.arrow] {
            if !sq.on_board(self.size()) {
                return Err(IllegalMoveError::OffBoard(sq));
            }
        }
        if !self.has_legal_move() {
            return Err(IllegalMoveError::GameOver);
        }
        match self.piece_at(m.from) {
            Some(Piece::Amazon(c)) if c == self.side => {}
            Some(Piece::Amazon(_)) => return Err(IllegalMoveError::NotYourAmazon(m.from)),
            _ => return Err(IllegalMoveError::NoAmazon(m.from)),
        }
        let occ = self.occupied();
        walk(m.from, m.to, occ, "move")?;
        let after = occ ^ Bitboard::from_square(m.from) ^ Bitboard::from_square(m.to);
        walk(m.to, m.arrow, after, "arrow")
    }

    /// Squares a queen on `from` reaches with the current occupancy (its own square not counted).
    pub fn queen_targets(&self, from: Square) -> Bitboard {
        let sl = &SQUARE_LINES[from.index()];
        let mut b = Bitboard::EMPTY;
        for k in 0..4 {
            let p = sl.slot[k] as u32;
            let (lo, hi) = segment(self.lines[sl.line[k] as usize], p);
            for s in (lo..=hi).filter(|&s| s != p) {
                b |= Bitboard::from_square(line_square(sl.line[k], s));
            }
        }
        b
    }

    /// A readable board with coordinates: `W`/`B` amazons, `x` arrows, `.` empty squares.
    pub fn diagram(&self) -> String {
        let n = self.size();
        let files: String = (0..n)
            .map(|f| format!(" {}", (b'a' + f as u8) as char))
            .collect();
        let mut out = format!("   {}\n", files.trim_start());
        for rank in (0..n).rev() {
            out.push_str(&format!("{:>2}", rank + 1));
            for file in 0..n {
                let c = match self.piece_at(Square::new(file, rank)) {
                    Some(Piece::Amazon(Color::White)) => 'W',
                    Some(Piece::Amazon(Color::Black)) => 'B',
                    Some(Piece::Arrow) => 'x',
                    None => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out.push_str(&format!(" {}\n", rank + 1));
        }
        out.push_str(&format!("   {}\n", files.trim_start()));
        let who = if self.side == Color::White {
            "White"
        } else {
            "Black"
        };
        out.push_str(&format!("{who} to move"));
        out
    }
}

/// Checks a queen step from `from` to `to` over `occ` (target included).
fn walk(
    from: Square,
    to: Square,
    occ: Bitboard,
    what: &'static str,
) -> Result<(), IllegalMoveError> {
    let df = to.file() as i32 - from.file() as i32;
    let dr = to.rank() as i32 - from.rank() as i32;
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return Err(IllegalMoveError::NotQueenLine { from, to, what });
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (from.file() as i32, from.rank() as i32);
    loop {
        f += sf;
        r += sr;
        let sq = Square::new(f as usize, r as usize);
        if occ.contains(sq) {
            return Err(IllegalMoveError::Blocked {
                from,
                to,
                at: sq,
                what,
            });
        }
        if sq == to {
            return Ok(());
        }
    }
}

impl fmt::Display for Position {
    /// The position string: ranks from the top, `/`-separated, `W`, `B`, `x` or a run length of
    /// empty squares; then the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for rank in (0..n).rev() {
            let mut run = 0;
            for file in 0..n {
                let c = match self.piece_at(Square::new(file, rank)) {
                    None => {
                        run += 1;
                        continue;
                    }
                    Some(Piece::Amazon(Color::White)) => 'W',
                    Some(Piece::Amazon(Color::Black)) => 'B',
                    Some(Piece::Arrow) => 'x',
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                write!(f, "{c}")?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side.letter())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

/// A position string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Nothing but spaces.
    Empty,
    /// The board part has no side to move after it.
    MissingSide,
    /// More than the board and the side to move.
    TrailingText(String),
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// The number of ranks is not a supported board size.
    RankCount(usize),
    /// A rank does not have exactly as many squares as there are ranks.
    RankWidth {
        /// The rank number (as on the board, 1 = bottom).
        rank: usize,
        /// Squares it describes.
        width: usize,
        /// Squares it should have.
        size: usize,
    },
    /// A character other than `W`, `B`, `x` or a digit.
    BadChar {
        /// The rank number.
        rank: usize,
        /// The character.
        ch: char,
    },
    /// A run length of zero or with a leading zero.
    ZeroRun {
        /// The rank number.
        rank: usize,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            Empty => write!(f, "empty position string"),
            MissingSide => write!(f, "position string has no side to move (add ' w' or ' b')"),
            TrailingText(t) => write!(f, "unexpected text '{t}' after the side to move"),
            BadSide(t) => write!(f, "side to move must be 'w' or 'b', not '{t}'"),
            RankCount(n) => write!(
                f,
                "position has {n} ranks; boards have {MIN_SIZE} to {MAX_SIZE} ranks separated by '/'"
            ),
            RankWidth { rank, width, size } => {
                write!(f, "rank {rank} has {width} squares but the board is {size}x{size}")
            }
            BadChar { rank, ch } => write!(
                f,
                "unexpected character '{}' in rank {rank} (use W, B, x or a number of empty squares)",
                ch.escape_debug()
            ),
            ZeroRun { rank } => write!(f, "rank {rank} has a run of empty squares that is zero or starts with 0"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        use ParsePositionError::*;
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(Empty)?;
        let side = match fields.next() {
            None => return Err(MissingSide),
            Some("w" | "W") => Color::White,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(BadSide(other.chars().take(20).collect())),
        };
        if let Some(extra) = fields.next() {
            return Err(TrailingText(extra.chars().take(20).collect()));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let size = ranks.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RankCount(size));
        }
        let mut pos = Position::empty(size, side);
        for (i, text) in ranks.iter().enumerate() {
            let rank = size - 1 - i;
            let mut file = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(ch) = chars.next() {
                let piece = match ch {
                    'W' => Some(Piece::Amazon(Color::White)),
                    'B' => Some(Piece::Amazon(Color::Black)),
                    'x' | 'X' => Some(Piece::Arrow),
                    '0' => return Err(ZeroRun { rank: rank + 1 }),
                    '1'..='9' => {
                        let mut run = ch.to_digit(10).unwrap_or(0) as usize;
                        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                            run = (run * 10 + d as usize).min(1000);
                            chars.next();
                        }
                        file += run;
                        None
                    }
                    _ => return Err(BadChar { rank: rank + 1, ch }),
                };
                if let Some(piece) = piece {
                    if file < size {
                        pos.put(Square::new(file, rank), piece);
                    }
                    file += 1;
                }
            }
            if file != size {
                return Err(RankWidth {
                    rank: rank + 1,
                    width: file,
                    size,
                });
            }
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w";

    #[test]
    fn start_string() {
        assert_eq!(Position::standard().to_string(), START);
        assert_eq!(START.parse::<Position>().unwrap(), Position::standard());
        assert_eq!(
            Position::start(8).unwrap().to_string(),
            "2B2B2/8/B6B/8/8/W6W/8/2W2W2 w"
        );
        assert_eq!(
            Position::start(6).unwrap().to_string(),
            "1B2B1/B4B/6/6/W4W/1W2W1 w"
        );
    }

    #[test]
    fn example_move() {
        let mut p = Position::standard();
        let m = Move::parse("d1-d7/g7", 10).unwrap();
        p.play(m).unwrap();
        assert_eq!(p.to_string(), "3B2B3/10/10/B2W2x2B/10/10/W8W/10/10/6W3 b");
    }

    #[test]
    fn bad_strings() {
        use ParsePositionError::*;
        let cases: &[(&str, ParsePositionError)] = &[
            ("", Empty),
            ("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3", MissingSide),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w b",
                TrailingText("b".into()),
            ),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 x",
                BadSide("x".into()),
            ),
            (
                "10/10 w",
                RankWidth {
                    rank: 2,
                    width: 10,
                    size: 2,
                },
            ),
            ("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3/10 w", RankCount(11)),
            ("5 w", RankCount(1)),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W4 w",
                RankWidth {
                    rank: 1,
                    width: 11,
                    size: 10,
                },
            ),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/9/3W2W3 w",
                RankWidth {
                    rank: 2,
                    width: 9,
                    size: 10,
                },
            ),
            (
                "3Q2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w",
                BadChar { rank: 10, ch: 'Q' },
            ),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/10/3W02W3 w",
                ZeroRun { rank: 1 },
            ),
            (
                "99999999999999999999/10 w",
                RankWidth {
                    rank: 2,
                    width: 1000,
                    size: 2,
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<Position>().as_ref(), Err(want), "{text}");
        }
    }

    #[test]
    fn diagram_shows_everything() {
        let d = "2x/W1B/3 b".parse::<Position>().unwrap().diagram();
        assert_eq!(
            d,
            "   a b c\n 3 . . x 3\n 2 W . B 2\n 1 . . . 1\n   a b c\nBlack to move"
        );
    }

    #[test]
    fn illegal_moves_are_explained() {
        let mut p = Position::standard();
        let m = |t: &str| Move::parse(t, 10).unwrap();
        let cases = [
            ("e1-e2/e3", "illegal move: there is no amazon on e1"),
            (
                "a7-a6/a5",
                "illegal move: the amazon on a7 belongs to the side not on move",
            ),
            (
                "d1-e3/e4",
                "illegal move: move from d1 to e3 is not along a rank, file or diagonal",
            ),
            (
                "d1-d1/d2",
                "illegal move: move from d1 to d1 does not leave its square",
            ),
            (
                "a4-a8/a9",
                "illegal move: move path from a4 to a8 is blocked at a7",
            ),
            (
                "a4-a7/a9",
                "illegal move: move target a7 (from a4) is occupied",
            ),
            (
                "d1-d7/d10",
                "illegal move: arrow target d10 (from d7) is occupied",
            ),
        ];
        let before = p.clone();
        for (text, msg) in cases {
            assert_eq!(p.play(m(text)).unwrap_err().to_string(), msg);
            assert_eq!(p, before);
        }
        p.play(m("d1-d7/d1")).unwrap();
        p.play(m("a7-b7/c7")).unwrap();
        assert_eq!(
            p.play(m("d7-d6/d1")).unwrap_err().to_string(),
            "illegal move: arrow target d1 (from d6) is occupied"
        );
        p.play(m("d7-d2/d4")).unwrap();
        p.play(m("b7-b6/b7")).unwrap();
        assert_eq!(
            p.play(m("d2-e1/d5")).unwrap_err().to_string(),
            "illegal move: arrow from e1 to d5 is not along a rank, file or diagonal"
        );
        assert_eq!(
            p.play(m("d2-d3/d7")).unwrap_err().to_string(),
            "illegal move: arrow path from d3 to d7 is blocked at d4"
        );
    }
}

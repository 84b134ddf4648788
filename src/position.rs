//! Positions: amazons, arrows, side to move, Zobrist hash; make/unmake; the position string.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::lines::{empty_lines, line_run, segment, NUM_LINES, SQUARE_LINES};
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

/// A position of the Game of the Amazons on a board of 2 to 10 files and 2 to 10 ranks (square
/// or rectangular, in the lower-left corner of the padded layout).
///
/// Besides the bitboards it keeps one occupancy word per queen line (see `lines.rs`), updated by
/// `make`/`unmake`, from which move generation reads rays directly.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    width: u8,
    height: u8,
    side: Color,
    amazons: [Bitboard; 2],
    arrows: Bitboard,
    lines: [u16; NUM_LINES],
    hash: u64,
}

/// Reads a board name `WxH` (e.g. `5x6`: W files, H ranks) as (files, ranks).
pub fn parse_dims(text: &str) -> Option<(usize, usize)> {
    let (w, h) = text
        .trim()
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(w, h)| (w.parse::<usize>().ok(), h.parse::<usize>().ok()))?;
    Some((w?, h?))
}

impl Position {
    /// An empty board of side `size` (2..=10) with `side` to move.
    pub fn empty(size: usize, side: Color) -> Position {
        Position::empty_rect(size, size, side)
    }

    /// An empty board of `width` files and `height` ranks (each 2..=10) with `side` to move.
    pub fn empty_rect(width: usize, height: usize, side: Color) -> Position {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height),
            "board {width}x{height} out of range"
        );
        Position {
            width: width as u8,
            height: height as u8,
            side,
            amazons: [Bitboard::EMPTY; 2],
            arrows: Bitboard::EMPTY,
            lines: empty_lines(width, height),
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

    /// The named start of a `width` x `height` board, White to move: the standard start on square
    /// boards of side 6 to 10 (see [`Position::start`]); otherwise the layout of Müller's small
    /// boards, for 4 to 10 files and ranks: White on a2, b1 and the mirror squares at the right
    /// edge, Black the mirror image on the top two ranks. On 6x5: White a2 b1 e1 f2, Black a4 b5
    /// e5 f4; on 5x5: White a2 b1 d1 e2, Black a4 b5 d5 e4.
    pub fn named_start(width: usize, height: usize) -> Option<Position> {
        if width == height {
            if let Some(p) = Position::start(width) {
                return Some(p);
            }
        }
        if !(4..=MAX_SIZE).contains(&width) || !(4..=MAX_SIZE).contains(&height) {
            return None;
        }
        let mut p = Position::empty_rect(width, height, Color::White);
        let white = [(0, 1), (1, 0), (width - 2, 0), (width - 1, 1)];
        for (file, rank) in white {
            p.put(Square::new(file, rank), Piece::Amazon(Color::White));
            p.put(
                Square::new(file, height - 1 - rank),
                Piece::Amazon(Color::Black),
            );
        }
        Some(p)
    }

    /// Puts `piece` on the empty square `sq` (for building positions).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        assert!(sq.on_rect(self.width(), self.height()) && self.piece_at(sq).is_none());
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

    /// Files of the board (a..).
    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Ranks of the board (1..).
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The side of a square board, `None` for a rectangle.
    #[inline]
    pub fn square_size(&self) -> Option<usize> {
        (self.width == self.height).then_some(self.width as usize)
    }

    /// `WxH`, e.g. `5x6` for 5 files and 6 ranks.
    pub fn dims_text(&self) -> String {
        format!("{}x{}", self.width, self.height)
    }

    /// Whether `sq` is a square of this board.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        sq.on_rect(self.width(), self.height())
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
        BOARD_MASKS[self.width as usize][self.height as usize]
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

    /// Moves the side to move's amazon from `from` to `to` without shooting or passing the turn:
    /// the first half of a move, for searches that split a move in two (its own inverse).
    #[inline]
    pub fn step(&mut self, from: Square, to: Square) {
        let c = self.side.index();
        self.amazons[c] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.toggle_lines(from);
        self.toggle_lines(to);
        self.hash ^= zobrist::PIECE[c][from.index()] ^ zobrist::PIECE[c][to.index()];
    }

    /// The second half of a move after [`Position::step`]: an arrow on `arrow`, and the turn passes.
    #[inline]
    pub fn shoot(&mut self, arrow: Square) {
        self.arrows ^= Bitboard::from_square(arrow);
        self.toggle_lines(arrow);
        self.hash ^= zobrist::PIECE[zobrist::ARROW][arrow.index()] ^ zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
    }

    /// Takes back [`Position::shoot`].
    #[inline]
    pub fn unshoot(&mut self, arrow: Square) {
        self.side = !self.side;
        self.arrows ^= Bitboard::from_square(arrow);
        self.toggle_lines(arrow);
        self.hash ^= zobrist::PIECE[zobrist::ARROW][arrow.index()] ^ zobrist::BLACK_TO_MOVE;
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
            if !self.contains(sq) {
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
        let mut b = 0;
        for k in 0..4 {
            let (lo, hi) = segment(self.lines[sl.line[k] as usize], sl.slot[k] as u32);
            b |= line_run(sl.line[k], lo, hi);
        }
        Bitboard(b) & !Bitboard::from_square(from)
    }

    /// A readable board with coordinates: `W`/`B` amazons, `x` arrows, `.` empty squares.
    pub fn diagram(&self) -> String {
        let (w, h) = (self.width(), self.height());
        let files: String = (0..w)
            .map(|f| format!(" {}", (b'a' + f as u8) as char))
            .collect();
        let mut out = format!("   {}\n", files.trim_start());
        for rank in (0..h).rev() {
            out.push_str(&format!("{:>2}", rank + 1));
            for file in 0..w {
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

/// The board mask of every `width` x `height` (indices up to 10; unused entries are empty).
static BOARD_MASKS: [[Bitboard; MAX_SIZE + 1]; MAX_SIZE + 1] = {
    let mut t = [[Bitboard::EMPTY; MAX_SIZE + 1]; MAX_SIZE + 1];
    let mut w = 0;
    while w <= MAX_SIZE {
        let mut h = 0;
        while h <= MAX_SIZE {
            t[w][h] = Bitboard::rect(w, h);
            h += 1;
        }
        w += 1;
    }
    t
};

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
        for rank in (0..self.height()).rev() {
            let mut run = 0;
            for file in 0..self.width() {
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
    /// The top rank's width (the board's number of files) is not a supported board size.
    FileCount(usize),
    /// A rank does not have as many squares as the top rank.
    RankWidth {
        /// The rank number (as on the board, 1 = bottom).
        rank: usize,
        /// Squares it describes.
        width: usize,
        /// Squares it should have (those of the top rank).
        expected: usize,
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
            FileCount(n) => write!(
                f,
                "ranks have {n} squares; boards have {MIN_SIZE} to {MAX_SIZE} files"
            ),
            RankWidth {
                rank,
                width,
                expected,
            } => {
                write!(
                    f,
                    "rank {rank} has {width} squares but the top rank has {expected}"
                )
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
        let height = ranks.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(RankCount(height));
        }
        // Read every rank first: the top rank's width is the board's.
        let mut rows: Vec<Vec<Option<Piece>>> = Vec::with_capacity(height);
        for (i, text) in ranks.iter().enumerate() {
            let rank = height - 1 - i;
            let mut row: Vec<Option<Piece>> = Vec::new();
            let mut chars = text.chars().peekable();
            while let Some(ch) = chars.next() {
                let piece = match ch {
                    'W' => Piece::Amazon(Color::White),
                    'B' => Piece::Amazon(Color::Black),
                    'x' | 'X' => Piece::Arrow,
                    '0' => return Err(ZeroRun { rank: rank + 1 }),
                    '1'..='9' => {
                        let mut run = ch.to_digit(10).unwrap_or(0) as usize;
                        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                            run = (run * 10 + d as usize).min(1000);
                            chars.next();
                        }
                        let room = 1000usize.saturating_sub(row.len());
                        row.extend(std::iter::repeat_n(None, run.min(room)));
                        continue;
                    }
                    _ => return Err(BadChar { rank: rank + 1, ch }),
                };
                if row.len() < 1000 {
                    row.push(Some(piece));
                }
            }
            if let Some(top) = rows.first() {
                if row.len() != top.len() {
                    return Err(RankWidth {
                        rank: rank + 1,
                        width: row.len(),
                        expected: top.len(),
                    });
                }
            } else if !(MIN_SIZE..=MAX_SIZE).contains(&row.len()) {
                return Err(FileCount(row.len()));
            }
            rows.push(row);
        }
        let width = rows[0].len();
        let mut pos = Position::empty_rect(width, height, side);
        for (i, row) in rows.iter().enumerate() {
            for (file, piece) in row.iter().enumerate() {
                if let Some(piece) = *piece {
                    pos.put(Square::new(file, height - 1 - i), piece);
                }
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
                "10/9 w",
                RankWidth {
                    rank: 1,
                    width: 9,
                    expected: 10,
                },
            ),
            ("11/11 w", FileCount(11)),
            ("1/1 w", FileCount(1)),
            ("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3/10 w", RankCount(11)),
            ("5 w", RankCount(1)),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W4 w",
                RankWidth {
                    rank: 1,
                    width: 11,
                    expected: 10,
                },
            ),
            (
                "3B2B3/10/10/B8B/10/10/W8W/10/9/3W2W3 w",
                RankWidth {
                    rank: 2,
                    width: 9,
                    expected: 10,
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
            ("99999999999999999999/10 w", FileCount(1000)),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<Position>().as_ref(), Err(want), "{text}");
        }
    }

    #[test]
    fn rectangles() {
        let p: Position = "B3B/5/5/5/W3W/1W1W1 b".parse().unwrap();
        assert_eq!((p.width(), p.height()), (5, 6));
        assert_eq!(p.to_string(), "B3B/5/5/5/W3W/1W1W1 b");
        assert_eq!(p.board().count(), 30);
        assert_eq!(p.empty_squares().count(), 24);
        assert_eq!("10/10 w".parse::<Position>().unwrap().dims_text(), "10x2");
        assert_eq!(
            Position::named_start(6, 5).unwrap().to_string(),
            "1B2B1/B4B/6/W4W/1W2W1 w"
        );
        assert_eq!(
            Position::named_start(5, 4).unwrap().to_string(),
            "1B1B1/B3B/W3W/1W1W1 w"
        );
        assert_eq!(Position::named_start(6, 6), Position::start(6));
        assert!(Position::named_start(3, 5).is_none());
        let d = "3/1x1 w".parse::<Position>().unwrap().diagram();
        assert_eq!(
            d,
            "   a b c\n 2 . . . 2\n 1 . x . 1\n   a b c\nWhite to move"
        );
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

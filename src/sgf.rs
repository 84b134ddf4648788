//! Game records in SGF `FF[4]`, `GM[18]` (Amazons).
//!
//! Points are two lower-case letters, column then row counted from the top (`d1` on 10x10 is `dj`); a
//! move is from, to and arrow concatenated (`d1-d7/g7` by White is `;W[djddgd]`). A start other than the
//! standard one for the board size is written as setup: `AW`/`AB` amazons, `AA` arrows, `PL` side to move.
//! Rectangles are `SZ[W:H]` (W columns, H rows) and always carry their setup.

use crate::color::Color;
use crate::game::Game;
use crate::mv::{IllegalMoveError, Move};
use crate::position::{Piece, Position, MIN_SIZE};
use crate::square::{Square, MAX_SIZE};
use std::fmt;

/// Header information of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// White player's name (`PW`).
    pub white: Option<String>,
    /// Black player's name (`PB`).
    pub black: Option<String>,
    /// Result (`RE`), e.g. `W+R`, `B+T`, `W+5`.
    pub result: Option<String>,
    /// Time control (`TM` in seconds if plain, otherwise kept in `OT`-style text).
    pub time_control: Option<String>,
    /// Overtime (`OT`), e.g. `5/10 Canadian`.
    pub overtime: Option<String>,
    /// Date (`DT`), e.g. `2026-11-30`.
    pub date: Option<String>,
    /// Event or match name (`EV`).
    pub event: Option<String>,
    /// Game comment (`GC`), e.g. why the game ended.
    pub comment: Option<String>,
}

/// A record read from SGF: the game and its header.
#[derive(Clone, Debug)]
pub struct Record {
    /// Start position and moves.
    pub game: Game,
    /// Header properties.
    pub info: GameInfo,
}

/// Why an SGF text could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The text is not well-formed SGF.
    Syntax(String),
    /// `GM` names a game other than Amazons (18).
    NotAmazons(String),
    /// `SZ` is missing a usable value.
    BadSize(String),
    /// A point or move value is malformed.
    BadValue {
        /// Property name.
        property: String,
        /// Its value.
        value: String,
    },
    /// A recorded move is illegal where it is played.
    Illegal {
        /// Move number (1-based).
        number: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        error: IllegalMoveError,
    },
    /// A move by the side not on move.
    WrongColor {
        /// Move number (1-based).
        number: usize,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Syntax(m) => write!(f, "SGF syntax error: {m}"),
            SgfError::NotAmazons(gm) => write!(f, "SGF game type GM[{gm}] is not Amazons (GM[18])"),
            SgfError::BadSize(v) => write!(f, "SGF board size SZ[{v}] is not supported (2 to 10)"),
            SgfError::BadValue { property, value } => {
                write!(f, "SGF property {property}[{value}] has a bad value")
            }
            SgfError::Illegal { number, mv, error } => {
                write!(f, "SGF move {number} ({mv}) is illegal: {error}")
            }
            SgfError::WrongColor { number } => {
                write!(f, "SGF move {number} is played by the side not on move")
            }
        }
    }
}

impl std::error::Error for SgfError {}

/// An SGF point: column letter from `a`, row letter from `a` at the top rank (`height` ranks).
fn point(sq: Square, height: usize) -> String {
    let col = (b'a' + sq.file() as u8) as char;
    let row = (b'a' + (height - 1 - sq.rank()) as u8) as char;
    format!("{col}{row}")
}

fn parse_point(text: &[u8], (width, height): (usize, usize)) -> Option<Square> {
    let (c, r) = (text.first()?, text.get(1)?);
    let file = c.checked_sub(b'a')? as usize;
    let row = r.checked_sub(b'a')? as usize;
    (file < width && row < height).then(|| Square::new(file, height - 1 - row))
}

/// Reads `SZ[N]` (a square board) or `SZ[W:H]` (W columns, H rows).
fn parse_size(value: &str) -> Option<(usize, usize)> {
    let v = value.trim();
    let (w, h) = match v.split_once(':') {
        Some((w, h)) => (w.trim().parse().ok()?, h.trim().parse().ok()?),
        None => {
            let n = v.parse().ok()?;
            (n, n)
        }
    };
    let ok = |n: usize| (MIN_SIZE..=MAX_SIZE).contains(&n);
    (ok(w) && ok(h)).then_some((w, h))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes `game` with header `info` as an SGF record.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let start = game.start();
    let size = start.height();
    let sz = match start.square_size() {
        Some(n) => n.to_string(),
        None => format!("{}:{}", start.width(), start.height()),
    };
    let mut out = format!(
        "(;FF[4]GM[18]SZ[{sz}]AP[Otrera:{}]",
        env!("CARGO_PKG_VERSION")
    );
    let props = [
        ("PW", &info.white),
        ("PB", &info.black),
        ("RE", &info.result),
        ("TM", &info.time_control),
        ("OT", &info.overtime),
        ("DT", &info.date),
        ("EV", &info.event),
        ("GC", &info.comment),
    ];
    for (name, value) in props {
        if let Some(v) = value {
            out.push_str(&format!("{name}[{}]", escape(v)));
        }
    }
    // Rectangles always carry their setup: other programs know no standard start for them.
    if start.square_size().and_then(Position::start).as_ref() != Some(start) {
        let groups = [
            ("AW", start.amazons(Color::White)),
            ("AB", start.amazons(Color::Black)),
            ("AA", start.arrows()),
        ];
        for (name, squares) in groups {
            if !squares.is_empty() {
                out.push_str(name);
                for sq in squares {
                    out.push_str(&format!("[{}]", point(sq, size)));
                }
            }
        }
        let pl = if start.side_to_move() == Color::White {
            "W"
        } else {
            "B"
        };
        out.push_str(&format!("PL[{pl}]"));
    }
    let mut side = start.side_to_move();
    for (i, m) in game.moves().iter().enumerate() {
        if i % 10 == 0 {
            out.push('\n');
        }
        let c = if side == Color::White { 'W' } else { 'B' };
        out.push_str(&format!(
            ";{c}[{}{}{}]",
            point(m.from, size),
            point(m.to, size),
            point(m.arrow, size)
        ));
        side = !side;
    }
    out.push_str(")\n");
    out
}

/// One node's properties, in order.
type Node = Vec<(String, Vec<String>)>;

/// Reads the main line (first variation at each branch) of the first game tree in `text`.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let b = text.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i >= b.len() || b[i] != b'(' {
        return Err(SgfError::Syntax("a record starts with '('".into()));
    }
    i += 1;
    let mut nodes = Vec::new();
    // The main line takes the first variation at every branch, so it ends at the first ')' that
    // does not close the whole tree; every node after that belongs to another variation.
    let mut depth = 1usize;
    let mut skipping = false;
    loop {
        skip_ws(&mut i);
        let Some(&c) = b.get(i) else {
            return Err(SgfError::Syntax(
                "unexpected end of record (missing ')')".into(),
            ));
        };
        match c {
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return Ok(nodes);
                }
                skipping = true;
            }
            b';' => {
                i += 1;
                let mut node: Node = Vec::new();
                loop {
                    skip_ws(&mut i);
                    let start = i;
                    while i < b.len() && b[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    if i == start {
                        break;
                    }
                    let name = text[start..i].to_string();
                    let mut values = Vec::new();
                    loop {
                        skip_ws(&mut i);
                        if b.get(i) != Some(&b'[') {
                            break;
                        }
                        i += 1;
                        let mut v = Vec::new();
                        loop {
                            match b.get(i) {
                                None => {
                                    return Err(SgfError::Syntax(format!(
                                        "unterminated value of {name}"
                                    )))
                                }
                                Some(b'\\') => {
                                    if let Some(&e) = b.get(i + 1) {
                                        v.push(e);
                                    }
                                    i += 2;
                                }
                                Some(b']') => {
                                    i += 1;
                                    break;
                                }
                                Some(&ch) => {
                                    v.push(ch);
                                    i += 1;
                                }
                            }
                        }
                        values.push(String::from_utf8_lossy(&v).into_owned());
                    }
                    if values.is_empty() {
                        return Err(SgfError::Syntax(format!("property {name} has no value")));
                    }
                    node.push((name, values));
                }
                if !skipping {
                    nodes.push(node);
                }
            }
            other => {
                return Err(SgfError::Syntax(format!(
                    "unexpected character '{}'",
                    (other as char).escape_debug()
                )))
            }
        }
    }
}

/// Reads an SGF record: the start position (standard for `SZ`, or the setup) and the moves.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    let nodes = main_line(text)?;
    let root = nodes
        .first()
        .ok_or_else(|| SgfError::Syntax("no nodes".into()))?;
    let get = |node: &Node, name: &str| -> Option<Vec<String>> {
        node.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    let first = |name: &str| get(root, name).and_then(|v| v.into_iter().next());
    if let Some(gm) = first("GM") {
        if gm.trim() != "18" {
            return Err(SgfError::NotAmazons(gm));
        }
    }
    let size = match first("SZ") {
        None => (10, 10),
        Some(v) => parse_size(&v).ok_or(SgfError::BadSize(v))?,
    };
    let (width, height) = size;
    let setup = ["AW", "AB", "AA"].iter().any(|p| get(root, p).is_some());
    let mut start = if setup {
        let side = match first("PL").as_deref().map(str::trim) {
            Some("B" | "b") => Color::Black,
            _ => Color::White,
        };
        let mut p = Position::empty_rect(width, height, side);
        for (name, piece) in [
            ("AW", Piece::Amazon(Color::White)),
            ("AB", Piece::Amazon(Color::Black)),
            ("AA", Piece::Arrow),
        ] {
            for v in get(root, name).unwrap_or_default() {
                let bad = || SgfError::BadValue {
                    property: name.into(),
                    value: v.clone(),
                };
                let sq = parse_point(v.trim().as_bytes(), size).ok_or_else(bad)?;
                if p.piece_at(sq).is_some() || v.trim().len() != 2 {
                    return Err(bad());
                }
                p.put(sq, piece);
            }
        }
        p
    } else {
        Position::named_start(width, height)
            .ok_or_else(|| SgfError::BadSize(format!("{width}:{height}")))?
    };
    // Without PL, a setup's side to move is the colour of the first move.
    let first_mover = nodes
        .iter()
        .skip(1)
        .chain(std::iter::once(root))
        .find_map(|n| {
            if get(n, "W").is_some() {
                Some(Color::White)
            } else if get(n, "B").is_some() {
                Some(Color::Black)
            } else {
                None
            }
        });
    if setup && first("PL").is_none() && first_mover == Some(Color::Black) {
        let mut p = Position::empty_rect(width, height, Color::Black);
        for sq in start.amazons(Color::White) {
            p.put(sq, Piece::Amazon(Color::White));
        }
        for sq in start.amazons(Color::Black) {
            p.put(sq, Piece::Amazon(Color::Black));
        }
        for sq in start.arrows() {
            p.put(sq, Piece::Arrow);
        }
        start = p;
    }
    let mut game = Game::new(start);
    let mut number = 0;
    for node in &nodes {
        for (name, values) in node {
            let color = match name.as_str() {
                "W" => Color::White,
                "B" => Color::Black,
                _ => continue,
            };
            number += 1;
            let v = values[0].trim();
            let bad = || SgfError::BadValue {
                property: name.clone(),
                value: v.to_string(),
            };
            if v.len() != 6 {
                return Err(bad());
            }
            let sq = |k: usize| parse_point(&v.as_bytes()[k..k + 2], size).ok_or_else(bad);
            let mv = Move::new(sq(0)?, sq(2)?, sq(4)?);
            if game.position().side_to_move() != color {
                return Err(SgfError::WrongColor { number });
            }
            game.play(mv)
                .map_err(|error| SgfError::Illegal { number, mv, error })?;
        }
    }
    let text_of = |name: &str| first(name);
    let info = GameInfo {
        white: text_of("PW"),
        black: text_of("PB"),
        result: text_of("RE"),
        time_control: text_of("TM"),
        overtime: text_of("OT"),
        date: text_of("DT"),
        event: text_of("EV"),
        comment: text_of("GC"),
    };
    Ok(Record { game, info })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn example_move_point_names() {
        let mut g = Game::new(Position::standard());
        g.play(Move::parse("d1-d7/g7", 10).unwrap()).unwrap();
        let text = write(&g, &GameInfo::default());
        assert!(text.contains(";W[djddgd]"), "{text}");
        assert!(
            !text.contains("AW"),
            "the standard start needs no setup: {text}"
        );
    }

    #[test]
    fn round_trip_random_games() {
        let mut rng = StdRng::seed_from_u64(9);
        for size in [6, 8, 10] {
            let mut g = Game::new(Position::start(size).unwrap());
            while let Some(m) = g.position().random_move(&mut rng) {
                g.play(m).unwrap();
            }
            let info = GameInfo {
                white: Some("a]b\\c".into()),
                result: Some("B+R".into()),
                ..Default::default()
            };
            let back = parse(&write(&g, &info)).unwrap();
            assert_eq!(back.game.moves(), g.moves());
            assert_eq!(back.game.position(), g.position());
            assert_eq!(back.info, info);
        }
    }

    #[test]
    fn setup_positions_round_trip() {
        let start: Position = "B1xxx/xxxxx/5/xWxxx/1x1xx b".parse().unwrap();
        let mut g = Game::new(start.clone());
        g.play(Move::parse("a5-b5/a5", 5).unwrap()).unwrap();
        let text = write(&g, &GameInfo::default());
        assert!(text.contains("PL[B]"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(back.game.start(), &start);
        assert_eq!(back.game.position(), g.position());
    }

    #[test]
    fn rectangles_round_trip() {
        let mut rng = StdRng::seed_from_u64(3);
        for (w, h) in [(5, 6), (7, 4), (4, 5)] {
            let mut g = Game::new(Position::named_start(w, h).unwrap());
            while let Some(m) = g.position().random_move(&mut rng) {
                g.play(m).unwrap();
            }
            let text = write(&g, &GameInfo::default());
            assert!(text.contains(&format!("SZ[{w}:{h}]")), "{text}");
            let back = parse(&text).unwrap();
            assert_eq!(back.game.moves(), g.moves());
            assert_eq!(back.game.position(), g.position());
        }
        // Without setup a rectangle starts from its named start.
        let back = parse("(;GM[18]SZ[5:4];W[acbccc])").unwrap();
        assert_eq!(back.game.start(), &Position::named_start(5, 4).unwrap());
        assert_eq!(back.game.moves().len(), 1);
    }

    #[test]
    fn bad_records_are_rejected() {
        let cases = [
            ("", "starts with"),
            ("(;GM[1]SZ[10])", "not Amazons"),
            ("(;GM[18]SZ[12])", "not supported"),
            ("(;GM[18]SZ[5:11])", "not supported"),
            ("(;GM[18]SZ[5:])", "not supported"),
            ("(;GM[18]SZ[10];W[djdd])", "bad value"),
            ("(;GM[18]SZ[10];W[djddgd];W[ajaiah])", "side not on move"),
            ("(;GM[18]SZ[10];W[ejddgd])", "illegal"),
            ("(;GM[18]SZ[10];W[djddgd]", "missing ')'"),
            ("(;GM[18]SZ[10];W[djddgd", "unterminated"),
            ("(;GM[18]SZ[10]AW[zz])", "bad value"),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn variations_follow_the_main_line() {
        let text = "(;GM[18]SZ[10];W[djddgd](;B[adabac])(;B[jdjcjb]))";
        let r = parse(text).unwrap();
        assert_eq!(r.game.moves().len(), 2);
        assert_eq!(r.game.moves()[1].to_string(), "a7-a9/a8");
    }
}

//! The self-play data format, version 1: JSON lines, one searched position per line.
//!
//! ```text
//! {"format":"otrera-selfplay","version":1,"game":7,"ply":12,
//!  "position":"3B2B3/10/... b","to_move":"b","playouts":2000,"value":0.4713,"result":0,
//!  "visits":[["d10-d4/g4",812],["g10-e8/e2",301],...]}
//! ```
//! (on one line). `game` numbers the game across shards, `ply` counts plies from the standard
//! start, `position` is the position string (`protocol.md`), `to_move` its side to move, `playouts`
//! the search budget, `value` the search's win probability for the side to move (`null` when it
//! gave none), `result` 1 if the side to move went on to win the game and 0 if it lost, and
//! `visits` every root child the search visited with its visit count, most visited first (empty
//! when the move came from the exact endgame solver without a search). Readers reject other
//! formats and versions, and name the file, line and column of anything malformed.

use crate::json::{self, Value};
use crate::mv::Move;
use crate::position::Position;
use std::fmt;

/// The `format` field of every line.
pub const FORMAT: &str = "otrera-selfplay";
/// The `version` field this build writes and reads.
pub const VERSION: u64 = 1;

/// One searched position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Game number (unique across shards of one run).
    pub game: u64,
    /// Plies played from the standard start.
    pub ply: u32,
    /// The position searched.
    pub position: Position,
    /// The playout budget of the search (0 for a time budget's searches or solver moves).
    pub playouts: u64,
    /// The search's win probability for the side to move.
    pub value: Option<f64>,
    /// 1.0 if the side to move won the game, 0.0 if it lost.
    pub result: f64,
    /// Visited root moves and their visit counts, most visited first.
    pub visits: Vec<(Move, u64)>,
}

impl Record {
    /// The record as one JSON line (without the newline).
    pub fn to_json(&self) -> String {
        let visits: Vec<String> = self
            .visits
            .iter()
            .map(|(m, n)| format!("[\"{m}\",{n}]"))
            .collect();
        let value = self.value.map_or("null".into(), |v| format!("{v:.4}"));
        format!(
            concat!(
                "{{\"format\":\"{}\",\"version\":{},\"game\":{},\"ply\":{},\"position\":\"{}\",",
                "\"to_move\":\"{}\",\"playouts\":{},\"value\":{},\"result\":{},\"visits\":[{}]}}"
            ),
            FORMAT,
            VERSION,
            self.game,
            self.ply,
            self.position,
            self.position.side_to_move().letter().to_ascii_lowercase(),
            self.playouts,
            value,
            self.result,
            visits.join(",")
        )
    }

    /// Reads one line; the error says what is wrong (the caller adds where).
    pub fn parse(line: &str) -> Result<Record, String> {
        let v = json::parse(line).map_err(|e| e.to_string())?;
        let field = |key: &str| v.get(key).ok_or_else(|| format!("missing field \"{key}\""));
        let uint = |key: &str| {
            field(key)?
                .as_u64()
                .ok_or_else(|| format!("\"{key}\" must be a non-negative integer"))
        };
        match field("format")?.as_str() {
            Some(FORMAT) => {}
            other => return Err(format!("\"format\" is {other:?}, not \"{FORMAT}\"")),
        }
        let version = uint("version")?;
        if version != VERSION {
            return Err(format!(
                "data version {version} is not supported (this build reads version {VERSION})"
            ));
        }
        let text = field("position")?
            .as_str()
            .ok_or("\"position\" must be a string")?;
        let position: Position = text
            .parse()
            .map_err(|e| format!("bad position \"{text}\": {e}"))?;
        let to_move = field("to_move")?.as_str().unwrap_or("");
        if !to_move.eq_ignore_ascii_case(&position.side_to_move().letter().to_string()) {
            return Err(format!(
                "\"to_move\" {to_move:?} does not match the position's side to move"
            ));
        }
        let value = match field("value")? {
            Value::Null => None,
            x => Some(
                x.as_f64()
                    .filter(|p| (0.0..=1.0).contains(p))
                    .ok_or("\"value\" must be null or a number from 0 to 1")?,
            ),
        };
        let result = match field("result")?.as_f64() {
            Some(r) if r == 0.0 || r == 1.0 => r,
            _ => return Err("\"result\" must be 0 or 1".into()),
        };
        let list = field("visits")?
            .as_array()
            .ok_or("\"visits\" must be an array")?;
        let mut visits = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            let bad = || format!("visits[{i}] must be [\"move\", count]");
            let pair = item.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
            let mtext = pair[0].as_str().ok_or_else(bad)?;
            let count = pair[1].as_u64().ok_or_else(bad)?;
            let m = Move::parse_rect(mtext, position.width(), position.height())
                .map_err(|e| format!("visits[{i}]: bad move \"{mtext}\": {e}"))?;
            position
                .check_move(m)
                .map_err(|e| format!("visits[{i}]: illegal move {mtext}: {e}"))?;
            visits.push((m, count));
        }
        let ply = uint("ply")?;
        Ok(Record {
            game: uint("game")?,
            ply: u32::try_from(ply).map_err(|_| "\"ply\" is too large")?,
            position,
            playouts: uint("playouts")?,
            value,
            result,
            visits,
        })
    }
}

/// A data file that cannot be read, with the place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The file.
    pub file: String,
    /// 1-based line number (0 when the file itself cannot be read).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for DataError {}

/// Reads the records of `text` (the contents of `file`). Blank lines are skipped; a last line
/// without its newline that does not parse is reported as truncated.
pub fn parse_records(file: &str, text: &str) -> Result<Vec<Record>, DataError> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let last_unterminated = i + 1 == lines.len();
        let r = Record::parse(line).map_err(|message| DataError {
            file: file.to_string(),
            line: i + 1,
            message: if last_unterminated {
                format!("{message} (the last line has no newline: is the file truncated?)")
            } else {
                message
            },
        })?;
        out.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let position = Position::standard();
        Record {
            game: 3,
            ply: 0,
            playouts: 100,
            value: Some(0.5625),
            result: 1.0,
            visits: vec![
                (Move::parse("d1-d7/g7", 10).unwrap(), 60),
                (Move::parse("g1-g7/d7", 10).unwrap(), 40),
            ],
            position,
        }
    }

    #[test]
    fn records_round_trip() {
        let r = sample();
        let line = r.to_json();
        assert!(line.starts_with("{\"format\":\"otrera-selfplay\",\"version\":1,"));
        assert_eq!(Record::parse(&line).unwrap(), r);
        let text = format!("{line}\n\n{line}\n");
        assert_eq!(parse_records("x", &text).unwrap().len(), 2);
    }

    #[test]
    fn corrupt_input_is_rejected_with_its_place() {
        let line = sample().to_json();
        let check = |text: String, want_line: usize, want: &str| {
            let e = parse_records("data.jsonl", &text).unwrap_err();
            assert_eq!(e.line, want_line, "{e}");
            let msg = e.to_string();
            assert!(
                msg.starts_with(&format!("data.jsonl:{want_line}: ")),
                "{msg}"
            );
            assert!(msg.contains(want), "{msg} lacks {want}");
        };
        // Cut in the middle of the second line.
        check(
            format!("{line}\n{}", &line[..line.len() / 2]),
            2,
            "truncated",
        );
        check(
            format!(
                "{line}\n{}\n",
                line.replace("\"version\":1", "\"version\":2")
            ),
            2,
            "version 2 is not supported",
        );
        check(line.replace("d1-d7/g7", "d1-d7/d1x"), 1, "bad move");
        check(line.replace("d1-d7/g7", "d1-d9/d10"), 1, "illegal move");
        check(
            line.replace("\"result\":1", "\"result\":2"),
            1,
            "\"result\"",
        );
        check(line.replace(",\"ply\":0", ""), 1, "missing field \"ply\"");
        check(line.replace("3W2W3 w", "3W2W3 q"), 1, "bad position");
        check(
            format!("{line}\n{{\"a\" 1}}\n"),
            2,
            "column 6: expected ':'",
        );
    }
}

//! The compact self-play format: the same records as the JSON lines of `record.rs` in about a
//! quarter of the space, written a whole game at a time so that a run that is stopped can resume.
//!
//! ```text
//! file   = "OTRERASP" u32:version u32:n header[n] block*
//! header = the run's settings as text ("seed 7\nshard 0/1\n..."): a resumed run must match them
//! block  = u32:len payload[len] u64:fnv1a(payload)      one game
//! payload= varint:records record*
//! record = varint:game varint:ply u8:n position[n] varint:playouts u16:value u8:result
//!          varint:moves (u8:from u8:to u8:arrow varint:visits)*
//! ```
//! Integers are little-endian, `varint` is LEB128, a position is its text (`protocol.md`), squares
//! are their indices (`square.rs`), `value` is the search value times 65534 rounded (65535: none).

use super::record::{DataError, Record};
use crate::mv::Move;
use crate::net::checksum::fnv1a as checksum;
use crate::square::{Square, NUM_INDICES};
use std::io::Write;

/// The first bytes of every binary self-play file.
pub const MAGIC: &[u8; 8] = b"OTRERASP";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
const NO_VALUE: u16 = u16::MAX;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The file's first bytes: magic, version and the run's settings.
pub fn file_header(settings: &str) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(settings.len() as u32).to_le_bytes());
    b.extend_from_slice(settings.as_bytes());
    b
}

/// One game's block.
pub fn game_block(records: &[Record]) -> Vec<u8> {
    let mut p = Vec::with_capacity(200 * records.len());
    put_varint(&mut p, records.len() as u64);
    for r in records {
        put_varint(&mut p, r.game);
        put_varint(&mut p, u64::from(r.ply));
        let text = r.position.to_string();
        p.push(text.len() as u8);
        p.extend_from_slice(text.as_bytes());
        put_varint(&mut p, r.playouts);
        let value = r
            .value
            .map_or(NO_VALUE, |v| (v.clamp(0.0, 1.0) * 65534.0).round() as u16);
        p.extend_from_slice(&value.to_le_bytes());
        p.push(r.result as u8);
        put_varint(&mut p, r.visits.len() as u64);
        for (m, n) in &r.visits {
            p.extend_from_slice(&[
                m.from.index() as u8,
                m.to.index() as u8,
                m.arrow.index() as u8,
            ]);
            put_varint(&mut p, *n);
        }
    }
    let mut b = Vec::with_capacity(p.len() + 12);
    b.extend_from_slice(&(p.len() as u32).to_le_bytes());
    b.extend_from_slice(&p);
    b.extend_from_slice(&checksum(&p).to_le_bytes());
    b
}

/// Appends one game to `out`.
pub fn write_game(out: &mut dyn Write, records: &[Record]) -> std::io::Result<()> {
    out.write_all(&game_block(records))
}

/// A reader over a payload.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("a record runs past the end of its game")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a number is too long".into())
    }

    fn square(&mut self) -> Result<Square, String> {
        let i = self.byte()? as usize;
        if i >= NUM_INDICES {
            return Err(format!("square index {i} is off the board"));
        }
        Ok(Square::from_index(i))
    }
}

fn parse_payload(p: &[u8]) -> Result<Vec<Record>, String> {
    let mut c = Cursor { bytes: p, at: 0 };
    let n = c.varint()?;
    let mut out = Vec::new();
    for _ in 0..n {
        let game = c.varint()?;
        let ply = u32::try_from(c.varint()?).map_err(|_| "ply out of range")?;
        let len = c.byte()? as usize;
        let text = std::str::from_utf8(c.take(len)?).map_err(|_| "a position is not text")?;
        let position = text
            .parse()
            .map_err(|e| format!("position '{text}': {e}"))?;
        let playouts = c.varint()?;
        let v = u16::from_le_bytes([c.byte()?, c.byte()?]);
        let value = (v != NO_VALUE).then(|| f64::from(v) / 65534.0);
        let result = match c.byte()? {
            0 => 0.0,
            1 => 1.0,
            r => return Err(format!("result {r} is not 0 or 1")),
        };
        let moves = c.varint()?;
        let mut visits = Vec::new();
        for _ in 0..moves {
            let m = Move::new(c.square()?, c.square()?, c.square()?);
            visits.push((m, c.varint()?));
        }
        out.push(Record {
            game,
            ply,
            position,
            playouts,
            value,
            result,
            visits,
        });
    }
    if c.at != p.len() {
        return Err("extra bytes after the last record of a game".into());
    }
    Ok(out)
}

/// A binary file's contents: the run's settings, the games, and where the complete games end.
#[derive(Debug)]
pub struct Contents {
    /// The settings text of the header.
    pub settings: String,
    /// The records of every complete game, game by game.
    pub games: Vec<Vec<Record>>,
    /// Bytes up to the end of the last complete game.
    pub complete_len: u64,
    /// Whether an incomplete game follows (a run stopped while writing).
    pub incomplete_tail: bool,
}

/// Reads a binary file's bytes. A damaged game is an error; an incomplete last game (a run
/// stopped while writing it) is reported in `incomplete_tail` and not returned.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Contents, DataError> {
    let err = |at: usize, message: String| DataError {
        file: file.to_string(),
        line: 0,
        message: format!("byte {at}: {message}"),
    };
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(err(
            0,
            "not a binary self-play file (no OTRERASP magic)".into(),
        ));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(err(
            8,
            format!("format version {version}; this build reads version {VERSION}"),
        ));
    }
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let settings = bytes
        .get(16..16 + n)
        .and_then(|s| std::str::from_utf8(s).ok())
        .ok_or_else(|| err(12, "the header is truncated or not text".into()))?
        .to_string();
    let mut at = 16 + n;
    let mut games = Vec::new();
    let mut incomplete_tail = false;
    while at < bytes.len() {
        let Some(len) = bytes.get(at..at + 4) else {
            incomplete_tail = true;
            break;
        };
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        let Some(block) = bytes.get(at + 4..at + 4 + len + 8) else {
            incomplete_tail = true;
            break;
        };
        let (payload, sum) = block.split_at(len);
        if checksum(payload) != u64::from_le_bytes(sum.try_into().unwrap()) {
            return Err(err(
                at,
                format!("game {} is corrupt (checksum)", games.len()),
            ));
        }
        games.push(parse_payload(payload).map_err(|m| err(at, m))?);
        at += 4 + len + 8;
    }
    let complete_len = if incomplete_tail { at } else { bytes.len() } as u64;
    Ok(Contents {
        settings,
        games,
        complete_len,
        incomplete_tail,
    })
}

/// Whether `bytes` start like a binary self-play file.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The records of a binary file's bytes, for training: every game, or an error that names the
/// file (an incomplete last game too: stop the run, or resume it to the end, before training).
pub fn records(file: &str, bytes: &[u8]) -> Result<Vec<Record>, DataError> {
    let c = parse(file, bytes)?;
    if c.incomplete_tail {
        return Err(DataError {
            file: file.to_string(),
            line: 0,
            message: format!(
                "byte {}: the last game is incomplete (is a run still writing it? `selfplay --resume` completes it)",
                c.complete_len
            ),
        });
    }
    Ok(c.games.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn game(g: u64) -> Vec<Record> {
        let pos = Position::standard();
        let m = Move::parse("d1-d7/d8", 10).unwrap();
        let mut after = pos.clone();
        after.play(m).unwrap();
        vec![
            Record {
                game: g,
                ply: 4,
                position: pos,
                playouts: 2000,
                value: Some(0.5),
                result: 1.0,
                visits: vec![(m, 1500), (Move::parse("g1-g7/g8", 10).unwrap(), 300)],
            },
            Record {
                game: g,
                ply: 5,
                position: after,
                playouts: 0,
                value: None,
                result: 0.0,
                visits: vec![],
            },
        ]
    }

    #[test]
    fn games_round_trip_and_a_cut_tail_is_found() {
        let mut bytes = file_header("seed 1\n");
        bytes.extend(game_block(&game(0)));
        let first_end = bytes.len() as u64;
        bytes.extend(game_block(&game(3)));
        let c = parse("t", &bytes).unwrap();
        assert_eq!(c.settings, "seed 1\n");
        assert_eq!(c.games, vec![game(0), game(3)]);
        assert!(!c.incomplete_tail);
        for cut in [1, 9, 20] {
            let c = parse("t", &bytes[..bytes.len() - cut]).unwrap();
            assert_eq!(c.games, vec![game(0)]);
            assert!(c.incomplete_tail);
            assert_eq!(c.complete_len, first_end);
        }
    }

    #[test]
    fn damage_is_refused_with_its_place() {
        let mut bytes = file_header("");
        bytes.extend(game_block(&game(0)));
        let mut bad = bytes.clone();
        bad[30] ^= 0x40;
        let e = parse("f.osp", &bad).unwrap_err().to_string();
        assert!(e.starts_with("f.osp: byte 16: game 0 is corrupt"), "{e}");
        let e = parse("f.osp", b"{\"format\"").unwrap_err().to_string();
        assert!(e.contains("not a binary self-play file"), "{e}");
        let mut v2 = bytes.clone();
        v2[8] = 2;
        let e = parse("f.osp", &v2).unwrap_err().to_string();
        assert!(e.contains("format version 2"), "{e}");
    }
}

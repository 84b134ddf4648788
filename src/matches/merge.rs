//! `otrera match --merge A.jsonl B.jsonl ...`: the score, Elo, LOS and SPRT of several match
//! runs (typically the shards of one array job, `--shard I/N`) recomputed from their per-game
//! JSON lines. Games pair up within their own file, as they were played.

use super::outcome::{ForfeitKind, Outcome, Termination};
use super::report::elo_line;
use super::sprt::{Sprt, SprtStatus};
use super::tally::Tally;
use crate::color::Color;
use crate::json;
use std::fmt::Write;
use std::path::PathBuf;

/// A termination from its JSON key.
fn termination(key: &str) -> Option<Termination> {
    match key {
        "normal" => Some(Termination::NoMoves),
        "resign" => Some(Termination::Resignation),
        "adjudicated" => Some(Termination::Adjudication),
        _ => ForfeitKind::ALL
            .iter()
            .find(|k| k.key() == key)
            .map(|&k| Termination::Forfeit(k)),
    }
}

/// The merged tally, the SPRT to report (the given one, or that of the first summary line), and
/// the number of files.
pub struct Merged {
    /// Every game of every file.
    pub tally: Tally,
    /// The test whose state is reported.
    pub sprt: Option<Sprt>,
    /// Files read.
    pub files: usize,
}

/// Reads the game lines of `files` into one tally. Errors name the file and line.
pub fn merge(files: &[PathBuf], sprt: Option<Sprt>) -> Result<Merged, String> {
    let mut tally: Option<Tally> = None;
    let mut sprt = sprt;
    let mut offset = 0usize;
    for path in files {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let mut last_game = 0usize;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |m: String| format!("{name}:{}: {m}", i + 1);
            let v = json::parse(line).map_err(|e| at(e.to_string()))?;
            let field = |k: &str| {
                v.get(k)
                    .and_then(|x| x.as_str())
                    .ok_or_else(|| at(format!("missing text field \"{k}\"")))
            };
            match v.get("type").and_then(|t| t.as_str()) {
                Some("game") => {}
                Some("summary") => {
                    if sprt.is_none() {
                        if let Some(p) = v.get("sprt").and_then(|s| s.get("parameters")) {
                            let words: Vec<&str> =
                                p.as_str().unwrap_or("").split_whitespace().collect();
                            sprt = Some(Sprt::parse(&words).map_err(|e| at(e.to_string()))?);
                        }
                    }
                    continue;
                }
                _ => return Err(at("not a match JSON line (no \"type\")".into())),
            }
            let game = v
                .get("game")
                .and_then(|g| g.as_u64())
                .filter(|&g| g >= 1)
                .ok_or_else(|| at("bad \"game\" number".into()))? as usize;
            let index = offset + game - 1;
            last_game = last_game.max(game);
            let (white, black) = (field("white")?, field("black")?);
            let t = tally.get_or_insert_with(|| {
                // Engine 0 plays White in even-numbered games.
                let names = if index.is_multiple_of(2) {
                    [white, black]
                } else {
                    [black, white]
                };
                Tally::new(names.map(str::to_string))
            });
            let want_white = &t.names[Tally::engine_playing(index, Color::White)];
            if want_white != white || t.names[Tally::engine_playing(index, Color::Black)] != black {
                return Err(at(format!(
                    "game {game} is {white} vs {black}, another pairing than {} vs {}",
                    t.names[0], t.names[1]
                )));
            }
            let winner = Color::parse(field("winner_color")?)
                .ok_or_else(|| at("bad \"winner_color\"".into()))?;
            let termination = termination(field("termination")?)
                .ok_or_else(|| at("unknown \"termination\"".into()))?;
            t.record(
                index,
                &Outcome {
                    winner,
                    termination,
                    reason: String::new(),
                    margin: None,
                },
            );
        }
        // The next file's games start at an even index, so pairs never span files.
        offset += last_game.div_ceil(2) * 2;
    }
    let tally = tally.ok_or("no games in the files")?;
    Ok(Merged {
        tally,
        sprt,
        files: files.len(),
    })
}

impl Merged {
    /// The summary: score, Elo, LOS, pairs and SPRT state, as the match runner reports them.
    pub fn summary(&self) -> String {
        let t = &self.tally;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Merged {} files: {} vs {}, {} games",
            self.files,
            t.names[0],
            t.names[1],
            t.games()
        );
        for e in 0..2 {
            let (w, l) = (t.total_wins(e), t.total_losses(e));
            let _ = writeln!(
                s,
                "{}: {} wins, {} losses ({:.1}%), {} forfeits",
                t.names[e],
                w,
                l,
                100.0 * w as f64 / (w + l).max(1) as f64,
                t.total_forfeits(e)
            );
        }
        if let Some(e) = t.elo() {
            let _ = writeln!(s, "{}", elo_line(t, &e));
        }
        let c = t.penta.counts;
        let _ = writeln!(
            s,
            "Pairs [LL, LD, WL+DD, WD, WW] for {}: [{}, {}, {}, {}, {}]",
            t.names[0], c[0], c[1], c[2], c[3], c[4]
        );
        if let Some(sp) = &self.sprt {
            let (lo, hi) = sp.bounds();
            let llr = sp.llr(&t.penta);
            let _ = writeln!(
                s,
                "SPRT ({}): LLR {:.2} ({:.2}, {:.2}): {}",
                sp.describe(),
                llr,
                lo,
                hi,
                match sp.status(llr) {
                    SprtStatus::AcceptH1 => "H1 accepted",
                    SprtStatus::AcceptH0 => "H0 accepted",
                    SprtStatus::Continue => "continue",
                }
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: usize, white: &str, black: &str, winner: &str) -> String {
        format!(
            concat!(
                "{{\"type\":\"game\",\"game\":{},\"pair\":{},\"white\":\"{}\",\"black\":\"{}\",",
                "\"winner\":\"x\",\"winner_color\":\"{}\",\"result\":\"\",\"termination\":\"normal\"}}"
            ),
            n,
            n.div_ceil(2),
            white,
            black,
            winner
        )
    }

    #[test]
    fn merges_shards_into_one_tally() {
        let dir = std::env::temp_dir().join(format!("otrera-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.jsonl");
        let b = dir.join("b.jsonl");
        // File a: new wins both games of its pair; file b: one game each.
        std::fs::write(
            &a,
            [
                game(1, "new", "base", "white"),
                game(2, "base", "new", "black"),
            ]
            .join("\n"),
        )
        .unwrap();
        std::fs::write(
            &b,
            [
                game(2, "base", "new", "white"),
                game(1, "new", "base", "white"),
                "{\"type\":\"summary\",\"sprt\":{\"parameters\":\"elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic\"}}".into(),
            ]
            .join("\n"),
        )
        .unwrap();
        let m = merge(&[a.clone(), b.clone()], None).unwrap();
        assert_eq!(m.tally.names, ["new".to_string(), "base".to_string()]);
        assert_eq!(m.tally.games(), 4);
        assert_eq!(m.tally.total_wins(0), 3);
        assert_eq!(m.tally.penta.counts, [0, 0, 1, 0, 1]);
        let text = m.summary();
        assert!(text.contains("SPRT (elo0=0 elo1=10"), "{text}");
        // A file with another pairing, or a corrupt line, is an error naming the place.
        std::fs::write(&b, game(1, "other", "base", "white")).unwrap();
        let e = merge(&[a.clone(), b.clone()], None).err().unwrap();
        assert!(e.contains("b.jsonl:1: game 1 is other vs base"), "{e}");
        std::fs::write(&b, "{\"type\":\"game\",\"game\":").unwrap();
        let e = merge(&[a, b], None).err().unwrap();
        assert!(e.contains("b.jsonl:1: column"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

//! A small GTP engine for testing match runners: it plays random legal moves, and can be told to
//! misbehave in one particular way after a number of good moves.
//!
//! ```text
//! fake_engine [--name NAME] [--seed N] [--think SECONDS]
//!             [--misbehave KIND] [--after N] [--sleep SECONDS]
//! ```
//! KIND is one of: `illegal` (a readable move from an empty square), `garbage` (text that is not a
//! move), `noise` (a line that is not a GTP response), `crash` (exit with status 3), `hang` (never
//! answer), `slow` (sleep `--sleep` seconds, then answer a legal move), `refuse` (`?` to genmove),
//! `resign`, `reject-play` (`?` to the opponent's moves), `bad-protocol` (protocol version 1).
//! The misbehaviour happens at the genmove after `--after` good ones (default 0: the first), or for
//! `reject-play` at the first `play` after that many genmoves.

use hippolyta::{Color, Move, Position, Square};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::{self, BufRead, Write};
use std::time::Duration;

struct Options {
    name: String,
    seed: u64,
    think: Duration,
    misbehave: Option<String>,
    after: u64,
    sleep: Duration,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        name: "fake".into(),
        seed: 0,
        think: Duration::ZERO,
        misbehave: None,
        after: 0,
        sleep: Duration::from_secs(5),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or(format!("{} needs a value", args[i]))?;
        let secs = || -> Result<Duration, String> {
            value
                .parse::<f64>()
                .map(Duration::from_secs_f64)
                .map_err(|e| format!("{}: {e}", args[i]))
        };
        match args[i].as_str() {
            "--name" => o.name = value.clone(),
            "--seed" => o.seed = value.parse().map_err(|e| format!("--seed: {e}"))?,
            "--think" => o.think = secs()?,
            "--misbehave" => o.misbehave = Some(value.clone()),
            "--after" => o.after = value.parse().map_err(|e| format!("--after: {e}"))?,
            "--sleep" => o.sleep = secs()?,
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    Ok(o)
}

/// A readable move that is illegal: its amazon starts from an empty square.
fn illegal_move(pos: &Position) -> Move {
    let n = pos.size();
    let empty = pos.empty_squares();
    let from = (0..n * n)
        .map(|i| Square::new(i % n, i / n))
        .find(|&s| empty.contains(s))
        .expect("a position with a legal move has empty squares");
    let other = |s: Square| Square::new((s.file() + 1) % n, s.rank());
    Move::new(from, other(from), other(other(from)))
}

fn main() {
    let o = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fake_engine: {e}");
            std::process::exit(2);
        }
    };
    let mut rng = SmallRng::seed_from_u64(o.seed);
    let mut pos = Position::standard();
    let mut genmoves = 0u64;
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) {
            words.remove(0)
        } else {
            ""
        };
        let Some((&cmd, args)) = words.split_first() else {
            continue;
        };
        let bad = o.misbehave.as_deref();
        let triggered = genmoves >= o.after;
        let answer: Result<String, String> = match cmd {
            "protocol_version" if bad == Some("bad-protocol") => Ok("1".into()),
            "protocol_version" => Ok("2".into()),
            "name" => Ok(o.name.clone()),
            "version" => Ok("1".into()),
            "quit" => {
                let _ = write!(out, "={id}\n\n");
                let _ = out.flush();
                return;
            }
            "boardsize" => match args.first().and_then(|a| a.parse().ok()) {
                Some(n) => match Position::start(n) {
                    Some(p) => {
                        pos = p;
                        Ok(String::new())
                    }
                    None => Err("unacceptable size".into()),
                },
                None => Err("boardsize needs a number".into()),
            },
            "clear_board" => {
                pos = Position::start(pos.size()).expect("size was accepted");
                Ok(String::new())
            }
            "set_position" => match args.join(" ").parse::<Position>() {
                Ok(p) => {
                    pos = p;
                    Ok(String::new())
                }
                Err(e) => Err(e.to_string()),
            },
            "time_settings" | "time_left" => Ok(String::new()),
            "play" if bad == Some("reject-play") && triggered => Err("I refuse".into()),
            "play" => {
                let m = args.get(1).map(|t| Move::parse(t, pos.size()));
                match (args.first().and_then(|c| Color::parse(c)), m) {
                    (Some(c), Some(Ok(m))) if c == pos.side_to_move() => pos
                        .play(m)
                        .map(|_| String::new())
                        .map_err(|e| e.to_string()),
                    _ => Err("bad play".into()),
                }
            }
            "genmove" => {
                std::thread::sleep(o.think);
                let misbehaving = triggered && bad.is_some() && bad != Some("reject-play");
                genmoves += 1;
                match bad.filter(|_| misbehaving) {
                    Some("illegal") => Ok(illegal_move(&pos).to_string()),
                    Some("garbage") => Ok("hello world".into()),
                    Some("noise") => {
                        let _ = writeln!(out, "thinking very hard");
                        let _ = out.flush();
                        Ok(String::new())
                    }
                    Some("crash") => std::process::exit(3),
                    Some("hang") => {
                        // Never answer; the runner kills us (give up after ten minutes anyway).
                        std::thread::sleep(Duration::from_secs(600));
                        std::process::exit(4);
                    }
                    Some("refuse") => Err("cannot think".into()),
                    Some("resign") => Ok("resign".into()),
                    other => {
                        if other == Some("slow") {
                            std::thread::sleep(o.sleep);
                        }
                        match pos.random_move(&mut rng) {
                            Some(m) => {
                                pos.make(m);
                                Ok(m.to_string())
                            }
                            None => Ok("resign".into()),
                        }
                    }
                }
            }
            _ => Err("unknown command".into()),
        };
        let _ = match answer {
            Ok(text) if text.is_empty() => write!(out, "={id}\n\n"),
            Ok(text) => write!(out, "={id} {text}\n\n"),
            Err(text) => write!(out, "?{id} {text}\n\n"),
        };
        let _ = out.flush();
    }
}

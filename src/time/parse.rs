//! Reading a time control from text: the one parser of the protocol's time commands,
//! `gui --time` (and the page's `/api/time`) and `match --tc`/`--st`, with one seconds reader.
//!
//! Two spellings of the same controls are read:
//! - the words of `kata-time_settings`: `none`, `absolute MAIN`, `fischer MAIN INCREMENT`,
//!   `byoyomi MAIN PERIOD PERIODS`, `canadian MAIN PERIOD STONES`, and `st SECONDS` (a fixed
//!   time per move);
//! - the match runner's compact forms: `MAIN` (sudden death), `MAIN+INC` (Fischer),
//!   `canadian:MAIN:PERIOD:STONES` and `byoyomi:MAIN:PERIOD:PERIODS`.
//!
//! Times are seconds (`60`, `0.5`) or minutes and seconds (`1:30`), from 0 to [`MAX_SECONDS`];
//! counts are whole numbers. GTP's meaning of the edge cases holds everywhere: an overtime of
//! zero length, or with zero periods or stones, is sudden death on the main time, and a fixed
//! time per move of zero is sudden death with no time.

use super::control::TimeControl;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest time any front end accepts, in seconds (over three years).
pub const MAX_SECONDS: f64 = 1e8;

/// Text that is not a time or a time control: what was being read, the text, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeError {
    what: String,
    text: String,
    problem: String,
}

impl TimeError {
    fn new(what: &str, text: &str, problem: impl Into<String>) -> TimeError {
        TimeError {
            what: what.to_string(),
            text: text.to_string(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {} '{}' ({})", self.what, self.text, self.problem)
    }
}

impl std::error::Error for TimeError {}

/// Reads a time: seconds (`60`, `0.5`) or whole minutes and seconds (`1:30`), from 0 to
/// [`MAX_SECONDS`]; `what` names it in the error.
pub fn read_seconds(what: &str, text: &str) -> Result<Duration, TimeError> {
    let bad = || {
        TimeError::new(
            what,
            text,
            format!("seconds from 0 to {MAX_SECONDS}, such as 60, 0.5 or 1:30"),
        )
    };
    let t = text.trim();
    let (minutes, seconds) = match t.split_once(':') {
        Some((m, s)) => (m.parse::<u32>().map_err(|_| bad())?, s),
        None => (0, t),
    };
    let s: f64 = seconds.parse().map_err(|_| bad())?;
    let total = f64::from(minutes) * 60.0 + s;
    if !s.is_finite() || s < 0.0 || total > MAX_SECONDS {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(total))
}

/// Reads a count of periods or stones: a whole number from 0.
pub fn read_count(what: &str, text: &str) -> Result<u32, TimeError> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| TimeError::new(what, text, format!("a whole number from 0 to {}", u32::MAX)))
}

/// Reads a fixed time per move (`match --st`, `st SECONDS`): zero is sudden death with no time,
/// as GTP's `time_settings 0 0 1` says.
pub fn read_per_move(text: &str) -> Result<TimeControl, TimeError> {
    let per_move = read_seconds("time per move", text)?;
    Ok(if per_move.is_zero() {
        TimeControl::Absolute { main: per_move }
    } else {
        TimeControl::PerMove { per_move }
    })
}

/// The time systems by name, with the names of their values.
const SYSTEMS: [(&str, &[&str]); 6] = [
    ("none", &[]),
    ("absolute", &["main time"]),
    ("fischer", &["main time", "increment"]),
    ("byoyomi", &["main time", "period", "periods"]),
    ("canadian", &["main time", "period", "stones"]),
    ("st", &["time per move"]),
];

/// What the error for an unknown system lists.
const FORMS: &str = "none, absolute MAIN, fischer MAIN INC, byoyomi MAIN PERIOD PERIODS, \
                     canadian MAIN PERIOD STONES, st SECONDS, or MAIN, MAIN+INC, \
                     byoyomi:MAIN:PERIOD:PERIODS, canadian:MAIN:PERIOD:STONES";

impl FromStr for TimeControl {
    type Err = TimeError;

    /// Reads a time control in words or in the compact forms (see the module documentation).
    fn from_str(text: &str) -> Result<TimeControl, TimeError> {
        let whole = |problem: String| TimeError::new("time control", text.trim(), problem);
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(first) = words.first() else {
            return Err(whole("empty".into()));
        };
        let name = first.to_ascii_lowercase();
        let (name, values) = match (words.len(), find(&name)) {
            (_, Some(_)) => (name, words[1..].to_vec()),
            (1, None) => compact(first)
                .ok_or_else(|| whole(format!("unknown time system '{first}': expected {FORMS}")))?,
            (n, None) if compact(first).is_some() => {
                return Err(whole(format!(
                    "'{first}' takes nothing after it, got {} more word(s)",
                    n - 1
                )))
            }
            (_, None) => {
                return Err(whole(format!(
                    "unknown time system '{first}': expected {FORMS}"
                )))
            }
        };
        let (name, fields) = find(&name).expect("a known system");
        if values.len() != fields.len() {
            return Err(whole(format!(
                "{name} takes {} value(s) ({}), got {}",
                fields.len(),
                fields.join(", "),
                values.len()
            )));
        }
        let secs = |i: usize| read_seconds(fields[i], values[i]);
        let count = |i: usize| read_count(fields[i], values[i]);
        Ok(match name {
            "none" => TimeControl::Unlimited,
            "absolute" => TimeControl::Absolute { main: secs(0)? },
            "fischer" => TimeControl::Fischer {
                main: secs(0)?,
                increment: secs(1)?,
            },
            "st" => read_per_move(values[0])?,
            _ => {
                let (main, period, n) = (secs(0)?, secs(1)?, count(2)?);
                if period.is_zero() || n == 0 {
                    TimeControl::Absolute { main }
                } else if name == "byoyomi" {
                    TimeControl::ByoYomi {
                        main,
                        period,
                        periods: n,
                    }
                } else {
                    TimeControl::Canadian {
                        main,
                        period,
                        stones: n,
                    }
                }
            }
        })
    }
}

/// A time system by its lowercase name, with the names of its values.
fn find(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    SYSTEMS.iter().copied().find(|(n, _)| *n == name)
}

/// The system and values of a compact form: `canadian:M:P:S`, `byoyomi:M:P:N`, `M+I` or `M`
/// (`None` for a word that is no number).
fn compact(word: &str) -> Option<(String, Vec<&str>)> {
    let lower = word.to_ascii_lowercase();
    for name in ["canadian", "byoyomi"] {
        if lower.starts_with(name) && word[name.len()..].starts_with(':') {
            return Some((name.into(), word[name.len() + 1..].split(':').collect()));
        }
    }
    if word.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(match word.split_once('+') {
        Some((main, inc)) => ("fischer".into(), vec![main, inc]),
        None => ("absolute".into(), vec![word]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn seconds_read_and_refused() {
        for (text, want) in [
            ("60", 60.0),
            ("0.5", 0.5),
            ("0", 0.0),
            ("1:30", 90.0),
            ("0:05", 5.0),
            ("1e3", 1000.0),
            ("100000000", 1e8),
        ] {
            assert_eq!(read_seconds("time", text), Ok(s(want)), "{text}");
        }
        for bad in [
            "",
            "x",
            "-1",
            "-0.5",
            "inf",
            "NaN",
            "1e9",
            "100000000.5",
            "1:x",
            "x:30",
            "-1:30",
            "1:-5",
            "1.5:30",
            "1:30:00",
            "1666667:00",
        ] {
            let e = read_seconds("main time", bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "bad main time '{bad}' (seconds from 0 to 100000000, such as 60, 0.5 or 1:30)"
                )
            );
        }
        assert_eq!(read_count("stones", "25"), Ok(25));
        for bad in ["-1", "x", "1.5", "4294967296"] {
            assert!(read_count("stones", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn words_and_compact_forms_read_the_same_controls() {
        let abs = |m| TimeControl::Absolute { main: s(m) };
        let table: [(&[&str], TimeControl); 9] = [
            (&["none", "NONE"], TimeControl::Unlimited),
            (&["absolute 60", "60", "1:00", "Absolute 1:00"], abs(60.0)),
            (
                &["fischer 60 0.5", "60+0.5", "1:00+0.5"],
                TimeControl::Fischer {
                    main: s(60.0),
                    increment: s(0.5),
                },
            ),
            (
                &["byoyomi 60 10 3", "byoyomi:60:10:3"],
                TimeControl::ByoYomi {
                    main: s(60.0),
                    period: s(10.0),
                    periods: 3,
                },
            ),
            (
                &[
                    "canadian 600 300 25",
                    "canadian:600:300:25",
                    "Canadian:600:300:25",
                ],
                TimeControl::Canadian {
                    main: s(600.0),
                    period: s(300.0),
                    stones: 25,
                },
            ),
            (
                &["st 1.5", "ST 1.5"],
                TimeControl::PerMove { per_move: s(1.5) },
            ),
            // GTP's edge cases: no overtime is sudden death.
            (
                &[
                    "canadian 60 30 0",
                    "canadian 60 0 5",
                    "byoyomi 60 0 3",
                    "byoyomi 60 10 0",
                    "canadian:60:30:0",
                ],
                abs(60.0),
            ),
            (&["absolute 0", "0", "st 0", "canadian 0 0 0"], abs(0.0)),
            (
                &["0+1"],
                TimeControl::Fischer {
                    main: s(0.0),
                    increment: s(1.0),
                },
            ),
        ];
        for (texts, want) in table {
            for text in texts {
                assert_eq!(text.parse(), Ok(want), "{text}");
            }
            // Both spellings of a control read back to it.
            assert_eq!(want.notation().parse(), Ok(want), "{want:?}");
            assert_eq!(want.to_string().parse(), Ok(want), "{want:?}");
        }
    }

    #[test]
    fn refusals_name_the_text_and_the_problem() {
        for (text, want) in [
            ("", "bad time control '' (empty)"),
            (
                "sudden 3",
                "bad time control 'sudden 3' (unknown time system 'sudden'",
            ),
            ("NaN", "bad time control 'NaN' (unknown time system 'NaN'"),
            (
                "absolute",
                "bad time control 'absolute' (absolute takes 1 value(s) (main time), got 0)",
            ),
            (
                "absolute 60 5",
                "absolute takes 1 value(s) (main time), got 2",
            ),
            (
                "canadian:10:5",
                "canadian takes 3 value(s) (main time, period, stones), got 2",
            ),
            ("canadian:10:5:5:5", "got 4"),
            (
                "fischer 60",
                "fischer takes 2 value(s) (main time, increment), got 1",
            ),
            ("absolute -1", "bad main time '-1' (seconds from 0"),
            ("absolute NaN", "bad main time 'NaN'"),
            ("fischer 1e9 1", "bad main time '1e9'"),
            ("canadian 60 x 5", "bad period 'x'"),
            (
                "canadian 60 30 -1",
                "bad stones '-1' (a whole number from 0 to 4294967295)",
            ),
            ("byoyomi 60 30 1.5", "bad periods '1.5'"),
            ("1+", "bad increment ''"),
            ("+1", "bad main time ''"),
            ("1+x", "bad increment 'x'"),
            ("1+2+3", "bad increment '2+3'"),
            ("-1", "bad main time '-1'"),
            ("60 5", "'60' takes nothing after it, got 1 more word(s)"),
            ("st -1", "bad time per move '-1'"),
        ] {
            let e = text.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}

//! Time controls and the referee's clock.
//!
//! The runner keeps the real clock: it measures each `genmove` itself, charges it to the engine,
//! and tells the engine its remaining time with `time_left` before every `genmove`. Everything here
//! is pure arithmetic on `Duration`s so that it can be tested with tables.

use std::fmt;
use std::time::Duration;

/// A time control for one game, the same for both sides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `--tc 60`: the whole game in `main`.
    SuddenDeath {
        /// Time for the game.
        main: Duration,
    },
    /// `--tc 60+0.5`: `main`, plus `increment` added after every move.
    Fischer {
        /// Starting time.
        main: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// `--st 1`: at most `per_move` for every move; unused time is lost.
    PerMove {
        /// Time for each move.
        per_move: Duration,
    },
}

/// A time control argument that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeError {
    text: String,
    reason: &'static str,
}

impl fmt::Display for ParseTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad time '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseTimeError {}

/// Reads seconds: `60`, `0.5`, or minutes and seconds `1:30`.
pub fn parse_seconds(text: &str) -> Result<Duration, ParseTimeError> {
    let err = |reason| ParseTimeError {
        text: text.to_string(),
        reason,
    };
    let t = text.trim();
    let (minutes, seconds) = match t.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m
                .parse()
                .map_err(|_| err("minutes must be a whole number"))?;
            (m, s)
        }
        None => (0, t),
    };
    let s: f64 = seconds
        .parse()
        .map_err(|_| err("expected seconds such as 60, 0.5 or 1:30"))?;
    if !s.is_finite() || s < 0.0 {
        return Err(err("time must be a finite number of seconds, not negative"));
    }
    let total = minutes as f64 * 60.0 + s;
    if total > 1e9 {
        return Err(err("time is too long"));
    }
    Ok(Duration::from_secs_f64(total))
}

impl TimeControl {
    /// Reads `--tc`: `MAIN` (sudden death) or `MAIN+INC` (Fischer), in seconds.
    pub fn parse_tc(text: &str) -> Result<TimeControl, ParseTimeError> {
        let tc = match text.split_once('+') {
            Some((main, inc)) => TimeControl::Fischer {
                main: parse_seconds(main)?,
                increment: parse_seconds(inc)?,
            },
            None => TimeControl::SuddenDeath {
                main: parse_seconds(text)?,
            },
        };
        let starting = match tc {
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => main,
            TimeControl::PerMove { per_move } => per_move,
        };
        if starting.is_zero() {
            return Err(ParseTimeError {
                text: text.to_string(),
                reason: "the main time must be positive",
            });
        }
        Ok(tc)
    }

    /// Reads `--st`: seconds per move.
    pub fn parse_st(text: &str) -> Result<TimeControl, ParseTimeError> {
        let per_move = parse_seconds(text)?;
        if per_move.is_zero() {
            return Err(ParseTimeError {
                text: text.to_string(),
                reason: "the time per move must be positive",
            });
        }
        Ok(TimeControl::PerMove { per_move })
    }

    /// Arguments of the GTP `time_settings MAIN BYO STONES` command that describes this control.
    /// Fischer is sent as sudden death on the main time, as GTP has no increments: the engine
    /// learns the real time, increments included, from `time_left` before every move.
    pub fn time_settings(&self) -> String {
        match *self {
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => {
                format!("{} 0 0", seconds_text(main))
            }
            // GTP: no main time and a byo-yomi period of one move of `per_move`.
            TimeControl::PerMove { per_move } => format!("0 {} 1", seconds_text(per_move)),
        }
    }

    /// The control in command-line notation (`60`, `60+0.5`, `st 1`), also used in records.
    pub fn notation(&self) -> String {
        match *self {
            TimeControl::SuddenDeath { main } => seconds_text(main),
            TimeControl::Fischer { main, increment } => {
                format!("{}+{}", seconds_text(main), seconds_text(increment))
            }
            TimeControl::PerMove { per_move } => format!("st {}", seconds_text(per_move)),
        }
    }

    /// Starting main time in seconds (the SGF `TM` property), zero for a fixed time per move.
    pub fn main_time(&self) -> Duration {
        match *self {
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => main,
            TimeControl::PerMove { .. } => Duration::ZERO,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// Seconds with millisecond precision and no trailing zeros: `60`, `0.5`, `12.345`.
pub fn seconds_text(d: Duration) -> String {
    let ms = d.as_millis();
    let whole = ms / 1000;
    let frac = ms % 1000;
    if frac == 0 {
        whole.to_string()
    } else {
        let f = format!("{frac:03}");
        format!("{whole}.{}", f.trim_end_matches('0'))
    }
}

/// A move that took longer than allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Time the move took.
    pub used: Duration,
    /// Time the engine had for it (margin not included).
    pub available: Duration,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {:.3} s with {:.3} s left",
            self.used.as_secs_f64(),
            self.available.as_secs_f64()
        )
    }
}

/// One side's clock during a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: control.main_time(),
        }
    }

    /// The time the engine has for its next move (margin not included).
    pub fn available(&self) -> Duration {
        match self.control {
            TimeControl::PerMove { per_move } => per_move,
            _ => self.remaining,
        }
    }

    /// Arguments of `time_left COLOR SECONDS STONES` (without the colour): the real remaining time;
    /// for a fixed time per move, one move in a period of that length.
    pub fn time_left(&self) -> String {
        match self.control {
            TimeControl::PerMove { per_move } => format!("{} 1", seconds_text(per_move)),
            _ => format!("{} 0", seconds_text(self.remaining)),
        }
    }

    /// The latest moment after the `genmove` was sent at which an answer is still in time.
    pub fn deadline(&self, margin: Duration) -> Duration {
        self.available() + margin
    }

    /// Charges a move that took `used`. A move within the margin costs at most the time left (the
    /// clock stops at zero, then the increment is added); beyond the margin it is an overrun and
    /// the clock does not change.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Overrun> {
        let available = self.available();
        if used > available + margin {
            return Err(Overrun { used, available });
        }
        match self.control {
            TimeControl::SuddenDeath { .. } => self.remaining = self.remaining.saturating_sub(used),
            TimeControl::Fischer { increment, .. } => {
                self.remaining = self.remaining.saturating_sub(used) + increment
            }
            TimeControl::PerMove { .. } => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn parses_controls() {
        let table = [
            ("60", TimeControl::SuddenDeath { main: s(60.0) }),
            ("1:30", TimeControl::SuddenDeath { main: s(90.0) }),
            (
                "10+0.1",
                TimeControl::Fischer {
                    main: s(10.0),
                    increment: s(0.1),
                },
            ),
            (
                "0.5+0",
                TimeControl::Fischer {
                    main: s(0.5),
                    increment: Duration::ZERO,
                },
            ),
        ];
        for (text, want) in table {
            assert_eq!(TimeControl::parse_tc(text), Ok(want), "{text}");
        }
        assert_eq!(
            TimeControl::parse_st("1"),
            Ok(TimeControl::PerMove { per_move: s(1.0) })
        );
        for bad in [
            "", "abc", "-1", "0", "1+", "+1", "1+x", "inf", "NaN", "1:x", "0+1",
        ] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        assert!(TimeControl::parse_st("0").is_err());
    }

    #[test]
    fn gtp_arguments() {
        let table = [
            ("60", "60 0 0", "60 0", "60"),
            ("10+0.1", "10 0 0", "10 0", "10+0.1"),
            ("2.25+0.05", "2.25 0 0", "2.25 0", "2.25+0.05"),
        ];
        for (text, settings, left, notation) in table {
            let tc = TimeControl::parse_tc(text).unwrap();
            assert_eq!(tc.time_settings(), settings);
            assert_eq!(Clock::new(tc).time_left(), left);
            assert_eq!(tc.notation(), notation);
        }
        let st = TimeControl::parse_st("1.5").unwrap();
        assert_eq!(st.time_settings(), "0 1.5 1");
        assert_eq!(Clock::new(st).time_left(), "1.5 1");
        assert_eq!(st.notation(), "st 1.5");
    }

    #[test]
    fn charging_moves() {
        let margin = s(0.1);
        // (control, [move times], remaining after each, or None for the overrun)
        type Case = (&'static str, &'static [f64], &'static [Option<f64>]);
        let cases: [Case; 4] = [
            ("10", &[1.0, 2.5, 6.65], &[Some(9.0), Some(6.5), None]),
            ("10", &[9.0, 1.05], &[Some(1.0), Some(0.0)]),
            ("1+0.5", &[0.8, 0.6, 0.75], &[Some(0.7), Some(0.6), None]),
            ("1+0.5", &[1.1, 0.5], &[Some(0.5), Some(0.5)]),
        ];
        for (tc, used, want) in cases {
            let mut c = Clock::new(TimeControl::parse_tc(tc).unwrap());
            for (u, w) in used.iter().zip(want) {
                let r = c.charge(s(*u), margin);
                match w {
                    Some(left) => {
                        assert!(r.is_ok(), "{tc} {u}");
                        assert!(
                            (c.available().as_secs_f64() - left).abs() < 1e-6,
                            "{tc} {u}"
                        );
                    }
                    None => assert!(r.is_err(), "{tc} {u}"),
                }
            }
        }
        let mut st = Clock::new(TimeControl::parse_st("1").unwrap());
        assert!(st.charge(s(1.05), margin).is_ok());
        assert_eq!(st.available(), s(1.0));
        assert_eq!(
            st.charge(s(1.2), margin),
            Err(Overrun {
                used: s(1.2),
                available: s(1.0)
            })
        );
        assert_eq!(st.deadline(margin), s(1.1));
    }

    #[test]
    fn seconds_are_printed_briefly() {
        assert_eq!(seconds_text(s(60.0)), "60");
        assert_eq!(seconds_text(s(0.5)), "0.5");
        assert_eq!(seconds_text(s(12.345)), "12.345");
        assert_eq!(seconds_text(Duration::ZERO), "0");
    }
}

//! Time controls and the referee's clock.
//!
//! The runner keeps the real clock: it measures each `genmove` itself, charges it to the engine,
//! and tells the engine its remaining time with `time_left` before every `genmove`. Everything here
//! is pure arithmetic on `Duration`s so that it can be tested with tables.
//!
//! To reproduce a GUI's clock without the GUI, the runner can report whole seconds the way Quarry
//! does ([`ClockReport::WholeSeconds`]) and charge a controller lag on top of what it measured.

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
    /// `--tc canadian:600:300:25`: `main`, then `stones` moves in every `period` (Canadian
    /// byo-yomi, as GTP's `time_settings MAIN PERIOD STONES`).
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of one overtime period.
        period: Duration,
        /// Moves to make in each period.
        stones: u32,
    },
}

/// How the runner writes the times of `time_left` and `time_settings`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ClockReport {
    /// Milliseconds, always with three decimals (`12.345`, `60.000`): the engine can tell the
    /// report is exact.
    #[default]
    Exact,
    /// Whole seconds rounded to the nearest, as Quarry reports them (`2` for 1.6 s).
    WholeSeconds,
}

impl ClockReport {
    /// Reads `--clock-report`.
    pub fn parse(text: &str) -> Result<ClockReport, String> {
        match text {
            "exact" => Ok(ClockReport::Exact),
            "whole-seconds" => Ok(ClockReport::WholeSeconds),
            _ => Err(format!(
                "unknown clock report '{text}' (expected exact or whole-seconds)"
            )),
        }
    }

    /// A time as this report writes it.
    pub fn seconds(&self, d: Duration) -> String {
        match self {
            ClockReport::Exact => format!("{}.{:03}", d.as_secs(), d.subsec_millis()),
            ClockReport::WholeSeconds => ((d.as_millis() + 500) / 1000).to_string(),
        }
    }
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
    /// Reads `--tc`: `MAIN` (sudden death), `MAIN+INC` (Fischer) or
    /// `canadian:MAIN:PERIOD:STONES` (Canadian overtime), in seconds.
    pub fn parse_tc(text: &str) -> Result<TimeControl, ParseTimeError> {
        if let Some(rest) = text.strip_prefix("canadian:") {
            return Self::parse_canadian(text, rest);
        }
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
            TimeControl::Canadian { .. } => unreachable!("read above"),
        };
        if starting.is_zero() {
            return Err(ParseTimeError {
                text: text.to_string(),
                reason: "the main time must be positive",
            });
        }
        Ok(tc)
    }

    /// Reads the `MAIN:PERIOD:STONES` of a Canadian control.
    fn parse_canadian(text: &str, rest: &str) -> Result<TimeControl, ParseTimeError> {
        let err = |reason| ParseTimeError {
            text: text.to_string(),
            reason,
        };
        let parts: Vec<&str> = rest.split(':').collect();
        let [main, period, stones] = parts[..] else {
            return Err(err(
                "expected canadian:MAIN:PERIOD:STONES, e.g. canadian:10:5:5",
            ));
        };
        let stones: u32 = stones
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| err("the stones per period must be a whole number from 1"))?;
        let period = parse_seconds(period)?;
        if period.is_zero() {
            return Err(err("the overtime period must be positive"));
        }
        Ok(TimeControl::Canadian {
            main: parse_seconds(main)?,
            period,
            stones,
        })
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
    /// learns the real time, increments included, from `time_left` before every move. Exact
    /// reports write times briefly (`60`, `0.25`); whole-second ones round them.
    pub fn time_settings(&self, report: ClockReport) -> String {
        let t = |d: Duration| match report {
            ClockReport::Exact => seconds_text(d),
            ClockReport::WholeSeconds => report.seconds(d),
        };
        match *self {
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => {
                format!("{} 0 0", t(main))
            }
            // GTP: no main time and a byo-yomi period of one move of `per_move`.
            TimeControl::PerMove { per_move } => format!("0 {} 1", t(per_move)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => format!("{} {} {stones}", t(main), t(period)),
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
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => format!(
                "canadian:{}:{}:{stones}",
                seconds_text(main),
                seconds_text(period)
            ),
        }
    }

    /// Starting main time in seconds (the SGF `TM` property), zero for a fixed time per move.
    pub fn main_time(&self) -> Duration {
        match *self {
            TimeControl::SuddenDeath { main }
            | TimeControl::Fischer { main, .. }
            | TimeControl::Canadian { main, .. } => main,
            TimeControl::PerMove { .. } => Duration::ZERO,
        }
    }

    /// The overtime in the words of the SGF `OT` property (`5/10 Canadian`: 5 moves in 10 s;
    /// a fixed time per move is one move per period; `fischer 0.5`), or `None` for sudden death.
    pub fn overtime(&self) -> Option<String> {
        match *self {
            TimeControl::SuddenDeath { .. } => None,
            TimeControl::Fischer { increment, .. } => {
                Some(format!("fischer {}", seconds_text(increment)))
            }
            TimeControl::PerMove { per_move } => {
                Some(format!("1/{} Canadian", seconds_text(per_move)))
            }
            TimeControl::Canadian { period, stones, .. } => {
                Some(format!("{stones}/{} Canadian", seconds_text(period)))
            }
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
    /// Main time left (all the time left for sudden death and Fischer).
    remaining: Duration,
    /// Canadian overtime: the time left in the current period and the stones still to play in it;
    /// `None` while in main time.
    period: Option<(Duration, u32)>,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let period = match control {
            TimeControl::Canadian {
                main,
                period,
                stones,
            } if main.is_zero() => Some((period, stones)),
            _ => None,
        };
        Clock {
            control,
            remaining: control.main_time(),
            period,
        }
    }

    /// The time the engine has for its next move (margin not included). In Canadian main time
    /// that includes the first period, which a move may run into.
    pub fn available(&self) -> Duration {
        match (self.control, self.period) {
            (TimeControl::PerMove { per_move }, _) => per_move,
            (TimeControl::Canadian { period, .. }, None) => self.remaining + period,
            (_, Some((left, _))) => left,
            _ => self.remaining,
        }
    }

    /// Arguments of `time_left COLOR SECONDS STONES` (without the colour), written as `report`
    /// says: the remaining main time with 0 stones; in Canadian overtime the time left in the
    /// period and its stones; for a fixed time per move, one move in a period of that length.
    pub fn time_left(&self, report: ClockReport) -> String {
        let t = |d| report.seconds(d);
        match (self.control, self.period) {
            (TimeControl::PerMove { per_move }, _) => format!("{} 1", t(per_move)),
            (_, Some((left, stones))) => format!("{} {stones}", t(left)),
            _ => format!("{} 0", t(self.remaining)),
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
            TimeControl::Canadian { period, stones, .. } => {
                let (left, to_play) = match self.period {
                    Some(p) => (p.0.saturating_sub(used), p.1),
                    None if used <= self.remaining => {
                        self.remaining -= used;
                        return Ok(());
                    }
                    // Main time ran out during the move: the rest came from the first period, and
                    // the move is one of its stones.
                    None => {
                        let over = used - self.remaining;
                        self.remaining = Duration::ZERO;
                        (period.saturating_sub(over), stones)
                    }
                };
                self.period = Some(if to_play <= 1 {
                    (period, stones)
                } else {
                    (left, to_play - 1)
                });
            }
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
        let exact = ClockReport::Exact;
        let whole = ClockReport::WholeSeconds;
        // (tc, time_settings, time_left, the same rounded to whole seconds, notation, OT)
        let table = [
            ("60", "60 0 0", "60.000 0", "60 0 0", "60 0", "60", None),
            (
                "10+0.1",
                "10 0 0",
                "10.000 0",
                "10 0 0",
                "10 0",
                "10+0.1",
                Some("fischer 0.1"),
            ),
            (
                "2.25+0.05",
                "2.25 0 0",
                "2.250 0",
                "2 0 0",
                "2 0",
                "2.25+0.05",
                Some("fischer 0.05"),
            ),
            (
                "canadian:10:5:5",
                "10 5 5",
                "10.000 0",
                "10 5 5",
                "10 0",
                "canadian:10:5:5",
                Some("5/5 Canadian"),
            ),
            (
                "canadian:0:2.5:1",
                "0 2.5 1",
                "2.500 1",
                "0 3 1",
                "3 1",
                "canadian:0:2.5:1",
                Some("1/2.5 Canadian"),
            ),
        ];
        for (text, settings, left, whole_settings, whole_left, notation, ot) in table {
            let tc = TimeControl::parse_tc(text).unwrap();
            assert_eq!(tc.time_settings(exact), settings);
            assert_eq!(Clock::new(tc).time_left(exact), left);
            assert_eq!(tc.time_settings(whole), whole_settings);
            assert_eq!(Clock::new(tc).time_left(whole), whole_left);
            assert_eq!(tc.notation(), notation);
            assert_eq!(TimeControl::parse_tc(notation), Ok(tc));
            assert_eq!(tc.overtime().as_deref(), ot);
        }
        let st = TimeControl::parse_st("1.5").unwrap();
        assert_eq!(st.time_settings(exact), "0 1.5 1");
        assert_eq!(Clock::new(st).time_left(exact), "1.500 1");
        assert_eq!(st.notation(), "st 1.5");
        assert_eq!(st.overtime().as_deref(), Some("1/1.5 Canadian"));
        for bad in [
            "canadian:10:5",
            "canadian:10:5:0",
            "canadian:10:0:5",
            "canadian:x:5:5",
            "canadian:10:5:5:5",
        ] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        assert!(ClockReport::parse("sometimes").is_err());
    }

    #[test]
    fn whole_seconds_round_to_the_nearest() {
        let whole = ClockReport::WholeSeconds;
        for (ms, text) in [(0, "0"), (499, "0"), (500, "1"), (1620, "2"), (2499, "2")] {
            assert_eq!(whole.seconds(Duration::from_millis(ms)), text, "{ms}");
        }
        assert_eq!(ClockReport::Exact.seconds(s(1.62)), "1.620");
    }

    #[test]
    fn canadian_overtime() {
        let m = Duration::from_millis;
        let margin = m(100);
        let tc = TimeControl::parse_tc("canadian:10:5:5").unwrap();
        let mut c = Clock::new(tc);
        let whole = ClockReport::WholeSeconds;
        // Main time: a move may run into the first period.
        assert_eq!(c.available(), m(15000));
        c.charge(m(9570), margin).unwrap();
        assert_eq!(c.time_left(whole), "0 0");
        // Main runs out 0.38 s into this move: the first period has 4.62 s for 4 more stones.
        c.charge(m(810), margin).unwrap();
        assert_eq!(c.time_left(ClockReport::Exact), "4.620 4");
        assert_eq!(c.time_left(whole), "5 4");
        c.charge(m(990), margin).unwrap();
        c.charge(m(1030), margin).unwrap();
        c.charge(m(980), margin).unwrap();
        // Quarry's "2 1": really 1.62 s, so a 1.756 s answer loses.
        assert_eq!(c.time_left(whole), "2 1");
        assert_eq!(c.available(), m(1620));
        assert!(c.charge(m(1756), m(0)).is_err());
        // The last stone in time starts a fresh period.
        c.charge(m(1500), margin).unwrap();
        assert_eq!(c.time_left(whole), "5 5");
        assert_eq!(c.available(), m(5000));
        // No main time: overtime from the first move.
        let c = Clock::new(TimeControl::parse_tc("canadian:0:3:2").unwrap());
        assert_eq!(c.time_left(ClockReport::Exact), "3.000 2");
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

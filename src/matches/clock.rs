//! The referee's clock, and how the runner writes times for the engines.
//!
//! The runner keeps the real clock: it measures each `genmove` itself, charges it to the engine,
//! and tells the engine its remaining time with `time_left` before every `genmove`. The control is
//! the engine's own [`TimeControl`] and one side's time is the engine's [`SideTime`], charged by
//! the same rule; the referee's clock differs from the engine's [`crate::time::Clock`] in what it
//! records: the real time of one side, with a move past [`SideTime::time_to_flag`] (plus the
//! margin) reported as an overrun, where the engine's clock estimates the controller's.
//!
//! To reproduce a GUI's clock without the GUI, the runner can report whole seconds the way Quarry
//! does ([`ClockReport::WholeSeconds`]) and charge a controller lag on top of what it measured.

use crate::time::{seconds_text, SideTime, TimeControl};
use std::fmt;
use std::time::Duration;

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

    /// The command that tells an engine `control`: GTP's `time_settings MAIN BYO STONES` where
    /// it can say it, `kgs-time_settings byoyomi ...` for Japanese byo-yomi. Fischer is sent as
    /// sudden death on the main time, as GTP has no increments: the engine learns the real time,
    /// increments included, from `time_left` before every move. Exact reports write times
    /// briefly (`60`, `0.25`); whole-second ones round them.
    pub fn settings_command(&self, control: &TimeControl) -> String {
        let t = |d: Duration| match self {
            ClockReport::Exact => seconds_text(d),
            ClockReport::WholeSeconds => self.seconds(d),
        };
        match *control {
            // GTP: a byo-yomi period with no stones is no time limit.
            TimeControl::Unlimited => "time_settings 0 1 0".into(),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => {
                format!("time_settings {} 0 0", t(main))
            }
            // GTP: no main time and a byo-yomi period of one move of `per_move`.
            TimeControl::PerMove { per_move } => format!("time_settings 0 {} 1", t(per_move)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => format!("time_settings {} {} {stones}", t(main), t(period)),
            TimeControl::ByoYomi {
                main,
                period,
                periods,
            } => format!(
                "kgs-time_settings byoyomi {} {} {periods}",
                t(main),
                t(period)
            ),
        }
    }
}

/// The overtime of `control` in the words of the SGF `OT` property (`5/10 Canadian`: 5 moves in
/// 10 s; a fixed time per move is one move per period; `3x10 byo-yomi`; `fischer 0.5`), or `None`
/// for sudden death and no limit.
pub fn sgf_overtime(control: &TimeControl) -> Option<String> {
    match *control {
        TimeControl::Unlimited | TimeControl::Absolute { .. } => None,
        TimeControl::Fischer { increment, .. } => {
            Some(format!("fischer {}", seconds_text(increment)))
        }
        TimeControl::PerMove { per_move } => Some(format!("1/{} Canadian", seconds_text(per_move))),
        TimeControl::Canadian { period, stones, .. } => {
            Some(format!("{stones}/{} Canadian", seconds_text(period)))
        }
        TimeControl::ByoYomi {
            period, periods, ..
        } => Some(format!("{periods}x{} byo-yomi", seconds_text(period))),
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
    side: SideTime,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            side: SideTime::full(&control),
        }
    }

    /// The time the engine has for its next move before its flag falls (margin not included; zero
    /// without a time limit, where only the hang timeout bounds a move). In Canadian main time
    /// that includes the first period, which a move may run into.
    pub fn available(&self) -> Duration {
        self.side
            .time_to_flag(&self.control)
            .unwrap_or(Duration::ZERO)
    }

    /// Arguments of `time_left COLOR SECONDS STONES` (without the colour), written as `report`
    /// says: the remaining main time with 0 stones; in overtime the time left in the period and
    /// its stones (Canadian) or periods (byo-yomi); for a fixed time per move, one move in a
    /// period of that length. `None` without a time limit.
    pub fn time_left(&self, report: ClockReport) -> Option<String> {
        let t = |d| report.seconds(d);
        let s = &self.side;
        match self.control {
            TimeControl::Unlimited => None,
            _ if s.overtime => Some(format!("{} {}", t(s.period_left), s.count)),
            _ => Some(format!("{} 0", t(s.main))),
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
        if self
            .side
            .flagged(&self.control, used.saturating_sub(margin))
        {
            return Err(Overrun {
                used,
                available: self.available(),
            });
        }
        self.side.charge(&self.control, used);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::read_per_move;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
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
            (
                "st 1.5",
                "0 1.5 1",
                "1.500 1",
                "0 2 1",
                "2 1",
                "st 1.5",
                Some("1/1.5 Canadian"),
            ),
        ];
        for (text, settings, left, whole_settings, whole_left, notation, ot) in table {
            let tc = tc(text);
            let left_of = |r| Clock::new(tc).time_left(r).unwrap();
            assert_eq!(
                exact.settings_command(&tc),
                format!("time_settings {settings}")
            );
            assert_eq!(left_of(exact), left);
            assert_eq!(
                whole.settings_command(&tc),
                format!("time_settings {whole_settings}")
            );
            assert_eq!(left_of(whole), whole_left);
            assert_eq!(tc.notation(), notation);
            assert_eq!(notation.parse(), Ok(tc));
            assert_eq!(sgf_overtime(&tc).as_deref(), ot);
        }
        assert_eq!(read_per_move("1.5"), Ok(tc("st 1.5")));
        // What GTP's time_settings cannot say.
        let byoyomi = tc("byoyomi 60 10 3");
        assert_eq!(
            exact.settings_command(&byoyomi),
            "kgs-time_settings byoyomi 60 10 3"
        );
        assert_eq!(sgf_overtime(&byoyomi).as_deref(), Some("3x10 byo-yomi"));
        assert_eq!(
            Clock::new(tc("byoyomi 0 10 3")).time_left(exact).as_deref(),
            Some("10.000 3")
        );
        assert_eq!(exact.settings_command(&tc("none")), "time_settings 0 1 0");
        assert_eq!(Clock::new(tc("none")).time_left(exact), None);
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
        let mut c = Clock::new(tc("canadian:10:5:5"));
        let whole = ClockReport::WholeSeconds;
        let left = |c: &Clock, r| c.time_left(r).unwrap();
        // Main time: a move may run into the first period.
        assert_eq!(c.available(), m(15000));
        c.charge(m(9570), margin).unwrap();
        assert_eq!(left(&c, whole), "0 0");
        // Main runs out 0.38 s into this move: the first period has 4.62 s for 4 more stones.
        c.charge(m(810), margin).unwrap();
        assert_eq!(left(&c, ClockReport::Exact), "4.620 4");
        assert_eq!(left(&c, whole), "5 4");
        c.charge(m(990), margin).unwrap();
        c.charge(m(1030), margin).unwrap();
        c.charge(m(980), margin).unwrap();
        // Quarry's "2 1": really 1.62 s, so a 1.756 s answer loses.
        assert_eq!(left(&c, whole), "2 1");
        assert_eq!(c.available(), m(1620));
        assert!(c.charge(m(1756), m(0)).is_err());
        // The last stone in time starts a fresh period.
        c.charge(m(1500), margin).unwrap();
        assert_eq!(left(&c, whole), "5 5");
        assert_eq!(c.available(), m(5000));
        // No main time: overtime from the first move.
        let c = Clock::new(tc("canadian:0:3:2"));
        assert_eq!(left(&c, ClockReport::Exact), "3.000 2");
    }

    #[test]
    fn charging_moves() {
        let margin = s(0.1);
        // (control, [move times], time to the flag after each, or None for the overrun)
        type Case = (&'static str, &'static [f64], &'static [Option<f64>]);
        let cases: [Case; 6] = [
            ("10", &[1.0, 2.5, 6.65], &[Some(9.0), Some(6.5), None]),
            ("10", &[9.0, 1.05], &[Some(1.0), Some(0.0)]),
            ("1+0.5", &[0.8, 0.6, 0.75], &[Some(0.7), Some(0.6), None]),
            ("1+0.5", &[1.1, 0.5], &[Some(0.5), Some(0.5)]),
            // Byo-yomi: 2 s main, then a move of 7 s uses up one 5 s period of three.
            (
                "byoyomi 2 5 3",
                &[1.0, 7.0, 10.05, 5.2],
                &[Some(16.0), Some(10.0), Some(5.0), None],
            ),
            // No limit: nothing is ever late.
            ("none", &[1000.0], &[Some(0.0)]),
        ];
        for (tc_text, used, want) in cases {
            let mut c = Clock::new(tc(tc_text));
            for (u, w) in used.iter().zip(want) {
                let r = c.charge(s(*u), margin);
                match w {
                    Some(left) => {
                        assert!(r.is_ok(), "{tc_text} {u}");
                        assert!(
                            (c.available().as_secs_f64() - left).abs() < 1e-6,
                            "{tc_text} {u}: {:?}",
                            c.available()
                        );
                    }
                    None => assert!(r.is_err(), "{tc_text} {u}"),
                }
            }
        }
        let mut st = Clock::new(tc("st 1"));
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
}

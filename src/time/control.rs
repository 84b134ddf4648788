//! The one time control type: what the protocol, `gui --time` and `match --tc`/`--st` read
//! (see [`super::parse`]), the engine budgets for and the match referee keeps.

use std::fmt;
use std::time::Duration;

/// How the game is timed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No time limit: `budget` gives [`super::UNTIMED_SOFT`] / [`super::UNTIMED_HARD`] a move.
    Unlimited,
    /// Sudden death: `main` for the whole game.
    Absolute {
        /// Time for the whole game.
        main: Duration,
    },
    /// `main`, plus `increment` added after every move.
    Fischer {
        /// Initial time.
        main: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// Japanese byo-yomi: after `main`, every move must be made within `period`; overrunning a
    /// period uses it up, and the game is lost when none of the `periods` is left.
    ByoYomi {
        /// Main time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
    /// Canadian byo-yomi: after `main`, `stones` moves must be made in every `period`.
    /// One stone per period is "T seconds a move".
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of one overtime period.
        period: Duration,
        /// Moves to make in each period.
        stones: u32,
    },
    /// At most `per_move` for every move; unused time is lost. The clock's arithmetic is that of
    /// Canadian overtime of one stone from the first move (GTP sends it as `time_settings 0 T 1`).
    PerMove {
        /// Time for each move.
        per_move: Duration,
    },
}

impl TimeControl {
    /// The control meant by GTP `time_settings MAIN BYO STONES`: `BYO = 0` is sudden death (so
    /// `0 0 0` leaves no time at all), `BYO > 0` with `STONES = 0` is no limit, anything else is
    /// Canadian byo-yomi (one stone: `BYO` seconds a move after the main time).
    pub fn from_gtp(main: Duration, byo: Duration, stones: u32) -> TimeControl {
        if byo.is_zero() {
            TimeControl::Absolute { main }
        } else if stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::Canadian {
                main,
                period: byo,
                stones,
            }
        }
    }

    /// Main time (zero for no limit and for a fixed time per move).
    pub fn main(&self) -> Duration {
        match *self {
            TimeControl::Unlimited | TimeControl::PerMove { .. } => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::Fischer { main, .. }
            | TimeControl::ByoYomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        }
    }

    /// The overtime period and its count (periods or stones), if the control has overtime.
    pub fn overtime(&self) -> Option<(Duration, u32)> {
        match *self {
            TimeControl::ByoYomi {
                period, periods, ..
            } => Some((period, periods)),
            TimeControl::Canadian { period, stones, .. } => Some((period, stones)),
            TimeControl::PerMove { per_move } => Some((per_move, 1)),
            _ => None,
        }
    }

    /// The control as the clock's arithmetic sees it: a fixed time per move is Canadian overtime
    /// of one stone with no main time; every other control is itself.
    pub(crate) fn as_clock(&self) -> TimeControl {
        match *self {
            TimeControl::PerMove { per_move } => TimeControl::Canadian {
                main: Duration::ZERO,
                period: per_move,
                stones: 1,
            },
            other => other,
        }
    }

    /// The control in the compact notation of `match --tc` (`60`, `60+0.5`,
    /// `canadian:600:300:25`, `byoyomi:60:10:3`, `st 1`, `none`), used in match records; the
    /// parser reads it back.
    pub fn notation(&self) -> String {
        let s = seconds_text;
        match *self {
            TimeControl::Unlimited => "none".into(),
            TimeControl::Absolute { main } => s(main),
            TimeControl::Fischer { main, increment } => format!("{}+{}", s(main), s(increment)),
            TimeControl::ByoYomi {
                main,
                period,
                periods,
            } => format!("byoyomi:{}:{}:{periods}", s(main), s(period)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => format!("canadian:{}:{}:{stones}", s(main), s(period)),
            TimeControl::PerMove { per_move } => format!("st {}", s(per_move)),
        }
    }
}

impl fmt::Display for TimeControl {
    /// In the words of `kata-time_settings` (plus `st SECONDS`), times in seconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |d: Duration| d.as_secs_f64();
        match *self {
            TimeControl::Unlimited => write!(f, "none"),
            TimeControl::Absolute { main } => write!(f, "absolute {}", s(main)),
            TimeControl::Fischer { main, increment } => {
                write!(f, "fischer {} {}", s(main), s(increment))
            }
            TimeControl::ByoYomi {
                main,
                period,
                periods,
            } => write!(f, "byoyomi {} {} {periods}", s(main), s(period)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => write!(f, "canadian {} {} {stones}", s(main), s(period)),
            TimeControl::PerMove { per_move } => write!(f, "st {}", s(per_move)),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::testing::secs;

    #[test]
    fn gtp_time_settings_meaning() {
        let cases = [
            ((0, 0, 0), TimeControl::Absolute { main: secs(0) }),
            ((300, 0, 0), TimeControl::Absolute { main: secs(300) }),
            ((0, 1, 0), TimeControl::Unlimited),
            ((600, 30, 0), TimeControl::Unlimited),
            (
                (0, 1, 1),
                TimeControl::Canadian {
                    main: secs(0),
                    period: secs(1),
                    stones: 1,
                },
            ),
            (
                (600, 300, 25),
                TimeControl::Canadian {
                    main: secs(600),
                    period: secs(300),
                    stones: 25,
                },
            ),
        ];
        for ((m, b, s), want) in cases {
            assert_eq!(TimeControl::from_gtp(secs(m), secs(b), s), want);
        }
    }

    #[test]
    fn seconds_are_printed_briefly() {
        let s = Duration::from_secs_f64;
        assert_eq!(seconds_text(s(60.0)), "60");
        assert_eq!(seconds_text(s(0.5)), "0.5");
        assert_eq!(seconds_text(s(12.345)), "12.345");
        assert_eq!(seconds_text(Duration::ZERO), "0");
    }
}

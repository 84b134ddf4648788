//! The page's time controls: reading the one the user chose, and how long each side has before
//! its flag falls (the page counts that down; the session ends the game when it reaches zero).

use crate::color::Color;
use crate::time::{Clock, TimeControl};
use std::time::Duration;

/// Reads `none`, `absolute MAIN`, `fischer MAIN INCREMENT`, `byoyomi MAIN PERIOD PERIODS` or
/// `canadian MAIN PERIOD STONES`, times in seconds (the words of `kata-time_settings`).
pub fn parse_control(text: &str) -> Result<TimeControl, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(kind) = words.first().map(|w| w.to_ascii_lowercase()) else {
        return Err("empty time control".into());
    };
    let want = match kind.as_str() {
        "none" => 1,
        "absolute" => 2,
        "fischer" => 3,
        "byoyomi" | "canadian" => 4,
        _ => {
            return Err(format!(
                "unknown time system '{}' (none, absolute, fischer, byoyomi or canadian)",
                words[0]
            ))
        }
    };
    if words.len() != want {
        return Err(format!(
            "the {kind} time system takes {} value(s), got {}",
            want - 1,
            words.len() - 1
        ));
    }
    let secs = |i: usize, what: &str| -> Result<Duration, String> {
        words[i]
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && (0.0..=1e6).contains(s))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("bad {what} '{}' (seconds, 0 to 1000000)", words[i]))
    };
    let count = |i: usize, what: &str| -> Result<u32, String> {
        words[i]
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=1000).contains(&n))
            .ok_or_else(|| format!("bad {what} '{}' (1 to 1000)", words[i]))
    };
    let control = match kind.as_str() {
        "none" => TimeControl::Unlimited,
        "absolute" => TimeControl::Absolute {
            main: secs(1, "main time")?,
        },
        "fischer" => TimeControl::Fischer {
            main: secs(1, "main time")?,
            increment: secs(2, "increment")?,
        },
        "byoyomi" => TimeControl::ByoYomi {
            main: secs(1, "main time")?,
            period: secs(2, "period")?,
            periods: count(3, "periods")?,
        },
        _ => TimeControl::Canadian {
            main: secs(1, "main time")?,
            period: secs(2, "period")?,
            stones: count(3, "stones")?,
        },
    };
    let no_time = match control {
        TimeControl::Unlimited => false,
        TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => main.is_zero(),
        TimeControl::ByoYomi { main, period, .. } | TimeControl::Canadian { main, period, .. } => {
            main.is_zero() && period.is_zero()
        }
    };
    if no_time {
        return Err("that time control leaves no time at all".into());
    }
    Ok(control)
}

/// How long `side` may think on its current move before its flag falls (`None`: untimed).
pub fn time_to_flag(clock: &Clock, side: Color) -> Option<Duration> {
    let t = clock.side(side);
    match *clock.control() {
        TimeControl::Unlimited => None,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(t.main),
        // Overrunning a period uses it up; the flag falls when the last one runs out.
        TimeControl::ByoYomi { period, .. } => Some(if t.overtime {
            t.period_left + period * t.count.saturating_sub(1)
        } else {
            t.main + period * t.count
        }),
        TimeControl::Canadian { period, .. } => Some(if t.overtime {
            t.period_left
        } else {
            t.main + period
        }),
    }
}

/// What the clock of `side` shows besides its time: the overtime state, if any.
pub fn overtime_note(clock: &Clock, side: Color) -> String {
    let t = clock.side(side);
    match *clock.control() {
        TimeControl::ByoYomi { period, .. } if t.overtime => {
            format!("byo-yomi {} × {}s", t.count, period.as_secs_f64())
        }
        TimeControl::ByoYomi {
            period, periods, ..
        } => {
            format!("then {periods} × {}s", period.as_secs_f64())
        }
        TimeControl::Canadian { .. } if t.overtime => format!("{} moves in period", t.count),
        TimeControl::Canadian { period, stones, .. } => {
            format!("then {stones} moves / {}s", period.as_secs_f64())
        }
        TimeControl::Fischer { increment, .. } => format!("+{}s a move", increment.as_secs_f64()),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_read_and_refused() {
        let s = Duration::from_secs;
        let ok = [
            ("none", TimeControl::Unlimited),
            ("absolute 300", TimeControl::Absolute { main: s(300) }),
            (
                "Fischer 60 2",
                TimeControl::Fischer {
                    main: s(60),
                    increment: s(2),
                },
            ),
            (
                "byoyomi 0 10 3",
                TimeControl::ByoYomi {
                    main: s(0),
                    period: s(10),
                    periods: 3,
                },
            ),
        ];
        for (text, want) in ok {
            assert_eq!(parse_control(text), Ok(want), "{text}");
        }
        for (text, want) in [
            ("", "empty"),
            ("sudden 3", "unknown time system"),
            ("absolute", "takes 1 value"),
            ("absolute -1", "bad main time"),
            ("absolute 0", "no time at all"),
            ("canadian 60 30 0", "bad stones"),
            ("fischer 1e9 1", "bad main time"),
        ] {
            let e = parse_control(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn flags_fall_after_main_time_and_every_period() {
        let s = Duration::from_secs;
        let cases = [
            (TimeControl::Unlimited, s(5), None),
            (TimeControl::Absolute { main: s(60) }, s(5), Some(s(55))),
            (
                TimeControl::ByoYomi {
                    main: s(10),
                    period: s(5),
                    periods: 3,
                },
                s(12),
                // 2 s into the first period, less than a period: the next move starts afresh.
                Some(s(15)),
            ),
            (
                TimeControl::Canadian {
                    main: s(10),
                    period: s(30),
                    stones: 5,
                },
                s(16),
                // 6 s into the period, with 4 stones to go in it.
                Some(s(24)),
            ),
        ];
        for (control, spent, want) in cases {
            let mut clock = Clock::new(control);
            clock.charge(Color::White, spent);
            assert_eq!(time_to_flag(&clock, Color::White), want, "{control}");
        }
    }
}

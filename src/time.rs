//! Time controls, the per-side clock, and the pure per-move budget.
//!
//! The clock only records what is known (the control, and each side's time left as last reported by
//! `time_left` or charged after our own moves); `budget` turns it and the position into a soft and a
//! hard limit for one move. Nothing here reads the wall clock, so every rule is tested with tables.

use crate::color::Color;
use crate::position::Position;
use std::fmt;
use std::time::Duration;

/// How the game is timed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// No time limit: `budget` gives [`UNTIMED_SOFT`] / [`UNTIMED_HARD`] a move.
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

    /// Main time (zero for no limit).
    pub fn main(&self) -> Duration {
        match *self {
            TimeControl::Unlimited => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::Fischer { main, .. }
            | TimeControl::ByoYomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        }
    }

    /// The overtime period and its count (periods or stones), if the control has overtime.
    fn overtime(&self) -> Option<(Duration, u32)> {
        match *self {
            TimeControl::ByoYomi {
                period, periods, ..
            } => Some((period, periods)),
            TimeControl::Canadian { period, stones, .. } => Some((period, stones)),
            _ => None,
        }
    }
}

impl fmt::Display for TimeControl {
    /// In the words of `kgs-time_settings` (plus `fischer MAIN INC`), times in seconds.
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
        }
    }
}

/// One side's time left.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SideTime {
    /// Main time left (for Fischer and sudden death, all the time left).
    pub main: Duration,
    /// Whether the side is in overtime (byo-yomi).
    pub overtime: bool,
    /// In overtime: time left in the current period.
    pub period_left: Duration,
    /// In overtime: stones left in the period (Canadian) or periods left (Japanese).
    pub count: u32,
}

impl SideTime {
    fn full(control: &TimeControl) -> SideTime {
        let main = control.main();
        let (period, count) = control.overtime().unwrap_or((Duration::ZERO, 0));
        SideTime {
            main,
            overtime: main.is_zero() && count > 0,
            period_left: period,
            count,
        }
    }
}

/// A time control and both sides' time left.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    sides: [SideTime; 2],
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new(TimeControl::Unlimited)
    }
}

impl Clock {
    /// A clock with both sides' full time under `control`.
    pub fn new(control: TimeControl) -> Clock {
        let full = SideTime::full(&control);
        Clock {
            control,
            sides: [full; 2],
        }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Time left of `side`.
    pub fn side(&self, side: Color) -> &SideTime {
        &self.sides[side.index()]
    }

    /// Gives both sides their full time again (a new game).
    pub fn reset(&mut self) {
        *self = Clock::new(self.control);
    }

    /// Records GTP `time_left COLOR TIME STONES`: with `stones = 0` the side is in main time with
    /// `time` left; otherwise it is in overtime with `time` left in the period and `stones` stones
    /// (Canadian) or periods (Japanese byo-yomi) to go. Controls without overtime read `time` as
    /// the time left, whatever `stones` says.
    pub fn set_left(&mut self, side: Color, time: Duration, stones: u32) {
        let t = &mut self.sides[side.index()];
        if stones == 0 || self.control.overtime().is_none() {
            t.main = time;
            t.overtime = false;
        } else {
            t.main = Duration::ZERO;
            t.overtime = true;
            t.period_left = time;
            t.count = stones;
        }
    }

    /// Charges `side` for a move that took `elapsed`, as a referee's clock would (so the engine keeps
    /// sensible time when the controller sends no `time_left`).
    pub fn charge(&mut self, side: Color, elapsed: Duration) {
        let t = &mut self.sides[side.index()];
        match self.control {
            TimeControl::Unlimited => {}
            TimeControl::Absolute { .. } => t.main = t.main.saturating_sub(elapsed),
            TimeControl::Fischer { increment, .. } => {
                t.main = t.main.saturating_sub(elapsed) + increment
            }
            TimeControl::ByoYomi {
                period, periods, ..
            } => {
                let Some(over) = enter_overtime(t, elapsed, period, periods) else {
                    return;
                };
                // Every whole period overrun is used up; the next move starts a fresh period.
                let lost = (over.as_nanos() / period.as_nanos().max(1)) as u32;
                t.count = t.count.saturating_sub(lost);
                t.period_left = period;
            }
            TimeControl::Canadian { period, stones, .. } => {
                let Some(over) = enter_overtime(t, elapsed, period, stones) else {
                    return;
                };
                t.period_left = t.period_left.saturating_sub(over);
                t.count = t.count.saturating_sub(1);
                if t.count == 0 {
                    t.period_left = period;
                    t.count = stones;
                }
            }
        }
    }
}

/// Takes `elapsed` from main time; returns the part spent in overtime (entering it if needed), or
/// `None` if the move fitted in main time.
fn enter_overtime(
    t: &mut SideTime,
    elapsed: Duration,
    period: Duration,
    count: u32,
) -> Option<Duration> {
    if !t.overtime {
        if elapsed <= t.main {
            t.main -= elapsed;
            return None;
        }
        let over = elapsed - t.main;
        *t = SideTime {
            main: Duration::ZERO,
            overtime: true,
            period_left: period,
            count,
        };
        return Some(over);
    }
    Some(elapsed)
}

/// Limits for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to answer by then.
    pub soft: Duration,
    /// Never think longer (already net of the move overhead, with a safety margin).
    pub hard: Duration,
}

/// Per-move soft limit when the game is not timed.
pub const UNTIMED_SOFT: Duration = Duration::from_secs(2);
/// Per-move hard limit when the game is not timed.
pub const UNTIMED_HARD: Duration = Duration::from_secs(5);
/// Default allowance for the time between the controller's clock and ours (pipes, scheduling,
/// joining search threads), taken off every move.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// The hard limit may be this many times the soft one, when the clock allows.
const STRETCH: u32 = 3;
/// The hard limit never uses more than this fraction of the time this move can have (after the
/// overhead): the rest absorbs a loaded machine's scheduling delays.
const SAFETY: f64 = 0.9;
/// The soft limit is at most this fraction of the hard one, so a settled search can stop early.
const SOFT_OF_HARD: f64 = 0.8;
/// Fewest moves the main time is shared among (while that many can still be played).
const MIN_MOVES_LEFT: u32 = 6;

/// Moves the side to move is expected to still make: a third of the empty squares (each move burns
/// one, both sides move, and games end before the board is full), at least a few while that many
/// remain possible.
pub fn moves_left(pos: &Position) -> u32 {
    let empty = pos.empty_squares().count();
    let most = empty.div_ceil(2);
    (empty / 3).max(MIN_MOVES_LEFT.min(most)).max(1)
}

/// The share of `pool` for one of `moves` moves, each of which also pays `overhead`.
fn share(pool: Duration, moves: u32, overhead: Duration) -> Duration {
    pool.saturating_sub(overhead * moves) / moves.max(1)
}

/// Soft and hard limits from a target time and what this move can have at most.
///
/// When the target is already all this move can have (a byo-yomi period, the last stone of a
/// Canadian period), time not used is lost rather than saved, so the soft limit is the hard one.
fn limits(target: Duration, available: Duration, overhead: Duration) -> Budget {
    let hard = (target * STRETCH).min(available.saturating_sub(overhead).mul_f64(SAFETY));
    let soft = if target + overhead >= available {
        hard
    } else {
        target.min(hard.mul_f64(SOFT_OF_HARD))
    };
    Budget { soft, hard }
}

/// Soft and hard limits for `side`'s next move in `pos` under `clock`, with `overhead` reserved per
/// move for communication. Pure: the caller subtracts the time already spent since the command
/// arrived.
///
/// Main time is shared among the expected [`moves_left`]; in byo-yomi a move may use its period
/// (whichever is larger, since once main time is gone every move gets a period); Fischer counts
/// the increments still to come but never spends more than is on the clock now; Canadian overtime
/// shares the period among the stones left, keeping for each later stone half its share.
pub fn budget(clock: &Clock, side: Color, pos: &Position, overhead: Duration) -> Budget {
    let t = clock.side(side);
    let n = moves_left(pos);
    match *clock.control() {
        TimeControl::Unlimited => Budget {
            soft: UNTIMED_SOFT,
            hard: UNTIMED_HARD,
        },
        TimeControl::Absolute { .. } => limits(share(t.main, n, overhead), t.main, overhead),
        TimeControl::Fischer { increment, .. } => {
            let pool = t.main + increment * (n - 1);
            limits(share(pool, n, overhead), t.main, overhead)
        }
        TimeControl::ByoYomi { period, .. } => {
            if t.overtime {
                limits(t.period_left, t.period_left, overhead)
            } else {
                let target = share(t.main, n, overhead).max(period);
                limits(target, t.main + period, overhead)
            }
        }
        TimeControl::Canadian { period, stones, .. } => {
            if t.overtime {
                let s = t.count.max(1);
                let each = share(t.period_left, s, overhead);
                let keep = (each / 2 + overhead) * (s - 1);
                limits(each, t.period_left.saturating_sub(keep), overhead)
            } else {
                let per_stone = share(period, stones.max(1), overhead);
                let target = share(t.main, n, overhead).max(per_stone);
                limits(target, t.main + per_stone, overhead)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }
    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    /// A 10x10 position with `empty` empty squares (arrows fill the rest from the top).
    fn with_empty(empty: u32) -> Position {
        let mut p = Position::standard();
        let squares: Vec<_> = Position::standard().empty_squares().iter().collect();
        for &sq in squares.iter().rev().take((92 - empty) as usize) {
            p.put(sq, crate::position::Piece::Arrow);
        }
        assert_eq!(p.empty_squares().count(), empty);
        p
    }

    #[test]
    fn moves_left_table() {
        for (empty, want) in [
            (92, 30),
            (60, 20),
            (30, 10),
            (18, 6),
            (12, 6),
            (7, 4),
            (2, 1),
        ] {
            assert_eq!(moves_left(&with_empty(empty)), want, "{empty} empty");
        }
        // A full board still has one move to budget for (it will not be asked, but never 0).
        assert_eq!(moves_left(&with_empty(0)), 1);
    }

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

    /// (control, time_left (secs ms, stones) or None for full, empty squares, soft ms, hard ms)
    #[test]
    fn budget_table() {
        let canadian = |main, period, stones| TimeControl::Canadian {
            main: secs(main),
            period: secs(period),
            stones,
        };
        let byoyomi = |main, period, periods| TimeControl::ByoYomi {
            main: secs(main),
            period: secs(period),
            periods,
        };
        let o = DEFAULT_MOVE_OVERHEAD;
        type Case = (TimeControl, Option<(u64, u32)>, u32, u64, u64);
        let cases: [Case; 13] = [
            (TimeControl::Unlimited, None, 92, 2000, 5000),
            // 300 s sudden death at the start: 30 moves expected, 10 s minus overhead each.
            (
                TimeControl::Absolute { main: secs(300) },
                None,
                92,
                9950,
                29850,
            ),
            // Late, little time: six moves share 3 s.
            (
                TimeControl::Absolute { main: secs(300) },
                Some((3000, 0)),
                14,
                450,
                1350,
            ),
            // No time at all: answer at once.
            (TimeControl::Absolute { main: secs(0) }, None, 92, 0, 0),
            // Fischer 60 s + 2 s: the increments to come count, but only 60 s is on the clock.
            (
                TimeControl::Fischer {
                    main: secs(60),
                    increment: secs(2),
                },
                None,
                92,
                3883,
                11649,
            ),
            // Fischer with almost nothing left: spend 90% of what is there after the overhead.
            (
                TimeControl::Fischer {
                    main: secs(1),
                    increment: secs(5),
                },
                Some((1000, 0)),
                92,
                855,
                855,
            ),
            // One second a move (time_settings 0 1 1): hard leaves 145 ms of margin, and since
            // unused time is lost, soft is hard.
            (canadian(0, 1, 1), None, 92, 855, 855),
            // The same after time_left reports the period.
            (canadian(0, 1, 1), Some((1000, 1)), 40, 855, 855),
            // Canadian overtime, 10 s for 2 stones: the second stone keeps half its share.
            (canadian(0, 300, 25), Some((10_000, 2)), 40, 4950, 6682),
            // Canadian main time: 600 s over 30 moves beats 300 s / 25 stones.
            (canadian(600, 300, 25), None, 92, 19950, 59850),
            // Byo-yomi in main time with a long period: about the period (capped by the hard limit).
            (byoyomi(10, 30, 5), None, 92, 28764, 35955),
            // Byo-yomi overtime: 90% of the period after overhead, and soft is hard.
            (byoyomi(10, 30, 5), Some((30_000, 5)), 92, 26955, 26955),
            // Canadian overtime with almost nothing left: nothing to spend.
            (canadian(0, 300, 25), Some((40, 3)), 40, 0, 0),
        ];
        for (i, (control, left, empty, soft, hard)) in cases.into_iter().enumerate() {
            let mut clock = Clock::new(control);
            if let Some((t, s)) = left {
                clock.set_left(Color::White, ms(t), s);
            }
            let b = budget(&clock, Color::White, &with_empty(empty), o);
            assert_eq!(
                (b.soft.as_millis() as u64, b.hard.as_millis() as u64),
                (soft, hard),
                "case {i}: {control:?} {left:?}"
            );
        }
    }

    #[test]
    fn budget_never_exceeds_the_time_on_the_clock() {
        let controls = [
            TimeControl::Absolute { main: secs(5) },
            TimeControl::Fischer {
                main: secs(5),
                increment: secs(3),
            },
            TimeControl::ByoYomi {
                main: secs(5),
                period: secs(2),
                periods: 3,
            },
            TimeControl::Canadian {
                main: secs(5),
                period: secs(4),
                stones: 3,
            },
        ];
        for control in controls {
            for left_ms in [0, 1, 30, 49, 50, 51, 200, 999, 1000, 4000, 5000] {
                for stones in [0, 1, 2, 3] {
                    for empty in [0, 1, 5, 20, 92] {
                        for overhead in [ms(0), ms(50), ms(500)] {
                            let mut clock = Clock::new(control);
                            clock.set_left(Color::Black, ms(left_ms), stones);
                            let t = *clock.side(Color::Black);
                            let b = budget(&clock, Color::Black, &with_empty(empty), overhead);
                            assert!(b.soft <= b.hard, "{control:?} {t:?}: {b:?}");
                            // The most this move can take without losing (or losing a period).
                            let most = match control {
                                TimeControl::ByoYomi { period, .. } if !t.overtime => {
                                    t.main + period
                                }
                                TimeControl::Canadian { period, stones, .. } if !t.overtime => {
                                    t.main + period / stones
                                }
                                _ if t.overtime => t.period_left,
                                _ => t.main,
                            };
                            assert!(
                                b.hard + overhead <= most || b.hard.is_zero(),
                                "{control:?} {t:?} overhead {overhead:?}: {b:?} exceeds {most:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn charging_table() {
        let ot = |period_left: u64, count| SideTime {
            main: Duration::ZERO,
            overtime: true,
            period_left: ms(period_left),
            count,
        };
        let main = |left: u64| SideTime {
            main: ms(left),
            overtime: false,
            period_left: Duration::ZERO,
            count: 0,
        };
        let canadian = TimeControl::Canadian {
            main: secs(2),
            period: secs(10),
            stones: 3,
        };
        let byoyomi = TimeControl::ByoYomi {
            main: secs(2),
            period: secs(5),
            periods: 3,
        };
        let with_period = |mut t: SideTime, period: u64, count| {
            t.period_left = ms(period);
            t.count = count;
            t
        };
        // (control, moves' durations in ms, expected time left)
        let cases: [(TimeControl, &[u64], SideTime); 8] = [
            (TimeControl::Unlimited, &[5000], main(0)),
            (
                TimeControl::Absolute { main: secs(10) },
                &[3000, 4000],
                main(3000),
            ),
            (TimeControl::Absolute { main: secs(1) }, &[3000], main(0)),
            (
                TimeControl::Fischer {
                    main: secs(10),
                    increment: secs(2),
                },
                &[3000, 1000],
                main(10_000),
            ),
            (canadian, &[1500], with_period(main(500), 10_000, 3)),
            // Main runs out 1 s into the move: the period has 9 s left for 2 more stones.
            (canadian, &[1500, 1500], ot(9000, 2)),
            // Three stones played in the period: a fresh period.
            (canadian, &[2000, 1000, 1000, 1000], ot(10_000, 3)),
            // Byo-yomi: 2 s main, then a 11 s move overruns two whole periods.
            (byoyomi, &[2000, 11_000], ot(5000, 1)),
        ];
        for (control, moves, want) in cases {
            let mut clock = Clock::new(control);
            for &m in moves {
                clock.charge(Color::White, ms(m));
            }
            assert_eq!(
                clock.side(Color::White),
                &want,
                "{control:?} after {moves:?}"
            );
            assert_eq!(clock.side(Color::Black), &SideTime::full(&control));
        }
    }

    #[test]
    fn time_left_overrides_and_reset_restores() {
        let control = TimeControl::Canadian {
            main: secs(60),
            period: secs(10),
            stones: 5,
        };
        let mut clock = Clock::new(control);
        clock.set_left(Color::White, secs(7), 2);
        assert_eq!(
            clock.side(Color::White),
            &SideTime {
                main: Duration::ZERO,
                overtime: true,
                period_left: secs(7),
                count: 2
            }
        );
        clock.set_left(Color::White, secs(30), 0);
        assert_eq!(clock.side(Color::White).main, secs(30));
        assert!(!clock.side(Color::White).overtime);
        clock.reset();
        assert_eq!(clock, Clock::new(control));
        // Without overtime the stones are ignored.
        let mut abs = Clock::new(TimeControl::Absolute { main: secs(60) });
        abs.set_left(Color::Black, secs(12), 3);
        assert_eq!(abs.side(Color::Black).main, secs(12));
    }
}

//! The pure per-move budget: soft and hard limits from the clock and the position.

use super::clock::Clock;
use super::control::TimeControl;
use crate::color::Color;
use crate::position::Position;
use std::time::Duration;

/// Limits for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
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
fn limits(target: Duration, available: Duration, overhead: Duration) -> TimeBudget {
    let hard = (target * STRETCH).min(available.saturating_sub(overhead).mul_f64(SAFETY));
    let soft = if target + overhead >= available {
        hard
    } else {
        target.min(hard.mul_f64(SOFT_OF_HARD))
    };
    TimeBudget { soft, hard }
}

/// Soft and hard limits for `side`'s next move in `pos` under `clock`, with `overhead` (the user's
/// move overhead) reserved per move for communication. Pure: the caller subtracts the time already
/// spent since the command arrived.
///
/// The time reported is first lowered by its rounding unit (once), and every move, this one and
/// each one the time is shared with, pays the overhead plus the controller's latency
/// ([`Clock::lag_buffer`]). Main time is then shared among the expected [`moves_left`]; in
/// byo-yomi a move may use its period (whichever is larger, since once main time is gone every
/// move gets a period); Fischer counts the increments still to come but never spends more than is
/// on the clock now; Canadian overtime shares the period among the stones left, keeping for each
/// later stone half its share.
pub fn budget(clock: &Clock, side: Color, pos: &Position, overhead: Duration) -> TimeBudget {
    let t = clock.side(side);
    let n = moves_left(pos);
    let overhead = overhead + clock.lag_buffer();
    // The least the controller's clock may hold for the current phase.
    let sure = |time: Duration| time.saturating_sub(t.precision);
    let b = match clock.control().as_clock() {
        TimeControl::Unlimited => TimeBudget {
            soft: UNTIMED_SOFT,
            hard: UNTIMED_HARD,
        },
        TimeControl::Absolute { .. } => {
            let main = sure(t.main);
            limits(share(main, n, overhead), main, overhead)
        }
        TimeControl::Fischer { increment, .. } => {
            let main = sure(t.main);
            let pool = main + increment * (n - 1);
            limits(share(pool, n, overhead), main, overhead)
        }
        TimeControl::ByoYomi { period, .. } => {
            if t.overtime {
                let left = sure(t.period_left);
                limits(left, left, overhead)
            } else {
                let main = sure(t.main);
                let target = share(main, n, overhead).max(period);
                limits(target, main + period, overhead)
            }
        }
        TimeControl::Canadian { period, stones, .. } => {
            if t.overtime {
                let left = sure(t.period_left);
                let s = t.count.max(1);
                let each = share(left, s, overhead);
                let keep = (each / 2 + overhead) * (s - 1);
                limits(each, left.saturating_sub(keep), overhead)
            } else {
                let main = sure(t.main);
                let per_stone = share(period, stones.max(1), overhead);
                let target = share(main, n, overhead).max(per_stone);
                limits(target, main + per_stone, overhead)
            }
        }
        TimeControl::PerMove { .. } => unreachable!("a fixed time per move is Canadian here"),
    };
    // Never past the flag, whatever the arithmetic above allows.
    match clock.time_to_flag(side) {
        Some(flag) if b.hard > flag => TimeBudget {
            soft: b.soft.min(flag),
            hard: flag,
        },
        _ => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::testing::{ms, secs};

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
                clock.set_left(Color::White, ms(t), s, Duration::ZERO);
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
        for (control, unit) in controls
            .into_iter()
            .flat_map(|c| [(c, Duration::ZERO), (c, secs(1))])
        {
            for left_ms in [0, 1, 30, 49, 50, 51, 200, 999, 1000, 1999, 2000, 4000, 5000] {
                for stones in [0, 1, 2, 3] {
                    for empty in [0, 1, 5, 20, 92] {
                        for overhead in [ms(0), ms(50), ms(500)] {
                            let mut clock = Clock::new(control);
                            clock.set_left(Color::Black, ms(left_ms), stones, unit);
                            let t = *clock.side(Color::Black);
                            let b = budget(&clock, Color::Black, &with_empty(empty), overhead);
                            assert!(b.soft <= b.hard, "{control:?} {t:?}: {b:?}");
                            // The most this move can take without losing (or losing a period),
                            // where a rounded report may hold up to its unit less.
                            let sure = |d: Duration| d.saturating_sub(t.precision);
                            let most = match control {
                                TimeControl::ByoYomi { period, .. } if !t.overtime => {
                                    sure(t.main) + period
                                }
                                TimeControl::Canadian { period, stones, .. } if !t.overtime => {
                                    sure(t.main) + period / stones
                                }
                                _ if t.overtime => sure(t.period_left),
                                _ => sure(t.main),
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

    /// Whole-second reports (Quarry's): (control, report (secs, stones), empty squares, soft ms,
    /// hard ms). The report is rounded, so up to a second comes off once, and every move pays the
    /// move overhead plus the least lag assumed for such a controller.
    #[test]
    fn budget_under_whole_second_reports() {
        let canadian = |main, period, stones| TimeControl::Canadian {
            main: secs(main),
            period: secs(period),
            stones,
        };
        type Case = (TimeControl, (u64, u32), u32, u64, u64);
        let cases: [Case; 9] = [
            // The last stone of a period with "2" on the clock: at most 1 s, less the reserve.
            (canadian(10, 5, 5), (2, 1), 40, 810, 810),
            (canadian(10, 5, 5), (3, 1), 40, 1710, 1710),
            // Four stones left in a period that a move spilled into.
            (canadian(10, 5, 5), (5, 4), 40, 900, 2025),
            // An untouched period is exact: all its stones are left.
            (canadian(10, 5, 5), (5, 5), 40, 900, 2430),
            // Main time running out: the rounding comes off it, not off the period after it.
            (canadian(10, 5, 5), (4, 0), 60, 900, 2700),
            // 30 s sudden death: 17 s reported, 10 moves to go.
            (
                TimeControl::Absolute { main: secs(30) },
                (17, 0),
                30,
                1500,
                4500,
            ),
            // 3 s reported for 10 moves: fast moves.
            (
                TimeControl::Absolute { main: secs(30) },
                (3, 0),
                30,
                100,
                300,
            ),
            // "1" may be nothing at all: answer at once.
            (TimeControl::Absolute { main: secs(30) }, (1, 0), 30, 0, 0),
            // The full main time before the first move is exact.
            (
                TimeControl::Absolute { main: secs(30) },
                (30, 0),
                92,
                900,
                2700,
            ),
        ];
        for (i, (control, (t, stones), empty, soft, hard)) in cases.into_iter().enumerate() {
            let mut clock = Clock::new(control);
            clock.set_left(Color::White, secs(t), stones, secs(1));
            let b = budget(
                &clock,
                Color::White,
                &with_empty(empty),
                DEFAULT_MOVE_OVERHEAD,
            );
            assert_eq!(
                (b.soft.as_millis() as u64, b.hard.as_millis() as u64),
                (soft, hard),
                "case {i}: {control:?} {t} {stones}"
            );
        }
    }

    /// A whole-second report of T s for a move that must be made in it (the last Canadian stone,
    /// a byo-yomi period) never yields a hard limit above T - 1 s, whatever the overhead.
    #[test]
    fn a_reported_whole_second_is_never_trusted() {
        let controls = [
            TimeControl::Canadian {
                main: secs(10),
                period: secs(30),
                stones: 5,
            },
            TimeControl::Canadian {
                main: secs(0),
                period: secs(60),
                stones: 1,
            },
            TimeControl::ByoYomi {
                main: secs(10),
                period: secs(60),
                periods: 3,
            },
        ];
        for control in controls {
            for t in 0..30 {
                for overhead in [ms(0), ms(50), ms(300)] {
                    let mut clock = Clock::new(control);
                    clock.set_left(Color::White, secs(t), 1, secs(1));
                    for empty in [5, 40, 92] {
                        let b = budget(&clock, Color::White, &with_empty(empty), overhead);
                        assert!(
                            b.hard + overhead < secs(t.max(1) - 1) || b.hard.is_zero(),
                            "{control:?} reported {t} 1, overhead {overhead:?}: {b:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_clock_learns_the_controller_lag_and_budgets_for_it() {
        let control = TimeControl::Absolute { main: secs(60) };
        let mut clock = Clock::new(control);
        let pos = with_empty(60);
        let before = budget(&clock, Color::White, &pos, DEFAULT_MOVE_OVERHEAD);
        // Precise reports: the controller charges 1.5 s for moves the engine timed at 1 s.
        clock.set_left(Color::White, secs(60), 0, ms(1));
        for left in [58_500, 57_000, 55_500] {
            clock.charge(Color::White, secs(1));
            clock.set_left(Color::White, ms(left), 0, ms(1));
        }
        // Over the three moves: (1.5 s - 1 s) x 3 less 1 ms of rounding, per move.
        let lag = clock.lag().learned();
        assert_eq!(lag, (ms(1500 * 3) - secs(3) - ms(1)) / 3);
        assert_eq!(clock.lag_buffer(), lag);
        let after = budget(&clock, Color::White, &pos, DEFAULT_MOVE_OVERHEAD);
        // 20 moves to share the time: each pays the lag too.
        assert!(after.soft < before.soft, "{before:?} {after:?}");
        let reserve = DEFAULT_MOVE_OVERHEAD + lag;
        assert_eq!(after.soft, (ms(55_499) - reserve * 20) / 20);
        // A new game or time control keeps what was learned.
        clock.reset();
        assert_eq!(clock.lag_buffer(), lag);
        let clock = clock.with_control(TimeControl::Unlimited);
        assert_eq!(clock.lag().learned(), lag);
    }
}

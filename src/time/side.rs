//! One side's time left, how a move is charged to it, and the one rule for when its flag falls.

use super::control::TimeControl;
use std::time::Duration;

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
    /// How much less than `main` (or `period_left` in overtime) the controller's clock may really
    /// hold: the rounding unit of the report it came from (1 s for GTP's whole seconds), zero when
    /// the time is exact.
    pub precision: Duration,
}

impl SideTime {
    /// A side's full time at the start of a game under `control` (in overtime from the first
    /// move when there is no main time).
    pub fn full(control: &TimeControl) -> SideTime {
        let main = control.main();
        let (period, count) = control.overtime().unwrap_or((Duration::ZERO, 0));
        SideTime {
            main,
            overtime: main.is_zero() && count > 0,
            period_left: period,
            count,
            precision: Duration::ZERO,
        }
    }

    /// The time the current phase has left: the main time, or the period in overtime.
    pub fn current(&self) -> Duration {
        if self.overtime {
            self.period_left
        } else {
            self.main
        }
    }

    /// Charges a move that took `elapsed` under `control`, as a referee's clock would. The clock
    /// stops at zero (then a Fischer increment is added); whether the move was in time is
    /// [`SideTime::flagged`]'s to say.
    pub fn charge(&mut self, control: &TimeControl, elapsed: Duration) {
        match control.as_clock() {
            TimeControl::Unlimited | TimeControl::PerMove { .. } => {}
            TimeControl::Absolute { .. } => self.main = self.main.saturating_sub(elapsed),
            TimeControl::Fischer { increment, .. } => {
                self.main = self.main.saturating_sub(elapsed) + increment
            }
            TimeControl::ByoYomi {
                period, periods, ..
            } => {
                let Some(over) = enter_overtime(self, elapsed, period, periods) else {
                    return;
                };
                // Every whole period overrun is used up; the next move starts a fresh period.
                let lost = (over.as_nanos() / period.as_nanos().max(1)) as u32;
                self.count = self.count.saturating_sub(lost);
                self.period_left = period;
                self.precision = Duration::ZERO;
            }
            TimeControl::Canadian { period, stones, .. } => {
                let Some(over) = enter_overtime(self, elapsed, period, stones) else {
                    return;
                };
                self.period_left = self.period_left.saturating_sub(over);
                self.count = self.count.saturating_sub(1);
                if self.count == 0 {
                    self.period_left = period;
                    self.count = stones;
                    self.precision = Duration::ZERO;
                }
            }
        }
    }

    /// How long this side may think on its current move before its flag falls under `control`
    /// (`None`: untimed). The one flag-fall rule: the page's clock counts it down, the match
    /// referee forfeits a move beyond it, and the engine never plans past it.
    ///
    /// Sudden death and Fischer: the time left. Byo-yomi: overrunning a period uses it up, so the
    /// flag falls when the last period runs out. Canadian: in main time a move may run into the
    /// first period; in overtime, the period's time left (a fixed time per move is one stone).
    pub fn time_to_flag(&self, control: &TimeControl) -> Option<Duration> {
        match control.as_clock() {
            TimeControl::Unlimited => None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(self.main),
            TimeControl::ByoYomi { period, .. } => Some(if self.overtime {
                self.period_left + period * self.count.saturating_sub(1)
            } else {
                self.main + period * self.count
            }),
            TimeControl::Canadian { period, .. } | TimeControl::PerMove { per_move: period } => {
                Some(if self.overtime {
                    self.period_left
                } else {
                    self.main + period
                })
            }
        }
    }

    /// Whether a move that has taken `elapsed` so far has lost on time (strictly beyond
    /// [`SideTime::time_to_flag`]).
    pub fn flagged(&self, control: &TimeControl, elapsed: Duration) -> bool {
        self.time_to_flag(control)
            .is_some_and(|limit| elapsed > limit)
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
            precision: Duration::ZERO,
        };
        return Some(over);
    }
    Some(elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flag-fall rule, once for every control: (control, time spent on one move from a full
    /// clock, time to the flag after it, whether a move of `spent` from a full clock flags).
    #[test]
    fn flags_fall_after_main_time_and_every_period() {
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        let cases = [
            (TimeControl::Unlimited, s(5), None, false),
            (
                TimeControl::Absolute { main: s(60) },
                s(5),
                Some(s(55)),
                false,
            ),
            (
                TimeControl::Absolute { main: s(0) },
                ms(1),
                Some(s(0)),
                true,
            ),
            (
                TimeControl::Fischer {
                    main: s(3),
                    increment: s(2),
                },
                s(1),
                Some(s(4)),
                false,
            ),
            (
                TimeControl::ByoYomi {
                    main: s(10),
                    period: s(5),
                    periods: 3,
                },
                s(12),
                // 2 s into the first period, less than a period: the next move starts afresh.
                Some(s(15)),
                false,
            ),
            (
                TimeControl::ByoYomi {
                    main: s(10),
                    period: s(5),
                    periods: 3,
                },
                // Main time and all three periods, and a little more.
                ms(25_001),
                Some(s(5)),
                true,
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
                false,
            ),
            (
                TimeControl::Canadian {
                    main: s(10),
                    period: s(30),
                    stones: 5,
                },
                // Main time and the whole first period: nothing left in it.
                ms(40_001),
                Some(s(0)),
                true,
            ),
            // Every move starts a fresh period.
            (
                TimeControl::PerMove { per_move: s(2) },
                s(2),
                Some(s(2)),
                false,
            ),
            (
                TimeControl::PerMove { per_move: s(2) },
                ms(2001),
                Some(s(2)),
                true,
            ),
        ];
        for (control, spent, want, late) in cases {
            let full = SideTime::full(&control);
            assert_eq!(full.flagged(&control, spent), late, "{control} {spent:?}");
            let mut t = full;
            t.charge(&control, spent);
            assert_eq!(t.time_to_flag(&control), want, "{control}");
        }
    }
}

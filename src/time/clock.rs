//! The engine's clock: a time control, both sides' time as last reported or charged, and what is
//! known of the controller's clock.

use super::control::TimeControl;
use super::lag::LagModel;
use super::side::SideTime;
use crate::color::Color;
use std::time::Duration;

/// Least latency assumed per move, beyond the move overhead, for a controller that reports whole
/// seconds (a GUI) until its reports show more. Chosen from games in Quarry (see docs/time.md).
pub const DEFAULT_COARSE_LAG: Duration = Duration::from_millis(50);

/// A time control, both sides' time left, and what is known of the controller's clock.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    sides: [SideTime; 2],
    /// Moves charged to each side since the game started.
    moves: [u32; 2],
    lag: LagModel,
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
            moves: [0; 2],
            lag: LagModel::default(),
        }
    }

    /// A clock with both sides' full time under `control` that keeps what this one learned about
    /// the controller (its latency belongs to the controller, not to the game).
    pub fn with_control(&self, control: TimeControl) -> Clock {
        let mut clock = Clock::new(control);
        clock.lag = self.lag;
        clock.lag.new_game();
        clock
    }

    /// What was learned about the controller's clock.
    pub fn lag(&self) -> &LagModel {
        &self.lag
    }

    /// Time to keep back on every move for the controller: its learned latency, and at least
    /// [`DEFAULT_COARSE_LAG`] once it has sent whole-second reports (the mark of a GUI, whose
    /// latency is unknown until its reports show it).
    pub fn lag_buffer(&self) -> Duration {
        let default = if self.lag.coarse() {
            DEFAULT_COARSE_LAG
        } else {
            Duration::ZERO
        };
        self.lag.learned().max(default)
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Time left of `side`.
    pub fn side(&self, side: Color) -> &SideTime {
        &self.sides[side.index()]
    }

    /// Gives both sides their full time again (a new game), keeping what was learned about the
    /// controller.
    pub fn reset(&mut self) {
        *self = self.with_control(self.control);
    }

    /// Records GTP `time_left COLOR TIME STONES`, where `time` was written to a precision of
    /// `unit` (1 s for a whole number, 1 ms for `12.345`): with `stones = 0` the side is in main
    /// time with `time` left; otherwise it is in overtime with `time` left in the period and
    /// `stones` stones (Canadian) or periods (Japanese byo-yomi) to go. Controls without overtime
    /// read `time` as the time left, whatever `stones` says.
    ///
    /// The real time may be up to `unit` less, except where the report can only be exact: a
    /// byo-yomi period (each move starts a fresh one), an untouched Canadian period (all its
    /// stones left: a move that spills into a period counts as one of its stones), and the full
    /// main time before the side's first move. Comparing the report with the engine's own
    /// charges teaches the clock the controller's latency.
    pub fn set_left(&mut self, side: Color, time: Duration, stones: u32, unit: Duration) {
        let mut report = self.sides[side.index()];
        if stones == 0 || self.control.overtime().is_none() {
            report.main = time;
            report.overtime = false;
        } else {
            report.main = Duration::ZERO;
            report.overtime = true;
            report.period_left = time;
            report.count = stones;
        }
        report.precision = if self.is_exact(side, &report) {
            Duration::ZERO
        } else {
            unit
        };
        self.lag.reported(side, report, unit);
        self.sides[side.index()] = report;
    }

    /// Whether a report can only be exact, whatever its rounding (see [`Clock::set_left`]).
    fn is_exact(&self, side: Color, report: &SideTime) -> bool {
        match (self.control.as_clock(), report.overtime) {
            (TimeControl::ByoYomi { period, .. }, true) => report.period_left == period,
            (TimeControl::Canadian { period, stones, .. }, true) => {
                report.period_left == period && report.count == stones
            }
            (_, false) => self.moves[side.index()] == 0 && report.main == self.control.main(),
            _ => false,
        }
    }

    /// Charges `side` for a move that took `elapsed`, as a referee's clock would (so the engine keeps
    /// sensible time when the controller sends no `time_left`), and tells the lag model.
    pub fn charge(&mut self, side: Color, elapsed: Duration) {
        self.sides[side.index()].charge(&self.control, elapsed);
        self.moves[side.index()] += 1;
        self.lag.moved(&self.control, side, elapsed);
    }

    /// How long `side` may think on its current move before its flag falls (`None`: untimed):
    /// [`SideTime::time_to_flag`] under this clock's control.
    pub fn time_to_flag(&self, side: Color) -> Option<Duration> {
        self.side(side).time_to_flag(&self.control)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::testing::{ms, secs};

    #[test]
    fn charging_table() {
        let ot = |period_left: u64, count| SideTime {
            main: Duration::ZERO,
            overtime: true,
            period_left: ms(period_left),
            count,
            precision: Duration::ZERO,
        };
        let main = |left: u64| SideTime {
            main: ms(left),
            overtime: false,
            period_left: Duration::ZERO,
            count: 0,
            precision: Duration::ZERO,
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
        clock.set_left(Color::White, secs(7), 2, secs(1));
        assert_eq!(
            clock.side(Color::White),
            &SideTime {
                main: Duration::ZERO,
                overtime: true,
                period_left: secs(7),
                count: 2,
                precision: secs(1),
            }
        );
        clock.set_left(Color::White, secs(30), 0, ms(1));
        assert_eq!(clock.side(Color::White).main, secs(30));
        assert!(!clock.side(Color::White).overtime);
        clock.reset();
        assert_eq!(
            clock.side(Color::White),
            Clock::new(control).side(Color::White)
        );
        // Without overtime the stones are ignored.
        let mut abs = Clock::new(TimeControl::Absolute { main: secs(60) });
        abs.set_left(Color::Black, secs(12), 3, secs(1));
        assert_eq!(abs.side(Color::Black).main, secs(12));
    }
}

//! Learning how much a controller charges per move beyond what the engine measured.
//!
//! The engine times a move from the moment it read `genmove` to the moment it answered. The
//! controller's clock also runs while the command and the answer are in the pipes, while the
//! controller (a GUI) redraws, and while the machine schedules other work: that *lag* is invisible
//! from inside, but every `time_left` report shows it. Between two reports for the same side, the
//! controller charged `before - after`; the engine spent its own measured times; the difference,
//! less what the reports' rounding can explain, is a proven lower bound on the lag.
//!
//! Two predictions are kept per side: one from the last report (sees a lag spike on one move) and
//! one from the first report of the current phase (main time, or one overtime count), which
//! telescopes the rounding error of whole-second reports over many moves. The learned lag is the
//! largest bound seen; it only grows, because a controller that once charged that much may again.

use super::control::TimeControl;
use super::side::SideTime;
use crate::color::Color;
use std::time::Duration;

/// Most lag believed from reports: a larger apparent charge means the reports and the engine's
/// moves do not belong together (a clock set by hand, a controller replaying a game), not a slow
/// pipe, and is ignored rather than allowed to starve every later move.
pub const MAX_LAG: Duration = Duration::from_secs(2);

/// The clock a report predicts after the engine's own moves, and how many moves that covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Prediction {
    /// The report's state, charged with the engine's measured move times since.
    state: SideTime,
    /// Moves charged since the report.
    moves: u32,
}

impl Prediction {
    fn new(report: SideTime) -> Prediction {
        Prediction {
            state: report,
            moves: 0,
        }
    }

    /// The lower bound on the lag per move proven by `report`, if it says anything.
    fn bound(&self, report: &SideTime) -> Option<Duration> {
        if self.moves == 0 || !same_phase(&self.state, report) {
            return None;
        }
        let predicted = self.state.current();
        if predicted.is_zero() {
            // The prediction hit zero: the clock it follows would have run out, so it no longer
            // tracks the controller's.
            return None;
        }
        // Both reports rounded the same way: their difference is off by less than one unit.
        let slack = self.state.precision.max(report.precision);
        let excess = predicted
            .checked_sub(report.current())?
            .checked_sub(slack)?;
        Some(excess / self.moves)
    }
}

/// Whether two clock states are in the same phase: both in main time, or both in overtime with
/// the same count (stones or periods left), so that their times compare directly.
fn same_phase(a: &SideTime, b: &SideTime) -> bool {
    a.overtime == b.overtime && (!a.overtime || a.count == b.count)
}

/// Per-side predictions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Track {
    since_last: Option<Prediction>,
    since_phase_start: Option<Prediction>,
}

/// The controller's lag as learned from its reports, and the evidence being gathered.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LagModel {
    learned: Duration,
    coarse: bool,
    tracks: [Track; 2],
}

impl LagModel {
    /// The largest extra charge per move proven so far.
    pub fn learned(&self) -> Duration {
        self.learned
    }

    /// Whether the controller has sent reports rounded to whole seconds (a GUI-like controller,
    /// whose own latency is unknown until measured).
    pub fn coarse(&self) -> bool {
        self.coarse
    }

    /// Forgets the evidence about the current game (a new game or a new time control), keeping
    /// what was learned about the controller.
    pub fn new_game(&mut self) {
        self.tracks = Default::default();
    }

    /// Records that `side` made a move the engine measured at `elapsed`.
    pub fn moved(&mut self, control: &TimeControl, side: Color, elapsed: Duration) {
        let t = &mut self.tracks[side.index()];
        for p in [&mut t.since_last, &mut t.since_phase_start]
            .into_iter()
            .flatten()
        {
            p.state.charge(control, elapsed);
            p.moves += 1;
        }
    }

    /// Records a report for `side` that was rounded to `unit`; returns the lag bound it proved, if
    /// any.
    pub fn reported(&mut self, side: Color, report: SideTime, unit: Duration) -> Option<Duration> {
        if unit >= Duration::from_secs(1) {
            self.coarse = true;
        }
        let t = &mut self.tracks[side.index()];
        let plausible = |p: &Option<Prediction>| {
            p.and_then(|p| p.bound(&report))
                .map(|b| if b <= MAX_LAG { Ok(b) } else { Err(b) })
        };
        let (last, phase) = (plausible(&t.since_last), plausible(&t.since_phase_start));
        let bound = [last, phase].into_iter().flatten().flatten().max();
        if let Some(b) = bound {
            self.learned = self.learned.max(b);
        }
        t.since_last = Some(Prediction::new(report));
        // A phase whose start no longer fits the reports is started again from this one.
        let keep = t
            .since_phase_start
            .is_some_and(|p| same_phase(&p.state, &report))
            && !matches!(phase, Some(Err(_)));
        if !keep {
            t.since_phase_start = Some(Prediction::new(report));
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::testing::ms;

    fn main_time(left: u64, precision: u64) -> SideTime {
        SideTime {
            main: ms(left),
            overtime: false,
            period_left: Duration::ZERO,
            count: 0,
            precision: ms(precision),
        }
    }

    fn overtime(left: u64, count: u32, precision: u64) -> SideTime {
        SideTime {
            main: Duration::ZERO,
            overtime: true,
            period_left: ms(left),
            count,
            precision: ms(precision),
        }
    }

    const SUDDEN: TimeControl = TimeControl::Absolute {
        main: Duration::from_secs(30),
    };

    #[test]
    fn precise_reports_show_the_lag_at_once() {
        let mut m = LagModel::default();
        m.reported(Color::White, main_time(30_000, 1), ms(1));
        m.moved(&SUDDEN, Color::White, ms(700));
        // The controller charged 1000 ms for a move measured at 700 ms.
        let b = m.reported(Color::White, main_time(29_000, 1), ms(1));
        assert_eq!(b, Some(ms(299)));
        assert_eq!(m.learned(), ms(299));
        assert!(!m.coarse());
    }

    #[test]
    fn whole_seconds_hide_small_lags_on_one_move_but_not_over_many() {
        // Real clock: 30 s, every move measured at 400 ms and charged 700 ms; reports rounded to
        // the nearest second.
        let mut m = LagModel::default();
        let mut real = 30_000u64;
        let report = |real: u64| main_time((real + 500) / 1000 * 1000, 1000);
        m.reported(Color::Black, report(real), ms(1000));
        let mut bounds = Vec::new();
        for _ in 0..20 {
            m.moved(&SUDDEN, Color::Black, ms(400));
            real -= 700;
            bounds.push(m.reported(Color::Black, report(real), ms(1000)));
        }
        assert!(m.coarse());
        // Never more than the truth...
        assert!(m.learned() <= ms(300), "{:?}", m.learned());
        // ... and, telescoped over the phase, close to it: (20 x 300 - 1000) / 20 = 250 ms.
        assert!(m.learned() >= ms(240), "{:?} {bounds:?}", m.learned());
    }

    #[test]
    fn no_lag_learns_nothing_whatever_the_rounding() {
        for round in [0u64, 500, 999] {
            let mut m = LagModel::default();
            let mut real = 30_000u64;
            let report = |real: u64| main_time((real + round) / 1000 * 1000, 1000);
            m.reported(Color::White, report(real), ms(1000));
            for i in 0..25 {
                let used = 300 + (i * 137) % 500;
                m.moved(&SUDDEN, Color::White, ms(used));
                real -= used;
                m.reported(Color::White, report(real), ms(1000));
            }
            assert_eq!(m.learned(), Duration::ZERO, "rounding offset {round}");
        }
    }

    #[test]
    fn a_new_phase_starts_a_new_prediction_and_the_other_side_is_apart() {
        let canadian = TimeControl::Canadian {
            main: Duration::ZERO,
            period: Duration::from_secs(5),
            stones: 5,
        };
        let mut m = LagModel::default();
        m.reported(Color::White, overtime(5000, 5, 0), ms(1000));
        m.moved(&canadian, Color::White, ms(900));
        // 4100 ms predicted, 4000 reported: within the rounding of a whole-second report.
        assert_eq!(
            m.reported(Color::White, overtime(4000, 4, 1000), ms(1000)),
            None
        );
        // Black's reports know nothing of White's moves.
        m.reported(Color::Black, overtime(5000, 5, 0), ms(1000));
        assert_eq!(
            m.reported(Color::Black, overtime(1000, 5, 1000), ms(1000)),
            None
        );
        assert_eq!(m.learned(), Duration::ZERO);
    }

    #[test]
    fn implausible_charges_are_ignored_and_learning_survives_a_new_game() {
        let mut m = LagModel::default();
        m.reported(Color::White, main_time(300_000, 1), ms(1));
        m.moved(&SUDDEN, Color::White, ms(10));
        // 100 s gone in a 10 ms move: a clock set by hand, not a lag.
        m.reported(Color::White, main_time(200_000, 1), ms(1));
        assert_eq!(m.learned(), Duration::ZERO);
        m.moved(&SUDDEN, Color::White, ms(10));
        m.reported(Color::White, main_time(198_000, 1), ms(1));
        assert_eq!(m.learned(), ms(1989));
        m.new_game();
        assert_eq!(m.learned(), ms(1989));
        assert_eq!(m.tracks, [Track::default(); 2]);
    }
}

//! What the page's clock shows besides the time to each side's flag (which is
//! [`Clock::time_to_flag`]: the page counts it down, the session ends the game when it reaches
//! zero). The control itself is read by the one parser, `TimeControl`'s `FromStr`.

use crate::color::Color;
use crate::time::{Clock, TimeControl};

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
        TimeControl::PerMove { per_move } => format!("{}s a move", per_move.as_secs_f64()),
        _ => String::new(),
    }
}

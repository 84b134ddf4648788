//! Time controls, the per-side clock, and the pure per-move budget.
//!
//! One [`TimeControl`] serves every front end: the protocol's time commands, `gui --time` and
//! `match --tc`/`--st` read it with one parser ([`parse`]), and one rule says when a flag falls
//! ([`SideTime::time_to_flag`]), for the page's clock, the match referee and the engine.
//!
//! The clock only records what is known (the control, and each side's time left as last reported by
//! `time_left` or charged after our own moves); `budget` turns it and the position into a soft and a
//! hard limit for one move. Nothing here reads the wall clock, so every rule is tested with tables.
//!
//! The controller's clock is the one that counts, and it is known only approximately: GTP reports
//! whole seconds (so `2` may mean a little over 1 s), and the controller charges its own latency on
//! top of what the engine measures. A report's rounding unit is kept with the time it reports and
//! comes off once; the latency, learned from successive reports (`lag`), comes off every move.

mod budget;
mod clock;
mod control;
mod lag;
pub mod parse;
mod side;
#[cfg(test)]
mod testing;

pub use budget::{
    budget, moves_left, TimeBudget, DEFAULT_MOVE_OVERHEAD, UNTIMED_HARD, UNTIMED_SOFT,
};
pub use clock::{Clock, DEFAULT_COARSE_LAG};
pub use control::{seconds_text, TimeControl};
pub use lag::{LagModel, MAX_LAG};
pub use parse::{read_count, read_per_move, read_seconds, TimeError, MAX_SECONDS};
pub use side::SideTime;

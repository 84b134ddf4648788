//! Engine-vs-engine matches: `otrera match`.
//!
//! Two engines that speak the GTP-style protocol play games in pairs (same opening, colours
//! swapped) under a time control the runner enforces itself; every move is checked by the rules
//! core. The runner reports scores, Elo with a 95% interval, LOS and forfeits, can stop on an SPRT,
//! and writes SGF records and JSON lines.
//!
//! Files: `engine_spec` (the `--engine` argument, split by the `shlex` crate),
//! `engine_process` (subprocess and GTP client), `clock` (time controls), `openings`, `referee`
//! (one game), `outcome` (how games end), `tally` (the score), `stats` (Elo, LOS), `sprt`,
//! `runner` (workers and the match loop), `report` (text, JSON, SGF), `merge` (`--merge`: the
//! summary of several runs from their JSON lines). The command line is `cli::matches`.

pub mod clock;
pub mod engine_process;
pub mod engine_spec;
pub mod merge;
pub mod openings;
pub mod outcome;
pub mod referee;
pub mod report;
pub mod runner;
pub mod sprt;
pub mod stats;
pub mod tally;

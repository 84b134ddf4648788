//! Engine-vs-engine matches: `hippolyta match`.
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
//! summary of several runs from their JSON lines), `interrupt` (Ctrl-C),
//! `options` (the command line).

pub mod clock;
pub mod engine_process;
pub mod engine_spec;
pub mod interrupt;
pub mod merge;
pub mod openings;
pub mod options;
pub mod outcome;
pub mod referee;
pub mod report;
pub mod runner;
pub mod sprt;
pub mod stats;
pub mod tally;

pub use options::MatchArgs;

use std::fs::{self, File};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Runs `hippolyta match` with parsed options: progress on stderr, the summary on stdout.
pub fn run_cli(args: &MatchArgs) -> ExitCode {
    match run_checked(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hippolyta match: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_checked(args: &MatchArgs) -> Result<(), String> {
    if let Some(files) = &args.merge {
        let sprt = match &args.sprt {
            Some(words) => Some(sprt::Sprt::parse(words).map_err(|e| e.to_string())?),
            None => None,
        };
        print!("{}", merge::merge(files, sprt)?.summary());
        return Ok(());
    }
    let cfg = args.to_config()?;
    if let Some(dir) = &args.sgf_out {
        fs::create_dir_all(dir).map_err(|e| format!("--sgf-out {}: {e}", dir.display()))?;
    }
    let mut jsonl = match &args.jsonl {
        Some(path) => {
            Some(File::create(path).map_err(|e| format!("--jsonl {}: {e}", path.display()))?)
        }
        None => None,
    };
    interrupt::install();
    let tty = std::io::stderr().is_terminal();
    let controls = cfg.settings.controls;
    let mut write_error: Option<String> = None;
    let mut on_game = |fg: &runner::FinishedGame, tally: &tally::Tally| {
        let progress = report::progress_line(tally, cfg.games, cfg.sprt.as_ref());
        if tty {
            eprint!("\r\x1b[2K{progress}");
        } else {
            eprintln!("{}", report::game_line(fg, tally));
            eprintln!("{progress}");
        }
        if let Some(dir) = &args.sgf_out {
            let path = dir.join(format!("game-{:05}.sgf", fg.index + 1));
            if let Err(e) = fs::write(&path, report::sgf_record(fg, tally, &controls)) {
                write_error.get_or_insert(format!("cannot write {}: {e}", path.display()));
            }
        }
        if let Some(f) = jsonl.as_mut() {
            if let Err(e) = writeln!(f, "{}", report::game_json(fg, tally, &controls)) {
                write_error.get_or_insert(format!("cannot write the JSON lines: {e}"));
            }
        }
    };
    let result = runner::run_match(&cfg, interrupt::flag(), &mut on_game)?;
    if tty {
        eprintln!();
    }
    print!("{}", report::summary(&cfg, &result));
    if let Some(f) = jsonl.as_mut() {
        writeln!(f, "{}", report::summary_json(&cfg, &result))
            .map_err(|e| format!("cannot write the JSON lines: {e}"))?;
    }
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

//! `otrera match`: the command line, its checks, and the run with progress on stderr and the
//! summary on stdout (the match itself is the `matches` library).

use super::interrupt;
use crate::matches;
use crate::matches::clock::ClockReport;
use crate::matches::engine_spec::EngineSpec;
use crate::matches::openings::{Opening, OpeningBook};
use crate::matches::referee::GameSettings;
use crate::matches::runner::MatchConfig;
use crate::matches::sprt::Sprt;
use crate::time::{read_per_move, read_seconds, TimeControl};
use clap::Args;
use std::fs::{self, File};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `otrera match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine: a command line ("prog --opt 'a b'"), or key=value words
    /// ("name=new dir=DIR stderr=FILE tc=TC st=SECONDS cmd='prog --opt'"). Give exactly two.
    #[arg(
        long = "engine",
        required_unless_present = "merge",
        num_args = 1,
        value_name = "SPEC"
    )]
    pub engines: Vec<String>,
    /// Number of games (played in pairs with colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control, times in seconds or M:SS: MAIN (sudden death), MAIN+INC (Fischer),
    /// canadian:MAIN:PERIOD:STONES, byoyomi:MAIN:PERIOD:PERIODS, or the words of `gui --time`
    /// (e.g. "fischer 60 2"), e.g. 60, 1:30, 10+0.1 or canadian:10:5:5.
    #[arg(long, value_name = "TC", conflicts_with = "st")]
    pub tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub st: Option<String>,
    /// How times are sent in time_settings and time_left: exact (milliseconds) or whole-seconds
    /// (rounded to the nearest second, as Quarry does).
    #[arg(long, default_value = "exact", value_name = "FORMAT")]
    pub clock_report: String,
    /// Milliseconds charged for every move on top of the measured time, like a slow GUI.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub controller_lag: u64,
    /// Time allowed per move beyond the clock for process overhead, in seconds.
    #[arg(long, default_value = "0.1", value_name = "SECONDS")]
    pub margin: String,
    /// Seconds without any answer after which an engine counts as hung (for genmove: beyond the
    /// end of its time; an answer in this window is a time overrun).
    #[arg(long, default_value = "10", value_name = "SECONDS")]
    pub hang_timeout: String,
    /// Board side: 10, 8 or 6.
    #[arg(long, default_value_t = 10)]
    pub size: usize,
    /// File of openings, one per line: a position string or moves from the start (`#` comments).
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Start each pair after this many random plies from the start.
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop when this test decides, e.g. --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
    /// [model=logistic|normalized].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Write each game as SGF into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub sgf_out: Option<PathBuf>,
    /// Write one JSON object per game, then a summary object, to this file.
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Start new engine processes for every game.
    #[arg(long)]
    pub restart: bool,
    /// End a game as soon as the exact endgame solver proves who wins (recorded as adjudicated).
    #[arg(long)]
    pub adjudicate: bool,
    /// Play only part I of N of the match's pairs of openings (for array jobs; see `--merge`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::shard::Shard>,
    /// Play nothing: recompute the score, Elo and SPRT from these `--jsonl` files (the shards of
    /// one match, for example).
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "engines")]
    pub merge: Option<Vec<PathBuf>>,
}

impl MatchArgs {
    /// Checks the options and builds the match configuration.
    pub fn to_config(&self) -> Result<MatchConfig, String> {
        if self.engines.len() != 2 {
            return Err(format!(
                "give exactly two --engine options (got {})",
                self.engines.len()
            ));
        }
        let specs: Vec<EngineSpec> = self
            .engines
            .iter()
            .map(|e| EngineSpec::parse(e).map_err(|err| format!("--engine {e:?}: {err}")))
            .collect::<Result<_, _>>()?;
        let control = match (&self.tc, &self.st) {
            (Some(tc), None) => Some(
                tc.parse::<TimeControl>()
                    .map_err(|e| format!("--tc: {e}"))?,
            ),
            (None, Some(st)) => Some(read_per_move(st).map_err(|e| format!("--st: {e}"))?),
            _ => None,
        };
        let own = |i: usize| {
            specs[i].control.or(control).ok_or_else(|| {
                "give a time control: --tc MAIN[+INC], --tc canadian:MAIN:PERIOD:STONES or \
                 --st SECONDS (or tc=/st= in both --engine options)"
                    .to_string()
            })
        };
        let controls = [own(0)?, own(1)?];
        let clock_report =
            ClockReport::parse(&self.clock_report).map_err(|e| format!("--clock-report: {e}"))?;
        let margin = read_seconds("margin", &self.margin).map_err(|e| format!("--margin: {e}"))?;
        let hang_timeout = read_seconds("hang timeout", &self.hang_timeout)
            .map_err(|e| format!("--hang-timeout: {e}"))?;
        if ![6, 8, 10].contains(&self.size) {
            return Err(format!("--size must be 10, 8 or 6 (got {})", self.size));
        }
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        let book = match (&self.openings, self.random_plies) {
            (Some(path), _) => OpeningBook::from_file(path, self.size)?,
            (None, Some(plies)) => {
                if Opening::random(self.size, plies, self.seed).is_none() {
                    return Err(format!(
                        "cannot play {plies} random plies on a {0}x{0} board",
                        self.size
                    ));
                }
                OpeningBook::Random {
                    size: self.size,
                    plies,
                    seed: self.seed,
                }
            }
            (None, None) => OpeningBook::Start(
                Opening::standard(self.size).ok_or("this board size has no default start")?,
            ),
        };
        let book = match self.shard {
            Some(shard) if shard.count > 1 => OpeningBook::Shard {
                book: Box::new(book),
                shard,
            },
            _ => book,
        };
        let sprt = match &self.sprt {
            Some(words) => Some(Sprt::parse(words).map_err(|e| e.to_string())?),
            None => None,
        };
        Ok(MatchConfig {
            engines: [specs[0].clone(), specs[1].clone()],
            games: self.games,
            settings: GameSettings {
                size: self.size,
                controls,
                clock_report,
                controller_lag: std::time::Duration::from_millis(self.controller_lag),
                margin,
                hang_timeout,
                adjudicate: self.adjudicate,
            },
            book,
            concurrency: self.concurrency,
            sprt,
            restart: self.restart,
        })
    }
}

/// Runs `otrera match` with parsed options: progress on stderr, the summary on stdout.
pub fn run(args: &MatchArgs) -> ExitCode {
    match run_checked(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("otrera match: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_checked(args: &MatchArgs) -> Result<(), String> {
    if let Some(files) = &args.merge {
        let sprt = match &args.sprt {
            Some(words) => Some(matches::sprt::Sprt::parse(words).map_err(|e| e.to_string())?),
            None => None,
        };
        print!("{}", matches::merge::merge(files, sprt)?.summary());
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
    let mut on_game = |fg: &matches::runner::FinishedGame, tally: &matches::tally::Tally| {
        let progress = matches::report::progress_line(tally, cfg.games, cfg.sprt.as_ref());
        if tty {
            eprint!("\r\x1b[2K{progress}");
        } else {
            eprintln!("{}", matches::report::game_line(fg, tally));
            eprintln!("{progress}");
        }
        if let Some(dir) = &args.sgf_out {
            let path = dir.join(format!("game-{:05}.sgf", fg.index + 1));
            if let Err(e) = fs::write(&path, matches::report::sgf_record(fg, tally, &controls)) {
                write_error.get_or_insert(format!("cannot write {}: {e}", path.display()));
            }
        }
        if let Some(f) = jsonl.as_mut() {
            if let Err(e) = writeln!(f, "{}", matches::report::game_json(fg, tally, &controls)) {
                write_error.get_or_insert(format!("cannot write the JSON lines: {e}"));
            }
        }
    };
    let result = matches::runner::run_match(&cfg, interrupt::flag(), &mut on_game)?;
    if tty {
        eprintln!();
    }
    print!("{}", matches::report::summary(&cfg, &result));
    if let Some(f) = jsonl.as_mut() {
        writeln!(f, "{}", matches::report::summary_json(&cfg, &result))
            .map_err(|e| format!("cannot write the JSON lines: {e}"))?;
    }
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

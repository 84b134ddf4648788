//! The match: engines started per worker, games handed out to `concurrency` workers, results
//! tallied as they arrive, and the SPRT consulted after each game.

use super::engine_process::{EngineInfo, EngineProcess};
use super::engine_spec::EngineSpec;
use super::openings::{Opening, OpeningBook};
use super::outcome::{ForfeitKind, Outcome, Termination};
use super::referee::{play_game, GameReport, GameSettings};
use super::sprt::{Sprt, SprtStatus};
use super::tally::Tally;
use crate::color::Color;
use crate::game::Game;
use crossbeam::channel::{self, RecvTimeoutError};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines.
    pub engines: [EngineSpec; 2],
    /// Number of games (pairs of two with colours swapped; an odd last game has no partner).
    pub games: usize,
    /// Board, clock, margin and hang limit.
    pub settings: GameSettings,
    /// Where the games start.
    pub book: OpeningBook,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Start fresh engine processes for every game (otherwise processes are reused and restarted
    /// only after a forfeit).
    pub restart: bool,
}

/// A finished game as the runner hands it out.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// Game number from 0.
    pub index: usize,
    /// The opening it started from.
    pub opening: Opening,
    /// Which engine played White.
    pub white: usize,
    /// Moves, result and times.
    pub report: GameReport,
}

impl FinishedGame {
    /// The result (finished games always have one).
    pub fn outcome(&self) -> &Outcome {
        self.report
            .outcome
            .as_ref()
            .expect("only finished games are handed out")
    }
}

/// Why the match ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// All games were played.
    Completed,
    /// The SPRT decided.
    Sprt(SprtStatus),
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
}

/// The final state of a match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Scores.
    pub tally: Tally,
    /// Why it ended.
    pub ending: Ending,
    /// What each engine said about itself.
    pub infos: [EngineInfo; 2],
    /// Wall time.
    pub elapsed: Duration,
}

/// Starts `spec` and checks that it speaks the protocol.
fn start_engine(
    spec: &EngineSpec,
    timeout: Duration,
    stop: &dyn Fn() -> bool,
) -> Result<(EngineProcess, EngineInfo), String> {
    let mut p = EngineProcess::start(spec).map_err(|e| e.to_string())?;
    let info = p
        .handshake(timeout, stop)
        .map_err(|e| format!("'{}': {e}", spec.command_line()))?;
    Ok((p, info))
}

/// Display names: the user's, else what the engines call themselves, numbered if they are equal.
fn display_names(specs: &[EngineSpec; 2], infos: &[EngineInfo; 2]) -> [String; 2] {
    let mut names: [String; 2] =
        std::array::from_fn(|i| specs[i].name.clone().unwrap_or(infos[i].name.clone()));
    if names[0] == names[1] {
        names = std::array::from_fn(|i| format!("{}#{}", names[i], i + 1));
    }
    names
}

/// Plays the match. `stop` is polled throughout (Ctrl-C); `on_game` is called on this thread for
/// each finished game with the updated tally, in the order games finish.
pub fn run_match(
    cfg: &MatchConfig,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&FinishedGame, &Tally),
) -> Result<MatchResult, String> {
    let started = Instant::now();
    let halt = AtomicBool::new(false);
    let halted = || halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
    // Check both engines before any game, so that a wrong command line is one clear error.
    let mut infos = Vec::new();
    for spec in &cfg.engines {
        let (p, info) = start_engine(spec, cfg.settings.hang_timeout, &halted)?;
        p.quit(Duration::from_secs(1));
        infos.push(info);
    }
    let infos: [EngineInfo; 2] = infos.try_into().expect("two engines");
    let mut tally = Tally::new(display_names(&cfg.engines, &infos));
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::unbounded::<FinishedGame>();
    let mut ending = Ending::Completed;
    thread::scope(|s| {
        for _ in 0..cfg.concurrency.clamp(1, cfg.games.max(1)) {
            let tx = tx.clone();
            let (next, halted) = (&next, &halted);
            s.spawn(move || worker(cfg, next, halted, &tx));
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(fg) => {
                    tally.record(fg.index, fg.outcome());
                    on_game(&fg, &tally);
                    if let Some(sprt) = &cfg.sprt {
                        let status = sprt.status(sprt.llr(&tally.penta));
                        if status != SprtStatus::Continue && ending == Ending::Completed {
                            ending = Ending::Sprt(status);
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if stop.load(Ordering::Relaxed) && ending == Ending::Completed {
                ending = Ending::Interrupted;
            }
        }
    });
    // Workers that see the stop between games end before the loop above looks at the flag.
    if stop.load(Ordering::Relaxed) && ending == Ending::Completed {
        ending = Ending::Interrupted;
    }
    Ok(MatchResult {
        tally,
        ending,
        infos,
        elapsed: started.elapsed(),
    })
}

/// One worker: takes game numbers until there are none left or the match halts, keeping a process
/// per engine between games.
fn worker(
    cfg: &MatchConfig,
    next: &AtomicUsize,
    halted: &(dyn Fn() -> bool + Sync),
    tx: &channel::Sender<FinishedGame>,
) {
    let mut procs: [Option<EngineProcess>; 2] = [None, None];
    while !halted() {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            break;
        }
        let opening = cfg.book.get(index / 2);
        let white = Tally::engine_playing(index, Color::White);
        let report = match start_missing(cfg, &mut procs, halted) {
            Err((engine, why)) => {
                let color = if engine == white {
                    Color::White
                } else {
                    Color::Black
                };
                if halted() {
                    break;
                }
                failed_start(&opening, color, why)
            }
            Ok(()) => {
                let [a, b] = &mut procs;
                let (a, b) = (a.as_mut().expect("started"), b.as_mut().expect("started"));
                let [c0, c1] = cfg.settings.controls;
                let (by_color, controls) = if white == 0 {
                    ([a, b], [c0, c1])
                } else {
                    ([b, a], [c1, c0])
                };
                play_game(by_color, controls, &opening, &cfg.settings, halted)
            }
        };
        for color in Color::BOTH {
            let engine = Tally::engine_playing(index, color);
            if report.needs_restart[color.index()] {
                // Possibly hung or confused: no point asking it to quit.
                procs[engine] = None;
            } else if cfg.restart {
                if let Some(p) = procs[engine].take() {
                    p.quit(Duration::from_secs(1));
                }
            }
        }
        if report.outcome.is_none() {
            break;
        }
        let finished = FinishedGame {
            index,
            opening,
            white,
            report,
        };
        if tx.send(finished).is_err() {
            break;
        }
    }
    let grace = if halted() {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(1)
    };
    for p in procs.into_iter().flatten() {
        p.quit(grace);
    }
}

/// Starts whichever engine has no process; on failure says which engine and why.
fn start_missing(
    cfg: &MatchConfig,
    procs: &mut [Option<EngineProcess>; 2],
    halted: &dyn Fn() -> bool,
) -> Result<(), (usize, String)> {
    for (i, slot) in procs.iter_mut().enumerate() {
        if slot.is_none() {
            let (p, _) = start_engine(&cfg.engines[i], cfg.settings.hang_timeout, halted)
                .map_err(|e| (i, e))?;
            *slot = Some(p);
        }
    }
    Ok(())
}

/// The report of a game lost before it began because `color`'s engine did not start.
fn failed_start(opening: &Opening, color: Color, why: String) -> GameReport {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.play(m)
            .expect("openings are checked when they are made");
    }
    GameReport {
        game,
        outcome: Some(Outcome {
            winner: !color,
            termination: Termination::Forfeit(ForfeitKind::StartFailure),
            reason: format!("{color} could not be started: {why}"),
            margin: None,
        }),
        needs_restart: {
            let mut r = [false; 2];
            r[color.index()] = true;
            r
        },
        time_used: [Duration::ZERO; 2],
        plies: 0,
    }
}

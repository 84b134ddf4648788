//! The referee: plays one game between two engine processes, checking every move with the rules
//! core and keeping both clocks.

use super::clock::{Clock, ClockReport};
use super::engine_process::{ClientError, EngineProcess, Reply};
use super::openings::Opening;
use super::outcome::{ForfeitKind, Outcome, Termination};
use crate::color::Color;
use crate::endgame::{self, Budget, FillSolver};
use crate::game::Game;
use crate::mv::Move;
use crate::position::Position;
use crate::regions::is_decided;
use crate::time::TimeControl;
use std::convert::Infallible;
use std::time::Duration;

/// Rules of play that do not change between games.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Board side.
    pub size: usize,
    /// Each engine's time control, indexed like the match's engines (not by colour).
    pub controls: [TimeControl; 2],
    /// How times are written in `time_settings` and `time_left`.
    pub clock_report: ClockReport,
    /// Time charged for every move on top of the measured time, as a slow controller (a GUI)
    /// would: the engine sees its clock shrink faster than it measures.
    pub controller_lag: Duration,
    /// Extra time allowed per move for process and pipe overhead before a move counts as late.
    pub margin: Duration,
    /// How long to wait for an answer before calling the engine hung: for setup commands from when
    /// they are sent, for `genmove` from the end of the engine's time.
    pub hang_timeout: Duration,
    /// End the game as soon as the endgame solver proves the winner (all amazons walled off from
    /// the enemy and the moves left settle who is stuck first).
    pub adjudicate: bool,
}

/// Solver work per look at a decided position (adjudication, final margin): typically well
/// under a second; when it runs out the bounds may not settle the result, and the game goes on.
const SOLVER_NODES: u64 = 2_000_000;

/// What happened in one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The record: the opening's start, its moves, then the moves of the game.
    pub game: Game,
    /// How it ended; `None` if it was stopped before the end (Ctrl-C, a decided SPRT).
    pub outcome: Option<Outcome>,
    /// Whether the engine playing each colour (indexed by `Color::index`) may be in a bad state and
    /// should be restarted before its next game.
    pub needs_restart: [bool; 2],
    /// Thinking time used by each colour.
    pub time_used: [Duration; 2],
    /// Moves played by the engines in this game (the opening not included).
    pub plies: usize,
}

/// Plays a game from `opening`: `engines[0]` plays White under `controls[0]`, `engines[1]` Black
/// under `controls[1]`. `stop` is polled while waiting for engines; when it turns true the game is
/// abandoned.
pub fn play_game(
    engines: [&mut EngineProcess; 2],
    controls: [TimeControl; 2],
    opening: &Opening,
    settings: &GameSettings,
    stop: &dyn Fn() -> bool,
) -> GameReport {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.play(m)
            .expect("openings are checked when they are made");
    }
    let mut referee = Referee {
        engines,
        controls,
        settings,
        stop,
        solver: None,
        report: GameReport {
            game,
            outcome: None,
            needs_restart: [false; 2],
            time_used: [Duration::ZERO; 2],
            plies: 0,
        },
    };
    // A `None` from the loop means the game was stopped from outside.
    if let Some(outcome) = referee.run(opening) {
        referee.report.outcome = Some(outcome);
    } else {
        referee.report.needs_restart = [true; 2];
    }
    referee.report
}

struct Referee<'a, 'b> {
    engines: [&'a mut EngineProcess; 2],
    /// Time controls by colour.
    controls: [TimeControl; 2],
    settings: &'b GameSettings,
    stop: &'b dyn Fn() -> bool,
    /// Made on first use (it holds a 5 MiB table), then kept for the game.
    solver: Option<FillSolver>,
    report: GameReport,
}

/// A game-ending event, or the game being stopped from outside.
enum Stop {
    End(Outcome),
    Abandoned,
}

impl Referee<'_, '_> {
    fn run(&mut self, opening: &Opening) -> Option<Outcome> {
        match self.play(opening) {
            Ok(never) => match never {},
            Err(Stop::End(o)) => Some(o),
            Err(Stop::Abandoned) => None,
        }
    }

    /// Loses the game for `color` with the given kind and reason.
    fn forfeit(&mut self, color: Color, kind: ForfeitKind, reason: String) -> Stop {
        self.report.needs_restart[color.index()] = true;
        Stop::End(Outcome {
            winner: !color,
            termination: Termination::Forfeit(kind),
            reason: format!("{color} {reason}"),
            margin: None,
        })
    }

    /// The exact score of a decided or finished position, if the solver settles the winner.
    fn settled(&mut self, pos: &Position) -> Option<endgame::Score> {
        let solver = self.solver.get_or_insert_with(FillSolver::new);
        let score = solver.outcome(pos, Budget::nodes(SOLVER_NODES)).score()?;
        score.winner().map(|_| score)
    }

    /// Maps a failed exchange with `color`'s engine to the matching forfeit.
    /// `waited` is how long the runner waited for the answer.
    fn client_failure(
        &mut self,
        color: Color,
        what: &str,
        waited: Duration,
        e: ClientError,
    ) -> Stop {
        let (kind, why) = match e {
            ClientError::Stopped => return Stop::Abandoned,
            ClientError::Exited(how) => (ForfeitKind::Crash, format!("engine {how} during {what}")),
            ClientError::Timeout => (
                ForfeitKind::Hang,
                format!("did not answer {what} within {:.1} s", waited.as_secs_f64()),
            ),
            ClientError::Protocol(m) => {
                (ForfeitKind::Protocol, format!("answered {what} with {m}"))
            }
        };
        self.forfeit(color, kind, why)
    }

    /// Sends a command; a failure to get any answer (crash, hang) ends the game.
    fn send(&mut self, color: Color, command: &str) -> Result<Reply, Stop> {
        let stop = self.stop;
        self.engines[color.index()]
            .command(command, self.settings.hang_timeout, stop)
            .map_err(|e| {
                self.client_failure(
                    color,
                    &format!("'{command}'"),
                    self.settings.hang_timeout,
                    e,
                )
            })
    }

    /// Sends a command that must succeed.
    fn must(&mut self, color: Color, command: &str) -> Result<Reply, Stop> {
        let reply = self.send(color, command)?;
        if !reply.success {
            return Err(self.forfeit(
                color,
                ForfeitKind::Protocol,
                format!("rejected '{command}': {}", reply.text),
            ));
        }
        Ok(reply)
    }

    /// Sends a command the engine may reject (the time commands are optional in GTP: an engine
    /// without them still plays under the referee's clock).
    fn may(&mut self, color: Color, command: &str) -> Result<(), Stop> {
        self.send(color, command).map(|_| ())
    }

    fn setup(&mut self, color: Color, opening: &Opening) -> Result<(), Stop> {
        self.must(color, &format!("boardsize {}", self.settings.size))?;
        self.must(color, "clear_board")?;
        if opening.custom_start {
            self.must(color, &format!("set_position {}", opening.start))?;
        }
        let control = self.controls[color.index()];
        self.may(
            color,
            &self.settings.clock_report.settings_command(&control),
        )?;
        let mut side = opening.start.side_to_move();
        for m in &opening.moves {
            self.must(color, &format!("play {side} {m}"))?;
            side = !side;
        }
        Ok(())
    }

    fn play(&mut self, opening: &Opening) -> Result<Infallible, Stop> {
        for color in Color::BOTH {
            self.setup(color, opening)?;
        }
        let mut clocks = self.controls.map(Clock::new);
        loop {
            if (self.stop)() {
                return Err(Stop::Abandoned);
            }
            let pos = self.report.game.position().clone();
            let side = pos.side_to_move();
            if !pos.has_legal_move() {
                let margin = self
                    .settled(&pos)
                    .and_then(|s| s.margin())
                    .filter(|m| m.is_exact())
                    .map(|m| m.lo);
                return Err(Stop::End(Outcome {
                    winner: !side,
                    termination: Termination::NoMoves,
                    reason: format!("{side} has no legal move"),
                    margin,
                }));
            }
            if self.settings.adjudicate && is_decided(&pos) {
                if let Some(score) = self.settled(&pos) {
                    let winner = score.winner().expect("settled scores have a winner");
                    return Err(Stop::End(Outcome {
                        winner,
                        termination: Termination::Adjudication,
                        reason: format!(
                            "adjudicated {score}: the amazons are walled off, white has {} moves \
                             left and black {}, {side} to move",
                            score.moves_left(Color::White),
                            score.moves_left(Color::Black)
                        ),
                        margin: score.margin().filter(|m| m.is_exact()).map(|m| m.lo),
                    }));
                }
            }
            let clock = &clocks[side.index()];
            let report = self.settings.clock_report;
            if let Some(left) = clock.time_left(report) {
                self.may(side, &format!("time_left {side} {left}"))?;
            }
            let lag = self.settings.controller_lag;
            let wait = (clock.deadline(self.settings.margin) + self.settings.hang_timeout)
                .saturating_sub(lag);
            let stop = self.stop;
            let engine = &mut self.engines[side.index()];
            let answer = engine
                .send(&format!("genmove {side}"))
                .and_then(|(id, sent)| engine.receive(id, sent + wait, stop).map(|r| (r, sent)));
            let (reply, sent) =
                answer.map_err(|e| self.client_failure(side, "genmove", wait, e))?;
            // The controller's own lag is charged as if the engine had used it.
            let used = reply.received.saturating_duration_since(sent) + lag;
            self.report.time_used[side.index()] += used;
            if let Err(over) = clocks[side.index()].charge(used, self.settings.margin) {
                return Err(self.forfeit(
                    side,
                    ForfeitKind::TimeOverrun,
                    format!(
                        "lost on time: {over} (margin {:.3} s)",
                        self.settings.margin.as_secs_f64()
                    ),
                ));
            }
            if !reply.success {
                return Err(self.forfeit(
                    side,
                    ForfeitKind::GenmoveError,
                    format!("answered genmove with '? {}'", reply.text),
                ));
            }
            let text = reply.text.trim();
            if text.eq_ignore_ascii_case("resign") {
                return Err(Stop::End(Outcome {
                    winner: !side,
                    termination: Termination::Resignation,
                    reason: format!("{side} resigned"),
                    margin: None,
                }));
            }
            let shown: String = text.chars().take(80).collect();
            let m = Move::parse(text, self.settings.size).map_err(|e| {
                self.forfeit(
                    side,
                    ForfeitKind::Unparsable,
                    format!("answered genmove with '{shown}': {e}"),
                )
            })?;
            if let Err(e) = pos.check_move(m) {
                return Err(self.forfeit(
                    side,
                    ForfeitKind::IllegalMove,
                    format!("played {m}: {e}"),
                ));
            }
            self.report
                .game
                .play(m)
                .expect("the move was checked just above");
            self.report.plies += 1;
            self.must(!side, &format!("play {side} {m}"))?;
        }
    }
}

//! The engine facade: the game record, the settings, the clock and the player behind one API.
//!
//! The protocol layer talks only to this. Every method either succeeds or returns an
//! [`EngineError`] and leaves the engine exactly as it was. Moves are chosen by a [`Player`] built
//! by [`player_kind::build`]; the facade turns the clock into limits, checks what the player returns,
//! plays it and decides about resigning.
//!
//! Searches run on their own thread, driven the way Stockfish's engine drives its threads:
//! [`Engine::go`] starts one and returns a [`Search`] handle at once (its reports arrive on a
//! channel, and it can be stopped from any thread), [`Engine::stop`] asks it to end, and
//! [`Engine::wait`] waits for its end and applies the result. The protocol loop, `bench` and any
//! other front end (a GUI serving HTTP) all search this way.

use crate::color::Color;
use crate::endgame::{self, Outcome, RegionReport, Score};
use crate::game::Game;
use crate::mv::{IllegalMoveError, Move};
use crate::player::{Decision, Limits, Player, SearchReport};
use crate::player_kind;
use crate::position::Position;
use crate::settings::{OptionError, Settings, RESIGN_AFTER};
use crate::sgf::{self, GameInfo, Record};
use crate::time::{self, Clock, TimeControl};
use crossbeam::channel::{unbounded, Receiver};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// A move or a search was asked for the side that is not to move.
    WrongTurn {
        /// The side named in the request.
        asked: Color,
        /// The side to move.
        to_move: Color,
    },
    /// The move is not legal here.
    Illegal(IllegalMoveError),
    /// There is no move to take back.
    NothingToUndo,
    /// No start position exists for this board size.
    UnacceptableSize(usize),
    /// `final_score` before the game is decided (some region still holds amazons of both sides).
    NotDecided {
        /// The side to move.
        to_move: Color,
        /// Its number of legal moves.
        moves: u64,
    },
    /// A setting could not be changed.
    Option(OptionError),
    /// [`Engine::wait`] without a search started by [`Engine::go`].
    NotSearching,
    /// The search thread panicked (a bug); the player has been rebuilt.
    SearchFailed,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::WrongTurn { asked, to_move } => {
                write!(
                    f,
                    "it is {}'s turn, not {}'s",
                    title(*to_move),
                    title(*asked)
                )
            }
            EngineError::Illegal(e) => e.fmt(f),
            EngineError::NothingToUndo => write!(f, "cannot undo: no move has been played"),
            EngineError::UnacceptableSize(n) => write!(
                f,
                "unacceptable size {n} (boards of side 6 to 10 have a start position; \
                 set other boards with set_position)"
            ),
            EngineError::NotDecided { to_move, moves } => write!(
                f,
                "the game is not decided yet: some region still holds amazons of both sides \
                 ({} to move has {moves} legal moves)",
                title(*to_move)
            ),
            EngineError::Option(e) => e.fmt(f),
            EngineError::NotSearching => write!(f, "no search is running"),
            EngineError::SearchFailed => write!(f, "internal error: the search failed"),
        }
    }
}

impl std::error::Error for EngineError {}

/// `White` or `Black`.
fn title(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// What `genmove` did.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// This move was chosen and played.
    Move(Move),
    /// The side to move resigns: it has no legal move, or resigning is enabled and the player
    /// judged the game lost.
    Resign,
}

/// A search for [`Engine::go`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Go {
    /// Choose a move for `color` (the side to move) within the clock's budget for this move,
    /// counted from `started` (when the request arrived). With `play`, waiting for the search
    /// plays the move (or resigns) and charges the clock; without, it only names the move.
    Genmove {
        /// The side to move.
        color: Color,
        /// Play the move (`genmove`) or only name it (`reg_genmove`).
        play: bool,
        /// When the request arrived.
        started: Instant,
    },
    /// Search for `color` (the side to move) without bounds until stopped, reporting about every
    /// `interval`. Nothing changes in the game.
    Analyze {
        /// The side to move.
        color: Color,
        /// Time between reports.
        interval: Duration,
    },
    /// Think on the opponent's time (the side to move is the opponent) until stopped, so that a
    /// player that keeps its tree is ahead when its turn comes. Nothing changes in the game.
    Ponder,
}

/// A running search, from [`Engine::go`]. It borrows nothing from the engine, so another thread
/// (an HTTP handler, say) can read its reports and stop it while the engine is elsewhere.
#[derive(Clone, Debug)]
pub struct Search {
    reports: Receiver<SearchReport>,
    stop: Arc<AtomicBool>,
}

impl Search {
    /// The search's reports, in order (analysis reports about every interval; other searches
    /// may send none). The channel disconnects when the search has ended: [`Engine::wait`] then
    /// returns at once.
    pub fn reports(&self) -> &Receiver<SearchReport> {
        &self.reports
    }

    /// Asks the search to end soon (analysis and pondering end only this way).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Search::stop`] or [`Engine::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The end of a search, from [`Engine::wait`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The player's final decision and statistics. Its move is `None` when the side to move has
    /// no legal move.
    pub decision: Decision,
    /// For `Go::Genmove`, the answer: the move chosen (and played, when asked), or resign.
    pub answer: Option<Answer>,
}

/// The search thread of [`Engine::go`]; it hands the player back when it ends.
struct Running {
    go: Go,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<(Box<dyn Player>, Decision)>,
}

/// The engine: a game, settings, a clock and a player.
pub struct Engine {
    settings: Settings,
    game: Game,
    clock: Clock,
    /// `None` while a search has it (see `running`).
    player: Option<Box<dyn Player>>,
    /// The search started by `go`, until `wait`.
    running: Option<Running>,
    /// Consecutive own moves, per side, whose win-rate estimate was below the resign threshold.
    hopeless: [u32; 2],
    /// The whole-position solver, built on first use (its table is kept between solves).
    solver: Option<Box<crate::solver::ProofSolver>>,
    /// Picks the fallback move when a player returns an illegal one: seeded from the `seed`
    /// setting (so a seeded engine stays reproducible even then), from entropy without one.
    rng: SmallRng,
}

/// The engine's own random generator for `seed`.
fn engine_rng(seed: Option<u64>) -> SmallRng {
    match seed {
        Some(s) => SmallRng::seed_from_u64(s),
        None => SmallRng::from_entropy(),
    }
}

impl Drop for Engine {
    /// Stops and joins a search still running, so that no thread outlives the engine.
    fn drop(&mut self) {
        self.cancel();
    }
}

impl Engine {
    /// An engine at the standard 10x10 start, untimed, with a player built from `settings`.
    pub fn new(settings: Settings) -> Engine {
        let player = player_kind::build(settings.player, &settings.player_config());
        Engine {
            game: Game::new(Position::standard()),
            clock: Clock::default(),
            player: Some(player),
            running: None,
            hopeless: [0; 2],
            solver: None,
            rng: engine_rng(settings.seed),
            settings,
        }
    }

    /// An engine with a player supplied by the caller (for players outside `player_kind::build`, and
    /// for tests). Changing a player setting later replaces it with a built one.
    pub fn with_player(settings: Settings, player: Box<dyn Player>) -> Engine {
        let mut engine = Engine::new(settings);
        engine.player = Some(player);
        engine
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes one setting (see `settings::OPTIONS`), rebuilding the player when its kind or
    /// resources change.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let mut next = self.settings.clone();
        next.set(name, value).map_err(EngineError::Option)?;
        self.cancel();
        if self.settings.needs_new_player(&next) {
            self.player = Some(player_kind::build(next.player, &next.player_config()));
            // Sized from the settings too: rebuilt on next use.
            self.solver = None;
        }
        if next.seed != self.settings.seed {
            self.rng = engine_rng(next.seed);
        }
        self.settings = next;
        Ok(())
    }

    /// The value of one setting.
    pub fn option(&self, name: &str) -> Result<String, EngineError> {
        self.settings.get(name).map_err(EngineError::Option)
    }

    /// The game record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Fails unless `color` is to move.
    pub fn check_turn(&self, color: Color) -> Result<(), EngineError> {
        let to_move = self.position().side_to_move();
        if color == to_move {
            Ok(())
        } else {
            Err(EngineError::WrongTurn {
                asked: color,
                to_move,
            })
        }
    }

    /// Starts a new game from `game`: the player forgets what it knew and resign counting restarts.
    fn new_game(&mut self, game: Game) {
        self.player().clear();
        self.game = game;
        self.hopeless = [0; 2];
    }

    /// A new game on a board of side `size` (6 to 10).
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        let start = Position::start(size).ok_or(EngineError::UnacceptableSize(size))?;
        self.restart_from(start);
        Ok(())
    }

    /// A new game from `start`, with full clocks.
    pub fn restart_from(&mut self, start: Position) {
        self.new_game(Game::new(start));
        self.clock.reset();
    }

    /// A new game from the start position of the current board size, with full clocks. Board
    /// sizes without a standard start (2 to 5, only reachable with `set_position` or an SGF
    /// setup) restart from the record's start position instead.
    pub fn clear_board(&mut self) {
        let start = self
            .position()
            .square_size()
            .and_then(Position::start)
            .unwrap_or_else(|| self.game.start().clone());
        self.restart_from(start);
    }

    /// A new game from `position`.
    pub fn set_position(&mut self, position: Position) {
        self.new_game(Game::new(position));
    }

    /// Loads a record, keeping its first `moves` moves (all of them if `None` or more than it has).
    pub fn load(&mut self, record: Record, moves: Option<usize>) {
        let mut game = record.game;
        if let Some(n) = moves {
            while game.moves().len() > n {
                game.undo();
            }
        }
        self.new_game(game);
    }

    /// The game as an SGF record (with the result once the game is over).
    pub fn sgf(&self) -> String {
        let info = GameInfo {
            result: self.final_score().ok().map(|s| s.to_string()),
            ..GameInfo::default()
        };
        sgf::write(&self.game, &info)
    }

    /// Plays `mv` for `color`, which must be the side to move.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), EngineError> {
        self.check_turn(color)?;
        self.position()
            .check_move(mv)
            .map_err(EngineError::Illegal)?;
        self.cancel();
        self.game.play(mv).map_err(EngineError::Illegal)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, EngineError> {
        if self.game.moves().is_empty() {
            return Err(EngineError::NothingToUndo);
        }
        self.cancel();
        self.game.undo().ok_or(EngineError::NothingToUndo)
    }

    /// Sets the time control; both sides get its full time. What was learned about the
    /// controller's latency is kept.
    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clock = self.clock.with_control(control);
    }

    /// Records a `time_left` report whose time was written to a precision of `unit` (see
    /// [`Clock::set_left`]).
    pub fn set_time_left(&mut self, color: Color, time: Duration, stones: u32, unit: Duration) {
        self.clock.set_left(color, time, stones, unit);
        let t = self.clock.side(color);
        log::debug!(
            "time_left {color}: {:.3} s (precision {:.3} s), lag learned {:.3} s, buffer {:.3} s",
            t.current().as_secs_f64(),
            t.precision.as_secs_f64(),
            self.clock.lag().learned().as_secs_f64(),
            self.clock.lag_buffer().as_secs_f64()
        );
    }

    /// The limits for the side to move's next move, if its thinking started at `started`.
    ///
    /// Untimed games get the default move time of `time::budget`, unless a playout limit is set,
    /// which then decides alone (so a seeded search with a playout limit is reproducible).
    pub fn move_limits(&self, started: Instant) -> Limits {
        let playouts = self.settings.playouts;
        if playouts.is_some() && *self.clock.control() == TimeControl::Unlimited {
            return Limits {
                playouts,
                ..Limits::default()
            };
        }
        let side = self.position().side_to_move();
        let b = time::budget(
            &self.clock,
            side,
            self.position(),
            self.settings.move_overhead,
        );
        let spent = started.elapsed();
        Limits {
            soft: Some(b.soft.saturating_sub(spent)),
            hard: Some(b.hard.saturating_sub(spent)),
            playouts,
            report_interval: None,
        }
    }

    /// Starts a search on its own thread and returns at once; [`Engine::wait`] ends it and gives
    /// its result. A search that is still running when another request changes the game or the
    /// settings (or starts another search) is stopped first and its result discarded, so the
    /// engine is always consistent; reading methods (`position`, `settings`, ...) work meanwhile.
    ///
    /// `Go::Genmove` fails at once if `color` is not to move, and so does `Go::Analyze`.
    pub fn go(&mut self, go: Go) -> Result<Search, EngineError> {
        let limits = match go {
            Go::Genmove { color, started, .. } => {
                self.check_turn(color)?;
                self.move_limits(started)
            }
            Go::Analyze { color, interval } => {
                self.check_turn(color)?;
                Limits {
                    report_interval: Some(interval),
                    ..Limits::default()
                }
            }
            Go::Ponder => Limits::default(),
        };
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let (report_tx, reports) = unbounded();
        let mut player = self.player.take().expect("no search is running");
        // A finished game has nothing to search: the thread ends at once with no move.
        let game = (!self.position().is_game_over()).then(|| self.game.clone());
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let decision = match game {
                    Some(game) => player.choose(&game, &limits, &flag, &mut |r| {
                        // A closed channel only means nobody listens to the reports.
                        let _ = report_tx.send(r.clone());
                    }),
                    None => Decision::default(),
                };
                // Disconnecting the reports tells the caller the search has ended.
                drop(report_tx);
                (player, decision)
            })
            .expect("spawning the search thread");
        self.running = Some(Running {
            go,
            stop: stop.clone(),
            thread,
        });
        Ok(Search { reports, stop })
    }

    /// Asks the running search, if any, to end soon (see also [`Search::stop`]).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Waits for the running search to end (it must end by itself or be stopped: analysis and
    /// pondering only end when stopped) and applies it: a `Go::Genmove` that plays plays its move
    /// and charges the clock, or resigns. Fails with [`EngineError::NotSearching`] when no search
    /// was started, and [`EngineError::SearchFailed`] when the player panicked (it is then
    /// rebuilt from the settings).
    pub fn wait(&mut self) -> Result<SearchResult, EngineError> {
        let running = self.running.take().ok_or(EngineError::NotSearching)?;
        let decision = match running.thread.join() {
            Ok((player, decision)) => {
                self.player = Some(player);
                decision
            }
            Err(_) => {
                self.player = Some(player_kind::build(
                    self.settings.player,
                    &self.settings.player_config(),
                ));
                return Err(EngineError::SearchFailed);
            }
        };
        Ok(match running.go {
            Go::Genmove {
                color,
                play,
                started,
            } => {
                let decision = self.checked(decision);
                let answer = if play {
                    self.genmove_answer(color, started, &decision)
                } else {
                    decision.mv.map_or(Answer::Resign, Answer::Move)
                };
                SearchResult {
                    decision,
                    answer: Some(answer),
                }
            }
            Go::Analyze { .. } | Go::Ponder => SearchResult {
                decision,
                answer: None,
            },
        })
    }

    /// Stops and waits for the running search, if any, discarding its result.
    fn cancel(&mut self) {
        if self.running.is_some() {
            self.stop();
            let _ = self.wait();
        }
    }

    /// The player, once no search is running.
    fn player(&mut self) -> &mut dyn Player {
        self.cancel();
        self.player
            .as_deref_mut()
            .expect("the player is back once no search runs")
    }

    /// A genmove decision whose move is legal: a player bug must not stall the game, and any
    /// legal move beats none. The move is `None` only when the side to move has no legal move.
    fn checked(&mut self, mut decision: Decision) -> Decision {
        if self.position().is_game_over() {
            return Decision::default();
        }
        let legal = decision
            .mv
            .is_some_and(|m| self.position().check_move(m).is_ok());
        if !legal {
            log::error!(
                "player {} returned {:?}, not a legal move; playing a random one",
                self.player().name(),
                decision.mv
            );
            decision.mv = self.game.position().random_move(&mut self.rng);
            decision.winrate = None;
        }
        decision
    }

    /// Plays the decision of a `genmove` for `color` and charges the clock; or resigns when there
    /// is no legal move or, with resigning on, after [`RESIGN_AFTER`] consecutive moves the player
    /// judged below the threshold.
    fn genmove_answer(&mut self, color: Color, started: Instant, decision: &Decision) -> Answer {
        let Some(mv) = decision.mv else {
            return Answer::Resign;
        };
        let hopeless = &mut self.hopeless[color.index()];
        match (self.settings.resign, decision.winrate) {
            (Some(threshold), Some(w)) if w < threshold => *hopeless += 1,
            _ => *hopeless = 0,
        }
        let elapsed = started.elapsed();
        log::info!(
            "genmove {color}: {mv} ply {} winrate {} playouts {} in {:.3} s",
            self.game.moves().len(),
            decision
                .winrate
                .map_or("-".to_string(), |w| format!("{w:.4}")),
            decision.report.playouts,
            elapsed.as_secs_f64()
        );
        if *hopeless >= RESIGN_AFTER {
            return Answer::Resign;
        }
        self.game
            .play(mv)
            .expect("checked decisions hold only legal moves");
        self.clock.charge(color, elapsed);
        Answer::Move(mv)
    }

    /// `genmove` run to its end: [`Engine::go`] with `Go::Genmove` then [`Engine::wait`] (for
    /// callers that need no reports and never stop the search early, such as tests).
    pub fn genmove(&mut self, color: Color, started: Instant) -> Result<Answer, EngineError> {
        self.go(Go::Genmove {
            color,
            play: true,
            started,
        })?;
        let result = self.wait()?;
        Ok(result.answer.expect("a genmove search has an answer"))
    }

    /// The result once the game is decided (every region belongs to one side) or over: exact when
    /// the endgame solver finishes within its budget, proven bounds otherwise (see `endgame`).
    pub fn final_score(&self) -> Result<Score, EngineError> {
        let pos = self.position();
        match endgame::final_score(pos) {
            Outcome::Decided(score) => Ok(score),
            Outcome::NotDecided => Err(EngineError::NotDecided {
                to_move: pos.side_to_move(),
                moves: pos.count_moves(),
            }),
        }
    }

    /// Proves whether the side to move wins the current position, within `time`, with the
    /// `threads` setting's threads (see `crate::solver`); `stop` ends it early.
    ///
    /// The MCTS player with its solver on (the default) solves with that solver and its table,
    /// so no memory is added and what it proves is at hand for `genmove`; other players (and
    /// `solver_empty 0`) use a solver of the engine's own, with the table `crate::memory` gives
    /// a solver in play.
    pub fn solve(&mut self, time: Duration, stop: &AtomicBool) -> crate::solver::Verdict {
        let limits = crate::solver::ProofLimits {
            time: Some(time),
            ..Default::default()
        };
        let pos = self.game.position().clone();
        if let Some(verdict) = self.player().solve(&pos, &limits, stop) {
            return verdict;
        }
        let mb = crate::memory::own_solver_table_mb(self.settings.memory_mb, self.settings.threads);
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(crate::solver::ProofSolver::new(mb)));
        solver.set_threads(self.settings.threads);
        solver
            .solve(self.game.position(), &limits, stop, &mut |_| {})
            .verdict
    }

    /// Every region of the position with its owner and moves left (see `endgame::FillSolver::report`).
    pub fn regions(&self) -> Vec<RegionReport> {
        endgame::FillSolver::new().report(self.position(), endgame::Budget::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player_kind::PlayerKind;

    fn engine() -> Engine {
        Engine::new(Settings {
            seed: Some(7),
            player: PlayerKind::Random,
            ..Settings::default()
        })
    }

    fn genmove(e: &mut Engine, c: Color) -> Result<Answer, EngineError> {
        e.genmove(c, Instant::now())
    }

    #[test]
    fn genmove_plays_for_the_side_to_move_only() {
        let mut e = engine();
        let err = genmove(&mut e, Color::Black).unwrap_err();
        assert_eq!(err.to_string(), "it is White's turn, not Black's");
        assert!(e.game().moves().is_empty());
        let Answer::Move(m) = genmove(&mut e, Color::White).unwrap() else {
            panic!("the start has moves")
        };
        assert_eq!(e.game().moves(), &[m]);
        assert_eq!(e.position().side_to_move(), Color::Black);
    }

    #[test]
    fn solve_shares_the_players_solver_and_else_sizes_its_own_from_memory() {
        use crate::solver::Verdict;
        let never = AtomicBool::new(false);
        let mut e = Engine::new(Settings {
            seed: Some(7),
            memory_mb: 64,
            ..Settings::default()
        });
        // The MCTS player proves with its own solver: the engine builds none.
        e.set_position("1BB1/B2B/W2W/1WW1 w".parse().unwrap());
        assert_eq!(e.solve(Duration::from_secs(100), &never), Verdict::Loss);
        assert!(e.solver.is_none());
        // That table serves play: genmove finds the loss proven at once (a fresh solve of this
        // position takes some 40,000 nodes).
        e.go(Go::Genmove {
            color: Color::White,
            play: false,
            started: Instant::now(),
        })
        .unwrap();
        let report = e.wait().unwrap().decision.report;
        assert_eq!(report.solved, Some(Verdict::Loss));
        assert!(report.nodes < 100, "{} nodes", report.nodes);
        // A player without a solver: the engine's own, a quarter of the memory.
        e.set_option("player", "random").unwrap();
        e.set_position("xxB/xxx/W1x w".parse().unwrap());
        let win = Verdict::Win(Move::parse("a1-b1/a1", 3).unwrap());
        assert_eq!(e.solve(Duration::from_secs(100), &never), win);
        assert!(e.solver.is_some());
        // Rebuilt from the new settings when the player is.
        e.set_option("memory", "128").unwrap();
        assert!(e.solver.is_none());
    }

    #[test]
    fn a_side_without_moves_resigns_and_nothing_changes() {
        let mut e = engine();
        e.set_position("Bx3/xx3/5/5/W4 b".parse().unwrap());
        assert_eq!(genmove(&mut e, Color::Black).unwrap(), Answer::Resign);
        assert!(e.game().moves().is_empty());
        assert_eq!(e.final_score().unwrap().to_string(), "W+20");
    }

    #[test]
    fn failed_requests_change_nothing() {
        let mut e = engine();
        genmove(&mut e, Color::White).unwrap();
        let before = e.position().to_string();
        let bad = Move::parse("a1-a2/a3", 10).unwrap();
        assert!(matches!(
            e.play(Color::Black, bad),
            Err(EngineError::Illegal(_))
        ));
        assert!(matches!(
            e.play(Color::White, bad),
            Err(EngineError::WrongTurn { .. })
        ));
        assert!(matches!(
            e.set_board_size(5),
            Err(EngineError::UnacceptableSize(5))
        ));
        assert!(e.set_option("threads", "0").is_err());
        assert!(matches!(
            e.final_score(),
            Err(EngineError::NotDecided { .. })
        ));
        assert_eq!(e.position().to_string(), before);
        assert_eq!(e.game().moves().len(), 1);
        e.undo().unwrap();
        assert_eq!(e.undo(), Err(EngineError::NothingToUndo));
    }

    #[test]
    fn clear_board_keeps_the_size_and_resets_the_clock() {
        let mut e = engine();
        e.set_board_size(8).unwrap();
        e.set_time_control(TimeControl::Absolute {
            main: Duration::from_secs(60),
        });
        e.set_time_left(
            Color::White,
            Duration::from_secs(3),
            0,
            Duration::from_secs(1),
        );
        genmove(&mut e, Color::White).unwrap();
        e.clear_board();
        assert_eq!(e.position(), &Position::start(8).unwrap());
        assert_eq!(e.clock().side(Color::White).main, Duration::from_secs(60));
        // A small set-up board restarts from its own start.
        let small: Position = "B1xxx/xxxxx/5/xWxxx/1x1xx w".parse().unwrap();
        e.set_position(small.clone());
        genmove(&mut e, Color::White).unwrap();
        e.clear_board();
        assert_eq!(e.position(), &small);
    }

    #[test]
    fn limits_follow_the_clock_and_playouts() {
        let mut e = engine();
        let l = e.move_limits(Instant::now());
        let hard = l.hard.unwrap();
        assert!(hard <= time::UNTIMED_HARD && hard + Duration::from_secs(1) > time::UNTIMED_HARD);
        assert_eq!(l.playouts, None);
        e.set_option("playouts", "500").unwrap();
        let l = e.move_limits(Instant::now());
        assert_eq!((l.playouts, l.soft, l.hard), (Some(500), None, None));
        e.set_time_control(TimeControl::from_gtp(
            Duration::ZERO,
            Duration::from_secs(1),
            1,
        ));
        let l = e.move_limits(Instant::now() - Duration::from_millis(100));
        assert_eq!(l.playouts, Some(500));
        let hard = l.hard.unwrap();
        assert!(hard <= Duration::from_millis(755), "{hard:?}");
        assert!(hard >= Duration::from_millis(600), "{hard:?}");
    }

    /// A player that always claims the game is lost.
    struct Gloomy;
    impl Player for Gloomy {
        fn choose(
            &mut self,
            game: &Game,
            _: &Limits,
            _: &AtomicBool,
            _: &mut dyn FnMut(&SearchReport),
        ) -> Decision {
            Decision {
                mv: game.position().legal_moves().first().copied(),
                winrate: Some(0.01),
                ..Decision::default()
            }
        }
        fn name(&self) -> &'static str {
            "gloomy"
        }
    }

    #[test]
    fn resigns_after_consecutive_hopeless_moves_only_when_enabled() {
        let mut e = engine();
        e.player = Some(Box::new(Gloomy));
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
        e.play(Color::Black, e.position().legal_moves()[0]).unwrap();
        assert_eq!(genmove(&mut e, Color::White), Ok(Answer::Resign));
        assert_eq!(e.game().moves().len(), 2, "resigning plays nothing");
        e.set_option("resign", "off").unwrap();
        e.player = Some(Box::new(Gloomy));
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
        assert!(matches!(genmove(&mut e, Color::Black), Ok(Answer::Move(_))));
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
    }

    /// Searches until stopped, sending a report every millisecond when asked to.
    struct Endless;
    impl Player for Endless {
        fn choose(
            &mut self,
            game: &Game,
            limits: &Limits,
            stop: &AtomicBool,
            on_report: &mut dyn FnMut(&SearchReport),
        ) -> Decision {
            let mut playouts = 0;
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
                playouts += 1;
                if limits.report_interval.is_some() {
                    on_report(&SearchReport {
                        playouts,
                        ..SearchReport::default()
                    });
                }
            }
            Decision {
                mv: game.position().legal_moves().first().copied(),
                winrate: Some(0.5),
                report: SearchReport {
                    playouts,
                    ..SearchReport::default()
                },
            }
        }
        fn name(&self) -> &'static str {
            "endless"
        }
    }

    #[test]
    fn go_stop_and_wait_from_another_thread() {
        fn is_send<T: Send>(_: &T) {}
        let mut e = Engine::with_player(Settings::default(), Box::new(Endless));
        is_send(&e);
        assert_eq!(e.wait(), Err(EngineError::NotSearching));
        let search = e
            .go(Go::Analyze {
                color: Color::White,
                interval: Duration::from_millis(1),
            })
            .unwrap();
        assert!(e.running.is_some());
        // A front end's other thread reads the reports and stops the search.
        let watcher = std::thread::spawn(move || {
            let first = search.reports().recv().unwrap();
            search.stop();
            // The channel disconnects once the search has ended.
            while search.reports().recv().is_ok() {}
            first
        });
        let first = watcher.join().unwrap();
        assert!(first.playouts >= 1);
        let result = e.wait().unwrap();
        assert_eq!(result.answer, None);
        assert!(result.decision.report.playouts >= first.playouts);
        assert!(e.game().moves().is_empty(), "analysis plays nothing");
        assert!(e.running.is_none());
    }

    #[test]
    fn changing_the_game_ends_a_running_search() {
        let mut e = Engine::with_player(Settings::default(), Box::new(Endless));
        e.go(Go::Ponder).unwrap();
        // Errors change nothing, not even the search.
        assert!(e.undo().is_err());
        assert!(e.running.is_some());
        let mv = e.position().legal_moves()[0];
        e.play(Color::White, mv).unwrap();
        assert!(e.running.is_none());
        assert_eq!(e.game().moves(), &[mv]);
        // A second go replaces the first; dropping the engine ends the search it left running.
        e.go(Go::Ponder).unwrap();
        e.go(Go::Analyze {
            color: Color::Black,
            interval: Duration::from_secs(1),
        })
        .unwrap();
        assert!(matches!(
            e.go(Go::Analyze {
                color: Color::White,
                interval: Duration::from_secs(1),
            }),
            Err(EngineError::WrongTurn { .. })
        ));
    }

    #[test]
    fn reg_genmove_names_a_move_without_playing_it() {
        let mut e = engine();
        e.go(Go::Genmove {
            color: Color::White,
            play: false,
            started: Instant::now(),
        })
        .unwrap();
        let result = e.wait().unwrap();
        let Some(Answer::Move(m)) = result.answer else {
            panic!("{result:?}")
        };
        assert!(e.position().check_move(m).is_ok());
        assert!(e.game().moves().is_empty());
    }

    /// A broken player: it always proposes a move that is illegal at the start.
    struct Illegal;

    impl Player for Illegal {
        fn choose(
            &mut self,
            _: &Game,
            _: &Limits,
            _: &AtomicBool,
            _: &mut dyn FnMut(&SearchReport),
        ) -> Decision {
            Decision {
                mv: Move::parse("a1-a2/a3", 10).ok(),
                ..Decision::default()
            }
        }

        fn name(&self) -> &'static str {
            "illegal"
        }
    }

    /// The first two moves of a fresh engine with the broken player and `seed`.
    fn fallback_moves(seed: u64) -> (Move, Move) {
        let settings = Settings {
            seed: Some(seed),
            ..Settings::default()
        };
        let mut e = Engine::with_player(settings, Box::new(Illegal));
        let mut play = |c| match genmove(&mut e, c).unwrap() {
            Answer::Move(m) => m,
            Answer::Resign => panic!("the start has moves"),
        };
        (play(Color::White), play(Color::Black))
    }

    #[test]
    fn the_fallback_move_follows_the_seed() {
        let a = fallback_moves(5);
        assert_eq!(a, fallback_moves(5));
        // Other seeds pick other moves (the start has 2176, so some of these differ).
        let others: Vec<(Move, Move)> = (6..12).map(fallback_moves).collect();
        assert!(others.iter().any(|&m| m != a), "{others:?}");
    }
}

//! The engine facade: the game record, the settings, the clock and the player behind one API.
//!
//! The protocol layer talks only to this. Every method either succeeds or returns an
//! [`EngineError`] and leaves the engine exactly as it was. Moves are chosen by a [`Player`] built
//! by [`player::build`]; the facade turns the clock into limits, checks what the player returns,
//! plays it and decides about resigning.

use crate::color::Color;
use crate::endgame::{self, Outcome, RegionReport, Score};
use crate::game::Game;
use crate::mv::{IllegalMoveError, Move};
use crate::player::{self, Decision, Limits, Player, SearchReport};
use crate::position::Position;
use crate::settings::{OptionError, Settings, RESIGN_AFTER};
use crate::sgf::{self, GameInfo, Record};
use crate::time::{self, Clock, TimeControl};
use std::fmt;
use std::sync::atomic::AtomicBool;
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

/// The engine: a game, settings, a clock and a player.
pub struct Engine {
    settings: Settings,
    game: Game,
    clock: Clock,
    player: Box<dyn Player>,
    /// Consecutive own moves, per side, whose win-rate estimate was below the resign threshold.
    hopeless: [u32; 2],
    /// The whole-position solver, built on first use (its table is kept between solves).
    solver: Option<Box<crate::solver::Solver>>,
}

/// Table size of the solver behind the `solve` command.
const SOLVER_TABLE_MB: usize = 256;

impl Engine {
    /// An engine at the standard 10x10 start, untimed, with a player built from `settings`.
    pub fn new(settings: Settings) -> Engine {
        let player = player::build(settings.player, &settings.player_config());
        Engine {
            settings,
            game: Game::new(Position::standard()),
            clock: Clock::default(),
            player,
            hopeless: [0; 2],
            solver: None,
        }
    }

    /// An engine with a player supplied by the caller (for players outside `player::build`, and
    /// for tests). Changing a player setting later replaces it with a built one.
    pub fn with_player(settings: Settings, player: Box<dyn Player>) -> Engine {
        Engine {
            player,
            ..Engine::new(settings)
        }
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
        if self.settings.needs_new_player(&next) {
            self.player = player::build(next.player, &next.player_config());
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
        self.game = game;
        self.player.clear();
        self.hopeless = [0; 2];
    }

    /// A new game on a board of side `size` (6 to 10).
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        let start = Position::start(size).ok_or(EngineError::UnacceptableSize(size))?;
        self.new_game(Game::new(start));
        self.clock.reset();
        Ok(())
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
        self.new_game(Game::new(start));
        self.clock.reset();
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
        self.game.play(mv).map_err(EngineError::Illegal)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, EngineError> {
        self.game.undo().ok_or(EngineError::NothingToUndo)
    }

    /// Sets the time control; both sides get its full time.
    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clock = Clock::new(control);
    }

    /// Records a `time_left` report (see [`Clock::set_left`]).
    pub fn set_time_left(&mut self, color: Color, time: Duration, stones: u32) {
        self.clock.set_left(color, time, stones);
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

    /// Lets the player choose a move for `color` (the side to move) without playing it. The
    /// decision's move is `None` only when the side has no legal move.
    pub fn decide(
        &mut self,
        color: Color,
        started: Instant,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Decision, EngineError> {
        self.check_turn(color)?;
        if self.position().is_game_over() {
            return Ok(Decision::default());
        }
        let limits = self.move_limits(started);
        let mut decision = self.player.choose(&self.game, &limits, stop, on_report);
        let legal = decision
            .mv
            .is_some_and(|m| self.position().check_move(m).is_ok());
        if !legal {
            // A player bug must not stall the game: any legal move beats none.
            log::error!(
                "player {} returned {:?}, not a legal move; playing a random one",
                self.player.name(),
                decision.mv
            );
            decision.mv = self.position().random_move(&mut rand::thread_rng());
            decision.winrate = None;
        }
        Ok(decision)
    }

    /// Chooses a move for `color` (the side to move), plays it and charges the clock; or resigns
    /// when there is no legal move or, with resigning on, after [`RESIGN_AFTER`] consecutive moves
    /// the player judged below the threshold.
    pub fn genmove(
        &mut self,
        color: Color,
        started: Instant,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Answer, EngineError> {
        let decision = self.decide(color, started, stop, on_report)?;
        let Some(mv) = decision.mv else {
            return Ok(Answer::Resign);
        };
        let hopeless = &mut self.hopeless[color.index()];
        match (self.settings.resign, decision.winrate) {
            (Some(threshold), Some(w)) if w < threshold => *hopeless += 1,
            _ => *hopeless = 0,
        }
        let elapsed = started.elapsed();
        log::info!(
            "genmove {color}: {mv} winrate {} playouts {} in {:.3} s",
            decision
                .winrate
                .map_or("-".to_string(), |w| format!("{w:.4}")),
            decision.report.playouts,
            elapsed.as_secs_f64()
        );
        if *hopeless >= RESIGN_AFTER {
            return Ok(Answer::Resign);
        }
        self.game.play(mv).expect("decide returns only legal moves");
        self.clock.charge(color, elapsed);
        Ok(Answer::Move(mv))
    }

    /// Searches the position for `color` (the side to move) without bounds, calling `on_report`
    /// about every `interval`, until `stop` is set. Nothing changes in the game.
    pub fn analyze(
        &mut self,
        color: Color,
        interval: Duration,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<(), EngineError> {
        self.check_turn(color)?;
        if self.position().is_game_over() {
            return Ok(());
        }
        let limits = Limits {
            report_interval: Some(interval),
            ..Limits::default()
        };
        self.player.choose(&self.game, &limits, stop, on_report);
        Ok(())
    }

    /// Thinks on the opponent's time (the side to move is the opponent) until `stop` is set, so
    /// that a player that keeps its tree is ahead when its turn comes.
    pub fn ponder(&mut self, stop: &AtomicBool) {
        if !self.position().is_game_over() {
            self.player
                .choose(&self.game, &Limits::default(), stop, &mut |_| {});
        }
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

    /// Proves whether the side to move wins the current position, within `time` (see
    /// `crate::solver`); `stop` ends it early.
    pub fn solve(&mut self, time: Duration, stop: &AtomicBool) -> crate::solver::Verdict {
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(crate::solver::Solver::new(SOLVER_TABLE_MB)));
        let limits = crate::solver::Limits {
            time: Some(time),
            ..Default::default()
        };
        solver
            .solve(self.game.position(), &limits, stop, &mut |_| {})
            .verdict
    }

    /// Every region of the position with its owner and moves left (see `endgame::Solver::report`).
    pub fn regions(&self) -> Vec<RegionReport> {
        endgame::Solver::new().report(self.position(), endgame::Budget::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerKind;

    fn engine() -> Engine {
        Engine::new(Settings {
            seed: Some(7),
            player: PlayerKind::Random,
            ..Settings::default()
        })
    }

    fn genmove(e: &mut Engine, c: Color) -> Result<Answer, EngineError> {
        e.genmove(c, Instant::now(), &AtomicBool::new(false), &mut |_| {})
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
        e.set_time_left(Color::White, Duration::from_secs(3), 0);
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
        e.player = Box::new(Gloomy);
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
        e.play(Color::Black, e.position().legal_moves()[0]).unwrap();
        assert_eq!(genmove(&mut e, Color::White), Ok(Answer::Resign));
        assert_eq!(e.game().moves().len(), 2, "resigning plays nothing");
        e.set_option("resign", "off").unwrap();
        e.player = Box::new(Gloomy);
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
        assert!(matches!(genmove(&mut e, Color::Black), Ok(Answer::Move(_))));
        assert!(matches!(genmove(&mut e, Color::White), Ok(Answer::Move(_))));
    }
}

//! The game behind the page: one thread owns the engine facade and the game line (with redo),
//! who plays each side, the clocks, and the searches (the engine's moves and the live analysis).
//!
//! Requests arrive as [`Command`]s through a [`Handle`]; each is checked before anything changes,
//! so a refused one leaves the game exactly as it was. A search runs on a scoped thread while this
//! thread keeps taking commands: a command that changes the game stops the search first (an
//! engine move stopped that way is not played), others are answered at once. After every change
//! the whole state is published as one JSON object: readers take it from the handle, and every
//! open page gets it on the event stream.

use super::events::{self, Events};
use super::timing;
use super::view;
use crate::color::Color;
use crate::engine::{Answer, Engine, Go, SearchResult};
use crate::json::write::{self as json, Object};
use crate::mv::Move;
use crate::player::SearchReport;
use crate::position::Position;
use crate::sgf;
use crate::time::{Clock, TimeControl};
use crossbeam::channel::{bounded, never, select, unbounded, Receiver, RecvTimeoutError, Sender};
use parking_lot::Mutex;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Time between analysis reports asked of the search (the event stream thins them further).
pub const ANALYSIS_INTERVAL: Duration = Duration::from_millis(200);
/// Longest a request waits for the session (a stopped search returns in milliseconds).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Who moves for a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Controller {
    /// Moves come from the page.
    Human,
    /// The engine moves by itself.
    Engine,
}

impl Controller {
    /// `human` or `engine`.
    pub fn parse(text: &str) -> Option<Controller> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" => Some(Controller::Human),
            "engine" => Some(Controller::Engine),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Controller::Human => "human",
            Controller::Engine => "engine",
        }
    }
}

/// A request to the session.
#[derive(Clone, Debug)]
pub enum Command {
    /// Play this move text for the side to move.
    Play(String),
    /// Take back the last move (and the engine's reply before it, against the engine).
    Undo,
    /// Replay the next move of the line.
    Redo,
    /// Show the position after this many moves of the line.
    Goto(usize),
    /// A new game at the start position of a board of this many files and ranks (the standard
    /// start on squares of side 6 to 10, the small boards' named starts otherwise).
    NewGame(usize, usize),
    /// A new game from this position string.
    SetPosition(String),
    /// Load this SGF text.
    LoadSgf(String),
    /// The whole line as SGF (answered with the SGF text, not the state).
    SaveSgf,
    /// Who plays White and Black.
    Players([Controller; 2]),
    /// A time control (both clocks restart full).
    Time(TimeControl),
    /// Live analysis on or off.
    Analysis(bool),
    /// Let the engine move again after the game was stepped through.
    Resume,
}

impl Command {
    /// Whether the command leaves the game and the engine alone, so it can be answered while a
    /// search runs.
    fn is_light(&self) -> bool {
        matches!(self, Command::Analysis(_) | Command::Resume)
    }
}

struct Call {
    command: Command,
    reply: Sender<Result<String, String>>,
}

/// The published state and the event stream, shared with the request threads.
struct Shared {
    /// The state and when it was published.
    state: Mutex<(Arc<str>, Instant)>,
    events: Events,
}

/// `state` with its age added as `ageMs`, so that a page reading an older state still shows
/// the running clock right.
fn aged(state: &str, published: Instant) -> String {
    let body = state.strip_suffix('}').unwrap_or(state);
    format!("{body},\"ageMs\":{}}}", published.elapsed().as_millis())
}

/// A cheap handle on a running session.
#[derive(Clone)]
pub struct Handle {
    calls: Sender<Call>,
    shared: Arc<Shared>,
}

impl Handle {
    /// Runs `command`; the new state (JSON) or why nothing changed.
    pub fn call(&self, command: Command) -> Result<String, String> {
        let (reply, answer) = bounded(1);
        self.calls
            .send(Call { command, reply })
            .map_err(|_| "the game session has ended".to_string())?;
        answer
            .recv_timeout(CALL_TIMEOUT)
            .map_err(|_| "the game session did not answer in time".to_string())?
    }

    /// The current state, as JSON.
    pub fn state(&self) -> String {
        let guard = self.shared.state.lock();
        let (state, published) = (&guard.0, guard.1);
        aged(state, published)
    }

    /// An event stream starting with the current state; `None` when too many pages are open.
    pub fn subscribe(&self) -> Option<Receiver<Arc<str>>> {
        // Under the state lock, so that no state published meanwhile is missed.
        let guard = self.shared.state.lock();
        let (state, published) = (&guard.0, guard.1);
        self.shared
            .events
            .subscribe(events::format("state", &aged(state, published)))
    }
}

/// Starts a session around `engine` with these controllers and time control.
pub fn start(engine: Engine, players: [Controller; 2], control: TimeControl) -> Handle {
    let (calls, rx) = unbounded();
    let shared = Arc::new(Shared {
        state: Mutex::new((Arc::from("{}"), Instant::now())),
        events: Events::default(),
    });
    let mut session = Session {
        engine,
        st: State {
            line: Vec::new(),
            winrates: vec![None],
            players,
            paused: false,
            analysis: false,
            clock: Clock::new(control),
            turn_started: Instant::now(),
            flagged: None,
            status: Status::Idle,
            search_ended: false,
            position_json: String::new(),
            last_analysis: None,
            version: 0,
            session_id: rand::random(),
            position_id: 0,
            ply: 0,
            side: Color::White,
            running: false,
            shared: shared.clone(),
        },
    };
    session.engine.set_time_control(control);
    // On the board the game is played out: the page shows the exact final score, and a human
    // opponent would rather see the engine finish than resign.
    let _ = session.engine.set_option("resign", "off");
    session.position_changed();
    std::thread::Builder::new()
        .name("gui-session".into())
        .spawn(move || session.run(&rx))
        .expect("cannot start the game session thread");
    Handle { calls, shared }
}

/// What the engine is doing.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    Thinking(Color),
    Analysing,
}

/// A search to run.
#[derive(Copy, Clone)]
enum Task {
    Move(Color),
    Analyze(Color),
}

struct Session {
    engine: Engine,
    st: State,
}

/// Everything but the engine (so it can be used while a search borrows the engine).
struct State {
    /// The whole line; the engine's game is its first `ply` moves.
    line: Vec<Move>,
    /// Estimated White win rate after each number of moves (`line.len() + 1` entries).
    winrates: Vec<Option<f64>>,
    players: [Controller; 2],
    /// The engine waits for `Resume` (set when the game is stepped through).
    paused: bool,
    analysis: bool,
    clock: Clock,
    /// When the side to move started thinking (reset by every change).
    turn_started: Instant,
    /// The side whose flag fell.
    flagged: Option<Color>,
    status: Status,
    /// The last analysis of this position ended by itself (do not restart it).
    search_ended: bool,
    /// `view::position` of the shown position.
    position_json: String,
    /// The latest analysis of the shown position.
    last_analysis: Option<String>,
    version: u64,
    /// Tells this session's states from an earlier server's (whose versions may be higher).
    session_id: u64,
    /// Serial number of the shown position (analysis events name the position they are about).
    position_id: u64,
    /// Moves shown, side to move and whether its clock runs, as last published.
    ply: usize,
    side: Color,
    running: bool,
    shared: Arc<Shared>,
}

impl Session {
    fn ply(&self) -> usize {
        self.engine.game().moves().len()
    }

    fn at_end(&self) -> bool {
        self.ply() == self.st.line.len()
    }

    fn run(mut self, rx: &Receiver<Call>) {
        loop {
            match self.next_task() {
                Some(task) => {
                    if !self.search(task, rx) {
                        return;
                    }
                }
                None => {
                    let call = match self.flag_wait() {
                        Some(wait) => rx.recv_timeout(wait),
                        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    };
                    match call {
                        Ok(call) => self.answer(call),
                        Err(RecvTimeoutError::Timeout) => self.check_flag(),
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            }
        }
    }

    fn next_task(&self) -> Option<Task> {
        let pos = self.engine.position();
        if self.st.flagged.is_some() || pos.is_game_over() {
            return None;
        }
        let side = pos.side_to_move();
        if self.st.players[side.index()] == Controller::Engine && !self.st.paused && self.at_end() {
            Some(Task::Move(side))
        } else if self.st.analysis && !self.st.search_ended {
            Some(Task::Analyze(side))
        } else {
            None
        }
    }

    /// Whether the side to move's clock runs.
    fn clock_running(&self) -> bool {
        let side = self.engine.position().side_to_move();
        *self.st.clock.control() != TimeControl::Unlimited
            && self.st.flagged.is_none()
            && !self.engine.position().is_game_over()
            && self.at_end()
            && !(self.st.paused && self.st.players[side.index()] == Controller::Engine)
    }

    /// Time until the side to move's flag falls, when its clock runs.
    fn flag_wait(&self) -> Option<Duration> {
        if !self.clock_running() {
            return None;
        }
        let side = self.engine.position().side_to_move();
        let limit = self.st.clock.time_to_flag(side)?;
        Some(
            limit
                .saturating_sub(self.st.turn_started.elapsed())
                .max(Duration::from_millis(1)),
        )
    }

    fn check_flag(&mut self) {
        if self
            .flag_wait()
            .is_some_and(|w| w <= Duration::from_millis(1))
        {
            self.st.flagged = Some(self.engine.position().side_to_move());
            self.publish();
        }
    }

    /// Runs `task` while answering commands; `false` once every handle is gone.
    fn search(&mut self, task: Task, rx: &Receiver<Call>) -> bool {
        let go = match task {
            Task::Move(color) => {
                self.sync_engine_clock(color);
                self.st.status = Status::Thinking(color);
                Go::Genmove {
                    color,
                    play: true,
                    started: self.st.turn_started,
                }
            }
            Task::Analyze(color) => {
                self.st.status = Status::Analysing;
                Go::Analyze {
                    color,
                    interval: ANALYSIS_INTERVAL,
                }
            }
        };
        let side = self.engine.position().side_to_move();
        let search = match self.engine.go(go) {
            Ok(s) => s,
            Err(e) => {
                // Cannot happen (the task is for the side to move); do not retry in a loop.
                log::error!("gui: cannot start a search: {e}");
                self.st.status = Status::Idle;
                self.st.paused = true;
                self.st.search_ended = true;
                self.publish();
                return true;
            }
        };
        self.publish();
        let shown = view::Shown {
            id: self.st.position_id,
            ply: self.ply(),
            side,
            width: self.engine.position().width(),
        };
        let mut pending = Vec::new();
        let mut connected = true;
        loop {
            let calls = if connected { rx.clone() } else { never() };
            select! {
                // The reports disconnect when the search has ended.
                recv(search.reports()) -> r => match r {
                    Ok(r) if !search.is_stopped() => self.st.on_report(&r, shown),
                    Ok(_) => {}
                    Err(_) => break,
                },
                recv(calls) -> call => match call {
                    Ok(call) => {
                        if let Some(call) = self.st.answer_during(call, task) {
                            search.stop();
                            pending.push(call);
                        } else if matches!(task, Task::Analyze(_)) && !self.st.analysis {
                            search.stop();
                        }
                    }
                    Err(_) => {
                        connected = false;
                        search.stop();
                    }
                },
            }
        }
        let result = self.engine.wait();
        self.st.status = Status::Idle;
        let played = match &result {
            Ok(SearchResult {
                answer: Some(Answer::Move(mv)),
                decision,
            }) => Some((*mv, decision.winrate)),
            _ => None,
        };
        match task {
            // Stopped for a request that changes the game: the move is not wanted.
            Task::Move(_) if search.is_stopped() => {
                if played.is_some() {
                    let _ = self.engine.undo();
                }
            }
            Task::Move(c) => match played {
                Some((mv, winrate)) => self.engine_moved(c, mv, winrate),
                // Only a player that failed gets here (a side without moves has lost and is
                // never asked): wait for the user rather than ask again at once.
                None => {
                    log::error!("gui: the engine gave no move: {result:?}");
                    self.st.paused = true;
                }
            },
            Task::Analyze(_) if !search.is_stopped() => self.st.search_ended = true,
            Task::Analyze(_) => {}
        }
        self.publish();
        for call in pending {
            self.answer(call);
        }
        connected
    }

    /// Gives the engine its clock before it thinks (the session's clock is the referee's, to
    /// the millisecond).
    fn sync_engine_clock(&mut self, side: Color) {
        let t = *self.st.clock.side(side);
        let unit = Duration::from_millis(1);
        if t.overtime {
            self.engine
                .set_time_left(side, t.period_left, t.count.max(1), unit);
        } else {
            self.engine.set_time_left(side, t.main, 0, unit);
        }
    }

    /// The engine played `mv` for `side` (its `genmove` played it and charged its own clock).
    fn engine_moved(&mut self, side: Color, mv: Move, winrate: Option<f64>) {
        let elapsed = self.st.turn_started.elapsed();
        if self
            .st
            .clock
            .time_to_flag(side)
            .is_some_and(|limit| elapsed > limit)
        {
            // Too late: the move does not count.
            let _ = self.engine.undo();
            self.st.flagged = Some(side);
            return;
        }
        let ply = self.ply() - 1;
        if let Some(w) = winrate {
            self.st.winrates[ply] = Some(white_view(w, side));
        }
        self.st.line.truncate(ply);
        self.st.line.push(mv);
        self.st.winrates.truncate(ply + 1);
        self.st.winrates.push(None);
        self.st.clock.charge(side, elapsed);
        self.position_changed();
    }

    /// Answers one call, catching engine panics (the session goes on).
    fn answer(&mut self, call: Call) {
        let result = catch_unwind(AssertUnwindSafe(|| self.run_command(call.command)))
            .unwrap_or_else(|_| Err("internal error".into()));
        let _ = call.reply.send(result);
    }

    fn run_command(&mut self, command: Command) -> Result<String, String> {
        match command {
            Command::Play(text) => self.play(&text)?,
            Command::Undo => {
                if self.ply() == 0 {
                    return Err("nothing to undo: this is the start of the game".into());
                }
                let mut target = self.ply() - 1;
                // Against the engine, take back its reply too, so the human is to move.
                let mover = self.engine.position().side_to_move();
                if target > 0
                    && self.st.players[mover.index()] == Controller::Human
                    && self.st.players[(!mover).index()] == Controller::Engine
                {
                    target -= 1;
                }
                self.goto(target);
            }
            Command::Redo => {
                if self.at_end() {
                    return Err("nothing to redo: this is the last move of the line".into());
                }
                self.goto(self.ply() + 1);
            }
            Command::Goto(n) => {
                if n > self.st.line.len() {
                    return Err(format!(
                        "there is no move {n}: the line has {} moves",
                        self.st.line.len()
                    ));
                }
                self.goto(n);
            }
            Command::NewGame(width, height) => {
                let start = Position::named_start(width, height).ok_or_else(|| {
                    format!("no start position for {width}x{height} (files and ranks 4 to 10)")
                })?;
                self.engine.restart_from(start);
                self.new_line();
            }
            Command::SetPosition(text) => {
                let pos: Position = text
                    .trim()
                    .parse()
                    .map_err(|e| format!("bad position: {e}"))?;
                self.engine.set_position(pos);
                self.new_line();
            }
            Command::LoadSgf(text) => {
                let record = sgf::parse(&text).map_err(|e| format!("bad SGF: {e}"))?;
                self.engine.load(record, None);
                self.new_line();
                self.st.line = self.engine.game().moves().to_vec();
                self.st.winrates = vec![None; self.st.line.len() + 1];
                // A loaded game is for looking at: the engine waits to be told to play on.
                self.st.paused = true;
                self.position_changed();
            }
            Command::SaveSgf => {
                let ply = self.ply();
                self.walk_to(self.st.line.len());
                let text = self.engine.sgf();
                self.walk_to(ply);
                return Ok(text);
            }
            Command::Players(players) => {
                self.st.players = players;
                self.st.paused = false;
                self.st.turn_started = Instant::now();
            }
            Command::Time(control) => {
                self.st.clock = Clock::new(control);
                self.engine.set_time_control(control);
                self.st.flagged = None;
                self.st.turn_started = Instant::now();
            }
            Command::Analysis(on) => {
                self.st.analysis = on;
                self.st.search_ended = false;
            }
            Command::Resume => {
                self.st.paused = false;
                self.st.turn_started = Instant::now();
            }
        }
        Ok(self.publish().to_string())
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        if let Some(side) = self.st.flagged {
            return Err(format!("the game is over: {side} ran out of time"));
        }
        let pos = self.engine.position();
        let mv = Move::parse_rect(text, pos.width(), pos.height()).map_err(|e| e.to_string())?;
        let side = pos.side_to_move();
        let at_end = self.at_end();
        let elapsed = self.st.turn_started.elapsed();
        self.engine.play(side, mv).map_err(|e| format!("{e}"))?;
        let ply = self.ply() - 1;
        if at_end {
            self.st.clock.charge(side, elapsed);
        }
        if self.st.line.get(ply) != Some(&mv) {
            self.st.line.truncate(ply);
            self.st.line.push(mv);
            self.st.winrates.truncate(ply + 1);
            self.st.winrates.push(None);
        }
        self.st.paused = false;
        self.position_changed();
        Ok(())
    }

    /// Moves the engine's game to `n` moves of the line (no other change).
    fn walk_to(&mut self, n: usize) {
        while self.ply() > n {
            let _ = self.engine.undo();
        }
        while self.ply() < n {
            let side = self.engine.position().side_to_move();
            let mv = self.st.line[self.ply()];
            if self.engine.play(side, mv).is_err() {
                break;
            }
        }
    }

    /// Shows the position after `n` moves; the engine waits until a move is played or it is told
    /// to resume.
    fn goto(&mut self, n: usize) {
        self.walk_to(n);
        self.st.paused = true;
        self.position_changed();
    }

    /// Starts a new line from the engine's current game (after a new game or position).
    fn new_line(&mut self) {
        self.st.line.clear();
        self.st.winrates = vec![None];
        self.st.flagged = None;
        self.st.paused = false;
        self.st.clock.reset();
        self.position_changed();
    }

    /// The shown position changed: redraw it, and forget the analysis of the old one.
    fn position_changed(&mut self) {
        self.st.position_id += 1;
        self.st.position_json = view::position(&self.engine);
        self.st.last_analysis = None;
        self.st.search_ended = false;
        self.st.turn_started = Instant::now();
        self.publish();
    }

    fn publish(&mut self) -> Arc<str> {
        self.st.running = self.clock_running();
        self.st.ply = self.ply();
        self.st.side = self.engine.position().side_to_move();
        self.st.publish()
    }
}

impl State {
    /// Answers a call that can be answered while a search runs, or gives it back.
    fn answer_during(&mut self, call: Call, task: Task) -> Option<Call> {
        if let (Command::Play(_), Task::Move(c)) = (&call.command, task) {
            let _ = call.reply.send(Err(format!(
                "the engine is thinking for {c}: wait for its move, or step back to stop it"
            )));
            return None;
        }
        if !call.command.is_light() {
            return Some(call);
        }
        match call.command {
            Command::Analysis(on) => self.analysis = on,
            // The engine is already thinking.
            Command::Resume => self.paused = false,
            _ => unreachable!("only light commands get here"),
        }
        // The task goes on, so the shown position and the clock are as they were.
        let state = self.publish();
        let _ = call.reply.send(Ok(state.to_string()));
        None
    }

    fn on_report(&mut self, report: &SearchReport, shown: view::Shown) {
        let Some(best) = report.moves.first() else {
            return;
        };
        if let Some(w) = self.winrates.get_mut(shown.ply) {
            *w = Some(white_view(best.winrate, shown.side));
        }
        let json = view::analysis(report, shown);
        self.shared.events.analysis(&json);
        self.last_analysis = Some(json);
    }

    /// Publishes the state, with the ply, side to move and clock state last seen from the
    /// engine (a search does not change them).
    fn publish(&mut self) -> Arc<str> {
        let (ply, side, running) = (self.ply, self.side, self.running);
        self.version += 1;
        let clock_side = |c: Color| {
            let left = self.clock.time_to_flag(c).map(|t| {
                if running && c == side {
                    t.saturating_sub(self.turn_started.elapsed())
                } else {
                    t
                }
            });
            Object::new()
                .raw(
                    "ms",
                    &left.map_or("null".into(), |t| t.as_millis().to_string()),
                )
                .str("note", &timing::overtime_note(&self.clock, c))
                .finish()
        };
        let clock = Object::new()
            .str("control", &self.clock.control().to_string())
            .opt_str("running", running.then_some(side.name()))
            .raw("white", &clock_side(Color::White))
            .raw("black", &clock_side(Color::Black))
            .finish();
        let status = match self.status {
            Status::Idle => "idle".to_string(),
            Status::Thinking(c) => format!("thinking:{c}"),
            Status::Analysing => "analysing".to_string(),
        };
        let winrates = json::array(
            self.winrates
                .iter()
                .map(|w| w.map_or("null".into(), json::number)),
        );
        let state = Object::new()
            .int("version", self.version as i128)
            .str("session", &format!("{:016x}", self.session_id))
            .int("positionId", self.position_id as i128)
            .raw("position", &self.position_json)
            .raw(
                "moves",
                &json::string_array(self.line.iter().map(|m| m.to_string())),
            )
            .int("ply", ply as i64)
            .raw("winrates", &winrates)
            .raw(
                "players",
                &Object::new()
                    .str("white", self.players[0].name())
                    .str("black", self.players[1].name())
                    .finish(),
            )
            .bool("paused", self.paused)
            .bool("analysis", self.analysis)
            .str("status", &status)
            .raw("clock", &clock)
            .opt_str("flagged", self.flagged.map(Color::name))
            .raw(
                "lastAnalysis",
                self.last_analysis.as_deref().unwrap_or("null"),
            )
            .finish();
        let state: Arc<str> = Arc::from(state);
        let mut shared = self.shared.state.lock();
        *shared = (state.clone(), Instant::now());
        self.shared.events.state(&state);
        state
    }
}

/// A win rate for `side` seen from White.
fn white_view(winrate: f64, side: Color) -> f64 {
    match side {
        Color::White => winrate,
        Color::Black => 1.0 - winrate,
    }
}

//! The text protocol (GTP version 2 with Amazons moves and a few conventions from other engines;
//! see `protocol.md`): the loop that reads commands, runs them through the engine facade and
//! writes the responses.
//!
//! Commands are answered strictly in order. Searches (`genmove`, `analyze`, pondering) run on the
//! engine facade's search thread (`Engine::go`) while this loop keeps reading input and writing
//! the search's reports: lines that arrive meanwhile are queued, and
//! stop the search when it is `analyze` or pondering (any line), or when they are `quit` or the
//! end of input (which is answered right after the search returns, within milliseconds).

pub mod analyze;
pub mod command;
pub mod input;
pub mod response;

use crate::engine::{Answer, Engine, EngineError, Go, SearchResult};
use crate::player::SearchReport;
use crate::settings::Settings;
use command::{Action, Command};
use crossbeam::channel::{never, select, Receiver};
use input::{Input, Line};
use response::Message;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn run(settings: Settings) -> io::Result<()> {
    let inputs = input::spawn(io::stdin());
    let stdout = io::stdout();
    let mut session = Session::new(Engine::new(settings), inputs, Box::new(stdout.lock()));
    session.run()
}

/// Which input stops a running search.
#[derive(Copy, Clone, PartialEq, Eq)]
enum StopOn {
    /// Only `quit` or the end of input (`genmove`: later commands wait their turn).
    Quit,
    /// Any input line (`analyze`, pondering).
    AnyInput,
}

/// Turns a search report into a line of a streamed response (or nothing).
type Formatter = dyn Fn(&SearchReport) -> Option<String>;

/// A protocol session: the engine, the input queue and the output.
pub struct Session<'a> {
    engine: Engine,
    inputs: Receiver<Input>,
    /// Lines read while a search ran, not yet handled.
    pending: VecDeque<Line>,
    /// The end of input has been seen (after the pending lines it acts as `quit`).
    eof: bool,
    out: Box<dyn Write + 'a>,
}

impl<'a> Session<'a> {
    /// A session over an input queue (see `input::spawn`) and an output.
    pub fn new(engine: Engine, inputs: Receiver<Input>, out: Box<dyn Write + 'a>) -> Session<'a> {
        Session {
            engine,
            inputs,
            pending: VecDeque::new(),
            eof: false,
            out,
        }
    }

    /// Handles commands until `quit` or the end of input. Fails only when the output fails.
    pub fn run(&mut self) -> io::Result<()> {
        while let Some(line) = self.next_line() {
            if let Some(n) = line.too_long {
                let id = command::parse(&line.text).and_then(|c| c.id);
                let text = format!("line too long ({n} bytes; at most {})", input::MAX_LINE);
                self.send(Message::Done {
                    id: id.as_deref(),
                    ok: false,
                    text: &text,
                })?;
                continue;
            }
            let Some(cmd) = command::parse(&line.text) else {
                continue;
            };
            if !self.handle(&cmd, line.received)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The next line to handle: a queued one, else one from the reader; `None` at the end.
    fn next_line(&mut self) -> Option<Line> {
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        if self.eof {
            return None;
        }
        match self.inputs.recv() {
            Ok(Input::Line(line)) => Some(line),
            Ok(Input::Eof) | Err(_) => {
                self.eof = true;
                None
            }
        }
    }

    /// Writes one response (or piece of one).
    fn send(&mut self, message: Message<'_>) -> io::Result<()> {
        response::write(&mut self.out, message)
    }

    /// Runs one command and answers it; `false` when the session ends.
    fn handle(&mut self, cmd: &Command, received: Instant) -> io::Result<bool> {
        let id = cmd.id.as_deref();
        let engine = &mut self.engine;
        let action = catch_unwind(AssertUnwindSafe(|| command::dispatch(engine, cmd)))
            .unwrap_or_else(|_| Err(format!("internal error while running '{}'", cmd.name)));
        match action {
            Err(text) => self.send(Message::Done {
                id,
                ok: false,
                text: &text,
            })?,
            Ok(Action::Reply(text)) => self.send(Message::Done {
                id,
                ok: true,
                text: &text,
            })?,
            Ok(Action::Quit) => {
                self.send(Message::Done {
                    id,
                    ok: true,
                    text: "",
                })?;
                return Ok(false);
            }
            Ok(Action::Genmove { color, play }) => {
                let go = Go::Genmove {
                    color,
                    play,
                    started: received,
                };
                let (ok, text) = match self.search(go, StopOn::Quit, None)? {
                    Ok(SearchResult {
                        answer: Some(Answer::Move(m)),
                        ..
                    }) => (true, m.to_string()),
                    Ok(_) => (true, "resign".to_string()),
                    Err(EngineError::SearchFailed) => (
                        false,
                        format!("internal error while running '{}'", cmd.name),
                    ),
                    Err(e) => (false, e.to_string()),
                };
                self.send(Message::Done {
                    id,
                    ok,
                    text: &text,
                })?;
                if play && ok && text != "resign" {
                    self.ponder()?;
                }
            }
            Ok(Action::Analyze(args)) => {
                self.send(Message::Open { id })?;
                let go = Go::Analyze {
                    color: self.engine.position().side_to_move(),
                    interval: args.interval,
                };
                let max_moves = args.max_moves;
                // Failures are logged: the stream has begun and can only be closed.
                let format = move |r: &SearchReport| analyze::info_line(r, max_moves);
                if let Err(e) = self.search(go, StopOn::AnyInput, Some(&format))? {
                    log::error!("analyze: {e}");
                }
                self.send(Message::Close)?;
            }
        }
        Ok(true)
    }

    /// Thinks on the opponent's time, when pondering is on and no command is waiting.
    fn ponder(&mut self) -> io::Result<()> {
        if !self.engine.settings().ponder
            || self.engine.position().is_game_over()
            || !self.pending.is_empty()
            || self.eof
        {
            return Ok(());
        }
        if let Err(e) = self.search(Go::Ponder, StopOn::AnyInput, None)? {
            log::error!("ponder: {e}");
        }
        Ok(())
    }

    /// Runs a search through the engine facade while watching the input, streaming formatted
    /// reports when `stream` is given. With [`StopOn::AnyInput`] the search lasts until a line
    /// arrives even if it ends sooner (an `analyze` stream ends only when the next command
    /// comes).
    fn search(
        &mut self,
        go: Go,
        stop_on: StopOn,
        stream: Option<&Formatter>,
    ) -> io::Result<Result<SearchResult, EngineError>> {
        let search = match self.engine.go(go) {
            Ok(s) => s,
            Err(e) => return Ok(Err(e)),
        };
        if self.eof {
            // After the end of input every search answers at once.
            search.stop();
        }
        let mut output: io::Result<()> = Ok(());
        let mut finished = false;
        loop {
            let input_rx = if self.eof {
                never()
            } else {
                self.inputs.clone()
            };
            // With StopOn::AnyInput a finished search still waits for the next line.
            let waiting_for_input = finished && stop_on == StopOn::AnyInput;
            if finished && (!waiting_for_input || search.is_stopped() || self.eof) {
                break;
            }
            let reports = if finished {
                never()
            } else {
                search.reports().clone()
            };
            select! {
                recv(reports) -> r => match r {
                    // Reports sent before the search ended still belong to the stream; those
                    // after a stop do not.
                    Ok(r) => {
                        if let (Some(format), Ok(()), false) = (stream, &output, search.is_stopped()) {
                            if let Some(line) = format(&r) {
                                output = response::write(&mut self.out, Message::Stream(&line));
                            }
                        }
                    }
                    Err(_) => finished = true,
                },
                recv(input_rx) -> msg => match msg {
                    Ok(Input::Line(line)) => {
                        let quit = command::parse(&line.text)
                            .is_some_and(|c| c.name == "quit" && line.too_long.is_none());
                        if quit || stop_on == StopOn::AnyInput {
                            search.stop();
                        }
                        self.pending.push_back(line);
                    }
                    Ok(Input::Eof) | Err(_) => {
                        self.eof = true;
                        search.stop();
                    }
                },
            }
            if output.is_err() {
                // Nobody is reading: stop searching, the loop will end on the error.
                search.stop();
            }
        }
        let engine = &mut self.engine;
        let result = catch_unwind(AssertUnwindSafe(|| engine.wait()))
            .unwrap_or(Err(EngineError::SearchFailed));
        output.map(|()| result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::player::{Decision, Limits, MoveStats, Player};
    use crossbeam::channel::{unbounded, Sender};
    use parking_lot::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    /// Searches until stopped or out of time, reporting its (fake) statistics as asked, and
    /// records the limits it was given.
    struct Busy {
        seen: Arc<Mutex<Vec<Limits>>>,
    }

    impl Player for Busy {
        fn choose(
            &mut self,
            game: &Game,
            limits: &Limits,
            stop: &AtomicBool,
            on_report: &mut dyn FnMut(&SearchReport),
        ) -> Decision {
            self.seen.lock().push(limits.clone());
            let start = Instant::now();
            let moves = game.position().legal_moves();
            let mut last = start;
            let mut playouts = 0;
            while !stop.load(Ordering::Relaxed) && limits.hard.is_none_or(|h| start.elapsed() < h) {
                std::thread::sleep(Duration::from_millis(1));
                playouts += 10;
                if let Some(every) = limits.report_interval {
                    if last.elapsed() >= every {
                        last = Instant::now();
                        on_report(&SearchReport {
                            moves: moves
                                .iter()
                                .take(2)
                                .map(|&mv| MoveStats {
                                    mv,
                                    visits: playouts,
                                    winrate: 0.5,
                                    prior: 0.25,
                                    pv: vec![mv],
                                })
                                .collect(),
                            playouts,
                            nodes: playouts,
                            elapsed: start.elapsed(),
                            solved: None,
                        });
                    }
                }
            }
            Decision {
                mv: moves.first().copied(),
                winrate: Some(0.5),
                report: SearchReport::default(),
            }
        }

        fn name(&self) -> &'static str {
            "busy"
        }
    }

    /// Output shared with the test.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().clone()).unwrap()
        }
        fn wait_for(&self, what: &str) {
            let start = Instant::now();
            while !self.text().contains(what) {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "no {what:?} in {}",
                    self.text()
                );
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }

    /// A session with a `Busy` player running on its own thread.
    struct Running {
        input: Sender<Input>,
        out: Shared,
        seen: Arc<Mutex<Vec<Limits>>>,
        handle: std::thread::JoinHandle<()>,
    }

    fn start(settings: Settings) -> Running {
        let (input, rx) = unbounded();
        let out = Shared::default();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let player = Box::new(Busy { seen: seen.clone() });
        let engine = Engine::with_player(settings, player);
        let o = out.clone();
        let handle = std::thread::spawn(move || {
            Session::new(engine, rx, Box::new(o)).run().unwrap();
        });
        Running {
            input,
            out,
            seen,
            handle,
        }
    }

    fn line(text: &str) -> Input {
        Input::Line(Line {
            text: text.into(),
            received: Instant::now(),
            too_long: None,
        })
    }

    #[test]
    fn analyze_streams_info_lines_until_the_next_command() {
        let Running {
            input: tx,
            out,
            seen,
            handle,
        } = start(Settings::default());
        let first = crate::position::Position::standard().legal_moves()[0].to_string();
        tx.send(line("3 analyze w 1 maxmoves 1")).unwrap();
        out.wait_for(&format!("pv {first}\n"));
        tx.send(line("4 name")).unwrap();
        out.wait_for("=4 Otrera\n\n");
        tx.send(Input::Eof).unwrap();
        handle.join().unwrap();
        let text = out.text();
        let (stream, rest) = text.split_once("\n\n").unwrap();
        assert_eq!(rest, "=4 Otrera\n\n");
        let mut lines = stream.lines();
        assert_eq!(lines.next(), Some("=3"));
        for l in lines {
            let words: Vec<&str> = l.split(' ').collect();
            assert_eq!(words.len(), 13, "one block per line with maxmoves 1: {l}");
            assert_eq!(
                [words[0], words[1], words[2], words[3], words[5], words[6]],
                ["info", "move", &first, "visits", "winrate", "0.5000"]
            );
            assert_eq!(&words[7..], ["prior", "0.2500", "order", "0", "pv", &first]);
        }
        let limits = &seen.lock()[0];
        assert_eq!(limits.report_interval, Some(Duration::from_millis(10)));
        assert_eq!(
            (limits.soft, limits.hard, limits.playouts),
            (None, None, None)
        );
    }

    #[test]
    fn genmove_gets_the_clock_budget_and_quit_stops_it() {
        let Running {
            input: tx,
            out,
            seen,
            handle,
        } = start(Settings::default());
        tx.send(line("time_settings 0 1 1")).unwrap();
        tx.send(line("1 genmove w")).unwrap();
        tx.send(line("2 play b a7-a6/a5")).unwrap();
        // Waits for its turn: answered after the move, and the search ran to its limit.
        out.wait_for("=2\n\n");
        assert!(
            out.text().starts_with("=\n\n=1 d1-a1/b1\n\n=2\n\n"),
            "{}",
            out.text()
        );
        let hard = seen.lock()[0].hard.unwrap();
        assert!(hard <= Duration::from_millis(855), "{hard:?}");
        // A long search (100 s a move): quit stops it at once.
        tx.send(line("time_settings 0 100 1")).unwrap();
        tx.send(line("3 genmove w")).unwrap();
        while seen.lock().len() < 2 {
            std::thread::sleep(Duration::from_millis(1));
        }
        let t = Instant::now();
        tx.send(line("4 quit")).unwrap();
        handle.join().unwrap();
        assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
        let text = out.text();
        let tail: Vec<&str> = text.trim_end().rsplitn(3, "\n\n").collect();
        assert!(tail[1].starts_with("=3 ") && tail[0] == "=4", "{text}");
    }

    #[test]
    fn pondering_runs_after_genmove_until_input() {
        let settings = Settings {
            ponder: true,
            ..Settings::default()
        };
        let Running {
            input: tx,
            out,
            seen,
            handle,
        } = start(settings);
        tx.send(line("time_settings 0 0.1 1")).unwrap();
        tx.send(line("genmove w")).unwrap();
        while seen.lock().len() < 2 {
            std::thread::sleep(Duration::from_millis(1));
        }
        // The second search is the ponder search: unbounded, on Black's turn.
        assert_eq!(seen.lock()[1], Limits::default());
        tx.send(line("7 name")).unwrap();
        out.wait_for("=7 Otrera\n\n");
        tx.send(Input::Eof).unwrap();
        handle.join().unwrap();
    }
}

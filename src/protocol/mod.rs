//! The text protocol (GTP version 2 with Amazons moves and a few conventions from other engines;
//! see `protocol.md`): the loop that reads commands, runs them through the engine facade and
//! writes the responses.
//!
//! Commands are answered strictly in order. Searches (`genmove`, `analyze`, pondering) run on a
//! scoped thread while this loop keeps reading input: lines that arrive meanwhile are queued, and
//! stop the search when it is `analyze` or pondering (any line), or when they are `quit` or the
//! end of input (which is answered right after the search returns, within milliseconds).

pub mod analyze;
pub mod command;
pub mod input;
pub mod response;

use crate::engine::{Answer, Engine};
use crate::player::SearchReport;
use crate::settings::Settings;
use command::{Action, Command};
use crossbeam::channel::{bounded, never, select, unbounded, Receiver};
use input::{Input, Line};
use response::Message;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
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
                let result = self.search(StopOn::Quit, None, move |engine, stop, report| {
                    if play {
                        engine.genmove(color, received, stop, report)
                    } else {
                        engine
                            .decide(color, received, stop, report)
                            .map(|d| d.mv.map_or(Answer::Resign, Answer::Move))
                    }
                })?;
                let (ok, text) = match result {
                    Some(Ok(Answer::Move(m))) => (true, m.to_string()),
                    Some(Ok(Answer::Resign)) => (true, "resign".to_string()),
                    Some(Err(e)) => (false, e.to_string()),
                    None => (
                        false,
                        format!("internal error while running '{}'", cmd.name),
                    ),
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
                let color = self.engine.position().side_to_move();
                let max_moves = args.max_moves;
                self.search(
                    StopOn::AnyInput,
                    Some(&move |r: &SearchReport| analyze::info_line(r, max_moves)),
                    move |engine, stop, report| engine.analyze(color, args.interval, stop, report),
                )?;
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
        self.search(StopOn::AnyInput, None, |engine, stop, _| {
            engine.ponder(stop)
        })?;
        Ok(())
    }

    /// Runs `work` on a search thread while watching the input, streaming formatted reports
    /// when `stream` is given. With [`StopOn::AnyInput`] the search lasts until a line arrives
    /// even if `work` ends sooner (an `analyze` stream ends only when the next command comes).
    /// Returns `None` if `work` panicked.
    fn search<T, W>(
        &mut self,
        stop_on: StopOn,
        stream: Option<&Formatter>,
        work: W,
    ) -> io::Result<Option<T>>
    where
        T: Send,
        W: FnOnce(&mut Engine, &AtomicBool, &mut dyn FnMut(&SearchReport)) -> T + Send,
    {
        // After the end of input every search answers at once.
        let stop = AtomicBool::new(self.eof);
        let (report_tx, report_rx) = unbounded::<SearchReport>();
        let (done_tx, done_rx) = bounded(1);
        let Session {
            engine,
            inputs,
            pending,
            eof,
            out,
        } = self;
        let mut output: io::Result<()> = Ok(());
        let mut write_report = |r: &SearchReport, output: &mut io::Result<()>| {
            if let (Some(format), Ok(())) = (stream, &*output) {
                if let Some(line) = format(r) {
                    *output = response::write(out, Message::Stream(&line));
                }
            }
        };
        let result = std::thread::scope(|s| {
            let stop = &stop;
            s.spawn(move || {
                let mut report = |r: &SearchReport| {
                    // Reports are only formatted for `analyze`; a closed channel just means the
                    // loop stopped listening.
                    let _ = report_tx.send(r.clone());
                };
                let result = catch_unwind(AssertUnwindSafe(|| work(engine, stop, &mut report)));
                let _ = done_tx.send(result.ok());
            });
            let mut result = None;
            let mut finished = false;
            loop {
                let input_rx = if *eof { never() } else { inputs.clone() };
                // With StopOn::AnyInput a finished search still waits for the next line.
                let waiting_for_input = finished && stop_on == StopOn::AnyInput;
                if finished && (!waiting_for_input || stop.load(Ordering::Relaxed) || *eof) {
                    break;
                }
                select! {
                    recv(if finished { never() } else { done_rx.clone() }) -> r => {
                        result = r.ok().flatten();
                        finished = true;
                        // Reports sent before the search ended still belong to the stream.
                        if !stop.load(Ordering::Relaxed) {
                            for r in report_rx.try_iter() {
                                write_report(&r, &mut output);
                            }
                        }
                    }
                    recv(if finished { never() } else { report_rx.clone() }) -> r => {
                        if let Ok(r) = r {
                            if !stop.load(Ordering::Relaxed) {
                                write_report(&r, &mut output);
                            }
                        }
                    }
                    recv(input_rx) -> msg => match msg {
                        Ok(Input::Line(line)) => {
                            let quit = command::parse(&line.text)
                                .is_some_and(|c| c.name == "quit" && line.too_long.is_none());
                            if quit || stop_on == StopOn::AnyInput {
                                stop.store(true, Ordering::Relaxed);
                            }
                            pending.push_back(line);
                        }
                        Ok(Input::Eof) | Err(_) => {
                            *eof = true;
                            stop.store(true, Ordering::Relaxed);
                        }
                    },
                }
                if output.is_err() {
                    // Nobody is reading: stop searching, the loop will end on the error.
                    stop.store(true, Ordering::Relaxed);
                }
            }
            result
        });
        output.map(|()| result)
    }
}

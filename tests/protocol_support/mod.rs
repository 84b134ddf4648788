//! Driving the real `otrera` binary over pipes, with timeouts so a hung engine fails a test
//! instead of hanging it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: tests must pass on a slow, loaded machine.
pub const TIMEOUT: Duration = Duration::from_secs(120);

fn spawn(args: &[&str], dir: Option<&std::path::Path>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_otrera"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    cmd.spawn().expect("cannot start the otrera binary")
}

/// Waits for `child` to exit, killing it (and failing) after [`TIMEOUT`].
pub fn wait(child: &mut Child) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("the engine did not exit within {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Feeds `input` to a fresh engine (closing stdin at the end) and returns everything it printed
/// and its exit status.
pub fn run(args: &[&str], input: &[u8]) -> (String, ExitStatus) {
    run_in(args, input, None)
}

/// [`run`] with the engine started in `dir`.
pub fn run_in(args: &[&str], input: &[u8], dir: Option<&std::path::Path>) -> (String, ExitStatus) {
    let mut child = spawn(args, dir);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from another thread: the engine may fill its stdout pipe before reading all input.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        let _ = tx.send(out);
    });
    let out = match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out,
        Err(_) => {
            let _ = child.kill();
            panic!("the engine did not finish within {TIMEOUT:?}");
        }
    };
    writer.join().unwrap();
    let status = wait(&mut child);
    (String::from_utf8(out).expect("responses are UTF-8"), status)
}

/// An engine driven one command at a time.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    /// Starts the engine with `args`.
    pub fn start(args: &[&str]) -> Session {
        Session::start_in(args, None)
    }

    /// Starts the engine with `args` in `dir`.
    pub fn start_in(args: &[&str], dir: Option<&std::path::Path>) -> Session {
        let mut child = spawn(args, dir);
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.expect("responses are UTF-8")).is_err() {
                    return;
                }
            }
        });
        Session {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next output line, or `None` once the engine closed its output.
    pub fn line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("no output from the engine within {TIMEOUT:?}")
            }
        }
    }

    /// The next response, without its ending blank line (its lines joined by `\n`).
    pub fn response(&mut self) -> String {
        let mut lines: Vec<String> = Vec::new();
        loop {
            let l = self
                .line()
                .expect("the engine closed its output mid-response");
            if l.is_empty() {
                return lines.join("\n");
            }
            lines.push(l);
        }
    }

    /// Sends a command and returns its response.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.response()
    }

    /// The text of a successful response; panics on `?`.
    pub fn ok(&mut self, line: &str) -> String {
        let r = self.ask(line);
        assert!(r.starts_with('='), "{line} failed: {r}");
        r[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string()
    }

    /// Closes stdin and waits for the engine to exit.
    pub fn close(mut self) -> ExitStatus {
        self.stdin = None;
        wait(&mut self.child)
    }

    /// Waits for the engine to exit (after `quit`).
    pub fn wait(mut self) -> ExitStatus {
        wait(&mut self.child)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

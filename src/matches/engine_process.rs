//! An engine subprocess and the GTP client that talks to it.
//!
//! Standard output is read on its own thread, which timestamps every line as it arrives and passes it
//! over a channel; the client waits on the channel with a deadline, so a hung engine never blocks
//! the runner, and a `genmove` is timed by when its answer arrived, not by when the runner got
//! round to reading it. Processes are killed when the client is dropped.

use super::engine_spec::EngineSpec;
use crossbeam::channel::{self, Receiver, RecvTimeoutError};
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line accepted from an engine; longer output is cut into pieces (and is then garbage).
const MAX_LINE: u64 = 1 << 16;

/// How often a waiting client looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// A complete GTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `=` (true) or `?` (false).
    pub success: bool,
    /// The response text after the status and id, lines joined with `\n`.
    pub text: String,
    /// When the first line of the response arrived.
    pub received: Instant,
}

/// Why no usable response came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The process ended or closed its output; the text says how.
    Exited(String),
    /// No complete response by the deadline.
    Timeout,
    /// The caller's stop flag was raised while waiting.
    Stopped,
    /// Output that is not a GTP response to the command sent.
    Protocol(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Exited(how) => write!(f, "engine {how}"),
            ClientError::Timeout => write!(f, "no answer in time"),
            ClientError::Stopped => write!(f, "stopped"),
            ClientError::Protocol(m) => write!(f, "protocol error: {m}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// What the engine says about itself during the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// Answer to `name`.
    pub name: String,
    /// Answer to `version`, if it has that command.
    pub version: Option<String>,
}

enum Event {
    Line(Instant, String),
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    next_id: u64,
    exited: bool,
}

impl EngineProcess {
    /// Starts the engine described by `spec` with piped standard input and output.
    pub fn start(spec: &EngineSpec) -> io::Result<EngineProcess> {
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &spec.stderr {
            Some(path) => {
                let f = OpenOptions::new().create(true).append(true).open(path)?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Its own process group, so that a Ctrl-C in the terminal reaches only the runner, which
        // then ends its games and engines in order instead of seeing every engine crash at once.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start '{}': {e}", spec.command_line()),
            )
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel::bounded(1024);
        thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut buf = Vec::new();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                        Ok(_) => {
                            let at = Instant::now();
                            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                                buf.pop();
                            }
                            let line = String::from_utf8_lossy(&buf).into_owned();
                            if tx.send(Event::Line(at, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            events: rx,
            next_id: 1,
            exited: false,
        })
    }

    /// Process id (for diagnostics).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command line with a fresh id; returns the id and the moment the write began.
    pub fn send(&mut self, command: &str) -> Result<(u64, Instant), ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(ClientError::Exited("has no input pipe".into()));
        };
        // Timed from before the write: the answer can arrive (and be timestamped by the reader)
        // before this thread returns from `flush`.
        let start = Instant::now();
        let written = writeln!(stdin, "{id} {command}").and_then(|_| stdin.flush());
        match written {
            Ok(()) => Ok((id, start)),
            Err(_) => {
                self.exited = true;
                Err(ClientError::Exited(self.exit_description()))
            }
        }
    }

    /// Waits for the response to command `id` until `deadline`, looking at `stop` meanwhile.
    pub fn receive(
        &mut self,
        id: u64,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Result<Reply, ClientError> {
        let mut head: Option<(bool, Instant)> = None;
        let mut lines: Vec<String> = Vec::new();
        loop {
            if stop() {
                return Err(ClientError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ClientError::Timeout);
            }
            let event = match self.events.recv_timeout((deadline - now).min(POLL)) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let (at, line) = match event {
                Event::Line(at, line) => (at, line),
                Event::Eof => {
                    self.exited = true;
                    return Err(ClientError::Exited(self.exit_description()));
                }
            };
            let blank = line.trim().is_empty();
            match head {
                // Blank lines before a response are tolerated.
                None if blank => {}
                None => {
                    let (success, text) = parse_head(&line, id)?;
                    head = Some((success, at));
                    lines.push(text);
                }
                Some((success, received)) if blank => {
                    return Ok(Reply {
                        success,
                        text: lines.join("\n"),
                        received,
                    });
                }
                Some(_) => lines.push(line),
            }
        }
    }

    /// Sends `command` and waits up to `timeout` for its response.
    pub fn command(
        &mut self,
        command: &str,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<Reply, ClientError> {
        let (id, sent) = self.send(command)?;
        self.receive(id, sent + timeout, stop)
    }

    /// Asks for `protocol_version`, `name` and `version`. The first two must succeed, and the
    /// protocol version must be 2.
    pub fn handshake(
        &mut self,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<EngineInfo, String> {
        let ask = |me: &mut Self, cmd: &str| -> Result<Reply, String> {
            me.command(cmd, timeout, stop)
                .map_err(|e| format!("'{cmd}' failed: {e}"))
        };
        let pv = ask(self, "protocol_version")?;
        if !pv.success || pv.text.trim() != "2" {
            return Err(format!(
                "'protocol_version' answered '{}{}', expected '= 2'",
                if pv.success { "= " } else { "? " },
                pv.text.trim()
            ));
        }
        let name = ask(self, "name")?;
        if !name.success || name.text.trim().is_empty() {
            return Err(format!("'name' answered '? {}'", name.text.trim()));
        }
        let version = ask(self, "version")?;
        Ok(EngineInfo {
            name: name.text.trim().to_string(),
            version: version
                .success
                .then(|| version.text.trim().to_string())
                .filter(|v| !v.is_empty()),
        })
    }

    /// Sends `quit`, waits up to `grace` for the process to exit, and kills it if it has not.
    pub fn quit(mut self, grace: Duration) {
        if !self.exited {
            let _ = self.send("quit");
        }
        // Closing its input is a second request to stop (EOF acts as quit).
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills and reaps.
    }

    /// How the process ended, waiting a little for its exit status.
    fn exit_description(&mut self) -> String {
        let end = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_status(status),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(10)),
                _ => return "closed its output".into(),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "exited".into(),
    }
}

/// Reads the first line of a response to command `id`: `=` or `?`, the id if echoed, then the text.
fn parse_head(line: &str, id: u64) -> Result<(bool, String), ClientError> {
    let garbage = || {
        let shown: String = line.chars().take(80).collect();
        ClientError::Protocol(format!("unexpected output '{shown}'"))
    };
    let success = match line.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(garbage()),
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let echoed: u64 = rest[..digits].parse().map_err(|_| garbage())?;
        if echoed != id {
            return Err(ClientError::Protocol(format!(
                "answer with id {echoed} to command {id}"
            )));
        }
    }
    let text = &rest[digits..];
    if !text.is_empty() && !text.starts_with([' ', '\t']) {
        return Err(garbage());
    }
    Ok((success, text.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_heads() {
        assert_eq!(parse_head("=3 d1-d7/g7", 3), Ok((true, "d1-d7/g7".into())));
        assert_eq!(parse_head("= 2", 7), Ok((true, "2".into())));
        assert_eq!(parse_head("=", 7), Ok((true, "".into())));
        assert_eq!(
            parse_head("?12 unknown command", 12),
            Ok((false, "unknown command".into()))
        );
        assert!(matches!(
            parse_head("=4 x", 5),
            Err(ClientError::Protocol(_))
        ));
        assert!(matches!(
            parse_head("d1-d7/g7", 5),
            Err(ClientError::Protocol(_))
        ));
        assert!(matches!(parse_head("=x", 5), Err(ClientError::Protocol(_))));
    }

    #[cfg(unix)]
    fn sh(script: &str) -> EngineProcess {
        EngineProcess::start(&EngineSpec {
            command: vec!["sh".into(), "-c".into(), script.into()],
            name: None,
            dir: None,
            stderr: None,
            control: None,
        })
        .unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn talks_to_a_shell_engine() {
        let never = || false;
        // Answers every command with "= ok", then a blank line; multi-line for "multi".
        let mut e = sh(r#"while read id cmd rest; do
                 case "$cmd" in
                   multi) printf '=%s a\nb\n\n' "$id" ;;
                   bad) printf '?%s no\n\n' "$id" ;;
                   die) exit 3 ;;
                   *) printf '=%s ok\n\n' "$id" ;;
                 esac
               done"#);
        let t = Duration::from_secs(20);
        let r = e.command("hello", t, &never).unwrap();
        assert!(r.success);
        assert_eq!(r.text, "ok");
        assert_eq!(e.command("multi", t, &never).unwrap().text, "a\nb");
        assert!(!e.command("bad", t, &never).unwrap().success);
        match e.command("die", t, &never) {
            Err(ClientError::Exited(how)) => assert!(how.contains("status 3"), "{how}"),
            other => panic!("{other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn times_out_and_stops() {
        let mut e = sh("exec sleep 30");
        let r = e.command("hello", Duration::from_millis(100), &|| false);
        assert_eq!(r, Err(ClientError::Timeout));
        let r = e.command("hello", Duration::from_secs(30), &|| true);
        assert_eq!(r, Err(ClientError::Stopped));
        // Dropping kills the process at once.
        let start = Instant::now();
        drop(e);
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn reports_a_missing_program() {
        let spec = EngineSpec::parse("/nonexistent/engine --x").unwrap();
        let err = EngineProcess::start(&spec).err().unwrap();
        assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
    }
}

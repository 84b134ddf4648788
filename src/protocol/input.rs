//! The input side: a thread reads stdin line by line and queues each line with the moment it
//! arrived, so the protocol loop can watch for the next command while a search runs, and time a
//! move from when the command was sent rather than from when its turn in the queue came.

use crossbeam::channel::{unbounded, Receiver};
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::thread;
use std::time::Instant;

/// Longest command line kept; longer lines are answered with an error (and cost no memory).
pub const MAX_LINE: usize = 64 * 1024;

/// One line of input, without its line ending.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text (invalid UTF-8 replaced), at most [`MAX_LINE`] bytes of it.
    pub text: String,
    /// When the line was read.
    pub received: Instant,
    /// The full length in bytes when it exceeded [`MAX_LINE`].
    pub too_long: Option<usize>,
}

/// What the reader thread delivers.
#[derive(Clone, Debug)]
pub enum Input {
    /// A line.
    Line(Line),
    /// End of input (or a read error): acts as `quit`.
    Eof,
}

/// Starts the reader thread on `source`; it ends after delivering [`Input::Eof`].
pub fn spawn<R: Read + Send + 'static>(source: R) -> Receiver<Input> {
    let (tx, rx) = unbounded();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut reader = BufReader::new(source);
            let mut buf = Vec::new();
            loop {
                match read_line(&mut reader, &mut buf) {
                    Ok(Some(len)) => {
                        let line = Line {
                            text: String::from_utf8_lossy(&buf).into_owned(),
                            received: Instant::now(),
                            too_long: (len > MAX_LINE).then_some(len),
                        };
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        log::warn!("reading stdin: {e}");
                        break;
                    }
                }
            }
            let _ = tx.send(Input::Eof);
        })
        .expect("cannot start the stdin reader thread");
    rx
}

/// Reads one line into `buf` (at most [`MAX_LINE`] bytes of it, without the `\n`); returns its
/// full length, or `None` at end of input. A last line without `\n` counts as a line.
fn read_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(len));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(Some(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn lines_long_lines_and_a_last_line_without_newline() {
        let long = "y".repeat(MAX_LINE + 10);
        let text = format!("a\r\n\nb c{long}\nlast");
        let mut r = BufReader::with_capacity(7, Cursor::new(text.into_bytes()));
        let mut buf = Vec::new();
        let mut got = Vec::new();
        while let Some(n) = read_line(&mut r, &mut buf).unwrap() {
            got.push((
                n,
                buf.len(),
                String::from_utf8_lossy(&buf[..buf.len().min(4)]).into_owned(),
            ));
        }
        assert_eq!(
            got,
            vec![
                (2, 2, "a\r".to_string()),
                (0, 0, String::new()),
                (MAX_LINE + 13, MAX_LINE, "b cy".to_string()),
                (4, 4, "last".to_string()),
            ]
        );
    }

    #[test]
    fn the_thread_delivers_lines_then_eof() {
        let rx = spawn(Cursor::new(b"name\n\xff\xfe bad\n".to_vec()));
        let texts: Vec<String> = rx
            .iter()
            .map(|i| match i {
                Input::Line(l) => l.text,
                Input::Eof => "<eof>".into(),
            })
            .collect();
        assert_eq!(texts, ["name", "\u{fffd}\u{fffd} bad", "<eof>"]);
    }
}

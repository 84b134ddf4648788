//! The output side: [`write`](fn@write) is the one function that puts responses on stdout, so the framing
//! (`=id text` or `?id text`, ended by one blank line, flushed) is decided in one place.

use std::io::{self, Write};

/// A response, or a piece of a streamed one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Message<'a> {
    /// A whole response: success (`=`) or failure (`?`) with its text (which may span lines;
    /// a text starting with a line break starts on the line after the `=`).
    Done {
        /// The command's id, if it had one.
        id: Option<&'a str>,
        /// Success or failure.
        ok: bool,
        /// The text.
        text: &'a str,
    },
    /// The first line of a streamed success (`analyze`): `=id` alone.
    Open {
        /// The command's id, if it had one.
        id: Option<&'a str>,
    },
    /// One line of a streamed response.
    Stream(&'a str),
    /// The blank line that ends a streamed response.
    Close,
}

/// Writes `message` and flushes. Blank lines inside a text are dropped (a blank line ends a
/// response) and carriage returns removed, whatever the text holds.
pub fn write(out: &mut dyn Write, message: Message<'_>) -> io::Result<()> {
    let mut s = String::new();
    match message {
        Message::Done { id, ok, text } => {
            s.push(if ok { '=' } else { '?' });
            s.push_str(id.unwrap_or(""));
            let body = clean(text);
            if text.starts_with('\n') {
                s.push('\n');
            } else if !body.is_empty() {
                s.push(' ');
            }
            s.push_str(&body);
            s.push_str("\n\n");
        }
        Message::Open { id } => {
            s.push('=');
            s.push_str(id.unwrap_or(""));
            s.push('\n');
        }
        Message::Stream(line) => {
            let body = clean(line);
            if body.is_empty() {
                return Ok(());
            }
            s.push_str(&body);
            s.push('\n');
        }
        Message::Close => s.push('\n'),
    }
    out.write_all(s.as_bytes())?;
    out.flush()
}

/// The text's non-blank lines, joined by `\n`, without carriage returns.
fn clean(text: &str) -> String {
    text.split('\n')
        .map(|l| l.replace('\r', ""))
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(messages: &[Message]) -> String {
        let mut out = Vec::new();
        for &m in messages {
            write(&mut out, m).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn framing() {
        let done = |id, ok, text| Message::Done { id, ok, text };
        let cases: [(&[Message], &str); 8] = [
            (&[done(None, true, "")], "=\n\n"),
            (&[done(Some("12"), true, "2")], "=12 2\n\n"),
            (
                &[done(None, false, "unknown command")],
                "? unknown command\n\n",
            ),
            (
                &[done(Some("3"), false, "bad\r\n\nthing\n")],
                "?3 bad\nthing\n\n",
            ),
            (&[done(None, true, "a\nb")], "= a\nb\n\n"),
            (&[done(None, true, "\n  a b\n1 .\n")], "=\n  a b\n1 .\n\n"),
            (
                &[
                    Message::Open { id: Some("7") },
                    Message::Stream("info x"),
                    Message::Close,
                ],
                "=7\ninfo x\n\n",
            ),
            (
                &[
                    Message::Open { id: None },
                    Message::Stream("\n\n"),
                    Message::Close,
                ],
                "=\n\n",
            ),
        ];
        for (messages, want) in cases {
            assert_eq!(render(messages), want, "{messages:?}");
        }
    }
}

//! How to start one engine: the `--engine` argument.
//!
//! Two forms are accepted:
//! - a plain command line, split like a shell: `--engine "target/release/otrera --threads 1"`;
//! - `key=value` words: `--engine "name=new dir=/tmp cmd='target/release/otrera --threads 1'"`
//!   with keys `cmd` (required; split like a shell again), `name` (shown in tables and records;
//!   default: the engine's answer to `name`), `dir` (working directory), `stderr` (a file the
//!   engine's standard error is appended to; by default it is discarded), and `tc` or `st` (this
//!   engine's own time control, in the words of `--tc` and `--st`, for time-odds matches).
//!
//! The second form is recognised when every word is `key=value` with one of those keys.

use crate::time::{read_per_move, TimeControl, TimeError};
use std::fmt;
use std::path::PathBuf;

/// A parsed `--engine` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments.
    pub command: Vec<String>,
    /// Display name chosen by the user, if any.
    pub name: Option<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// File that receives the engine's standard error (appended).
    pub stderr: Option<PathBuf>,
    /// This engine's own time control (`tc=` or `st=`), overriding the match's.
    pub control: Option<TimeControl>,
}

/// An `--engine` argument that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpecError {
    /// Unclosed quote or trailing backslash in the argument or in its `cmd=` value.
    Split,
    /// No program was given.
    NoCommand,
    /// A key was given twice.
    Repeated(String),
    /// `tc=` or `st=` cannot be read.
    Time(TimeError),
    /// Both `tc=` and `st=` were given.
    TwoControls,
}

impl fmt::Display for EngineSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpecError::Split => write!(
                f,
                "bad engine command: unclosed quote or lone trailing backslash in command line"
            ),
            EngineSpecError::NoCommand => write!(f, "bad engine command: no program given"),
            EngineSpecError::Repeated(k) => write!(f, "bad engine command: '{k}=' given twice"),
            EngineSpecError::Time(e) => write!(f, "bad engine time control: {e}"),
            EngineSpecError::TwoControls => {
                write!(f, "bad engine time control: give tc= or st=, not both")
            }
        }
    }
}

impl std::error::Error for EngineSpecError {}

const KEYS: [&str; 6] = ["cmd", "name", "dir", "stderr", "tc", "st"];

impl EngineSpec {
    /// Parses an `--engine` argument (see the module documentation).
    pub fn parse(arg: &str) -> Result<EngineSpec, EngineSpecError> {
        let words = shlex::split(arg).ok_or(EngineSpecError::Split)?;
        let keyed = !words.is_empty()
            && words
                .iter()
                .all(|w| w.split_once('=').is_some_and(|(k, _)| KEYS.contains(&k)));
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            dir: None,
            stderr: None,
            control: None,
        };
        if !keyed {
            spec.command = words;
        } else {
            let mut seen = Vec::new();
            for w in &words {
                let (k, v) = w.split_once('=').expect("checked above");
                if seen.contains(&k) {
                    return Err(EngineSpecError::Repeated(k.to_string()));
                }
                seen.push(k);
                match k {
                    "cmd" => spec.command = shlex::split(v).ok_or(EngineSpecError::Split)?,
                    "name" => spec.name = Some(v.to_string()),
                    "dir" => spec.dir = Some(PathBuf::from(v)),
                    "tc" | "st" => {
                        if spec.control.is_some() {
                            return Err(EngineSpecError::TwoControls);
                        }
                        let control = if k == "tc" {
                            v.parse()
                        } else {
                            read_per_move(v)
                        };
                        spec.control = Some(control.map_err(EngineSpecError::Time)?);
                    }
                    _ => spec.stderr = Some(PathBuf::from(v)),
                }
            }
        }
        if spec.command.first().is_none_or(|p| p.is_empty()) {
            return Err(EngineSpecError::NoCommand);
        }
        Ok(spec)
    }

    /// The command line, quoted so that it can be pasted into a shell.
    pub fn command_line(&self) -> String {
        self.command
            .iter()
            // A word with a NUL byte cannot be quoted, nor passed to a program: shown as it is.
            .map(|w| shlex::try_quote(w).unwrap_or(w.into()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_command() {
        let s = EngineSpec::parse("target/release/otrera --threads 1").unwrap();
        assert_eq!(s.command, ["target/release/otrera", "--threads", "1"]);
        assert_eq!(s.name, None);
        assert_eq!(s.dir, None);
    }

    #[test]
    fn keyed_form() {
        let s =
            EngineSpec::parse("name=new dir=/tmp cmd='prog --opt \"a b\"' stderr=err.log").unwrap();
        assert_eq!(s.command, ["prog", "--opt", "a b"]);
        assert_eq!(s.name.as_deref(), Some("new"));
        assert_eq!(s.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(s.stderr, Some(PathBuf::from("err.log")));
        assert_eq!(s.command_line(), "prog --opt 'a b'");
    }

    #[test]
    fn own_time_controls() {
        let s = EngineSpec::parse("cmd=prog st=0.25").unwrap();
        assert_eq!(s.control, read_per_move("0.25").ok());
        let s = EngineSpec::parse("cmd=prog tc=canadian:10:5:5").unwrap();
        assert_eq!(s.control, "canadian:10:5:5".parse().ok());
        assert_eq!(EngineSpec::parse("cmd=prog").unwrap().control, None);
        assert_eq!(
            EngineSpec::parse("cmd=prog tc=10 st=1"),
            Err(EngineSpecError::TwoControls)
        );
        let bad = EngineSpec::parse("cmd=prog st=-1").unwrap_err();
        assert!(
            bad.to_string()
                .starts_with("bad engine time control: bad time per move '-1'"),
            "{bad}"
        );
    }

    #[test]
    fn a_command_with_an_equals_sign_is_a_command() {
        let s = EngineSpec::parse("prog --size=8").unwrap();
        assert_eq!(s.command, ["prog", "--size=8"]);
    }

    #[test]
    fn errors() {
        assert_eq!(EngineSpec::parse("  "), Err(EngineSpecError::NoCommand));
        assert_eq!(EngineSpec::parse("name=x"), Err(EngineSpecError::NoCommand));
        assert_eq!(
            EngineSpec::parse("cmd=a cmd=b"),
            Err(EngineSpecError::Repeated("cmd".into()))
        );
        assert_eq!(EngineSpec::parse("cmd='a"), Err(EngineSpecError::Split));
        for bad in ["a 'b", "a \"b", "a \\", "cmd='a", "cmd=\"a"] {
            let e = EngineSpec::parse(bad).unwrap_err();
            assert_eq!(e, EngineSpecError::Split, "{bad}");
            assert_eq!(
                e.to_string(),
                "bad engine command: unclosed quote or lone trailing backslash in command line"
            );
        }
    }

    /// Command lines are split like a POSIX shell does (quotes and backslashes only).
    #[test]
    fn splits_like_a_shell() {
        let words = |line: &str| shlex::split(line).unwrap();
        assert_eq!(words("  a  b\tc "), ["a", "b", "c"]);
        assert_eq!(
            words("prog --opt 'a b' \"c d\""),
            ["prog", "--opt", "a b", "c d"]
        );
        assert_eq!(words(r"a\ b c"), ["a b", "c"]);
        assert_eq!(words(r#"x"y"'z' "#), ["xyz"]);
        assert_eq!(words(r#"'' "" a"#), ["", "", "a"]);
        assert_eq!(words(r#""a\"b\\c\d""#), [r#"a"b\c\d"#]);
        assert_eq!(words(r"'it\s'"), [r"it\s"]);
        assert_eq!(words("a \\\nb"), ["a", "b"]);
        assert!(words("   ").is_empty());
        // As in a shell, a word that starts with `#` begins a comment.
        assert_eq!(words("prog --x #1 2"), ["prog", "--x"]);
        // The engine command lines of docs/matches.md.
        let s = EngineSpec::parse("name=new cmd='target/release/otrera --threads 1'").unwrap();
        assert_eq!(s.command, ["target/release/otrera", "--threads", "1"]);
        let s = EngineSpec::parse("name=one cmd='otrera --player random --seed 1' st=1").unwrap();
        assert_eq!(s.command, ["otrera", "--player", "random", "--seed", "1"]);
        assert_eq!(s.name.as_deref(), Some("one"));
        let s = EngineSpec::parse("otrera --player random --seed 2").unwrap();
        assert_eq!(s.command, ["otrera", "--player", "random", "--seed", "2"]);
    }

    #[test]
    fn quoted_words_split_back() {
        for w in [
            "plain", "", "a b", "it's", "$HOME", "x\"y", "a\\b", "--size=8",
        ] {
            let quoted = shlex::try_quote(w).unwrap();
            assert_eq!(shlex::split(&quoted).unwrap(), [w], "{w}");
        }
        let s = EngineSpec {
            command: vec!["prog".into(), "a b".into(), "".into()],
            name: None,
            dir: None,
            stderr: None,
            control: None,
        };
        assert_eq!(shlex::split(&s.command_line()).unwrap(), s.command);
    }
}

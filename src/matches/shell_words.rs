//! Splitting a command line into words the way a POSIX shell does (quotes and backslashes only: no
//! variables, globs or substitutions), so `--engine "prog --opt 'a b'"` runs `prog` with two arguments.

use std::fmt;

/// A command line that cannot be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// A quote was opened and never closed.
    UnclosedQuote(char),
    /// The line ends with a lone backslash.
    TrailingBackslash,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::UnclosedQuote(q) => write!(f, "unclosed {q} quote in command line"),
            SplitError::TrailingBackslash => write!(f, "command line ends with a lone backslash"),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits `line` into words. Single quotes keep everything literally; inside double quotes a
/// backslash escapes only `"`, `\`, `$` and a backquote; outside quotes a backslash escapes any
/// character. `''` and `""` give an empty word.
pub fn split(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word is open even if still empty (after a pair of quotes).
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\\' => {
                let next = chars.next().ok_or(SplitError::TrailingBackslash)?;
                // A backslash-newline is a line continuation in a shell.
                if next != '\n' {
                    word.push(next);
                    in_word = true;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(SplitError::UnclosedQuote('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some('\n') => {}
                            Some(other) => {
                                word.push('\\');
                                word.push(other);
                            }
                            None => return Err(SplitError::UnclosedQuote('"')),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(SplitError::UnclosedQuote('"')),
                    }
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Quotes `word` so that [`split`] (or a shell) reads it back as one word.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn splits_like_a_shell() {
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
    }

    #[test]
    fn reports_errors() {
        assert_eq!(split("a 'b"), Err(SplitError::UnclosedQuote('\'')));
        assert_eq!(split("a \"b"), Err(SplitError::UnclosedQuote('"')));
        assert_eq!(split("a \\"), Err(SplitError::TrailingBackslash));
    }

    #[test]
    fn quote_round_trips() {
        for w in ["plain", "", "a b", "it's", "$HOME", "x\"y", "a\\b"] {
            assert_eq!(split(&quote(w)).unwrap(), [w], "{w}");
        }
    }
}

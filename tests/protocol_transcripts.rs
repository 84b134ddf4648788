//! Golden transcripts: every `tests/transcripts/*.txt` is replayed through the real binary, and
//! every example session in `protocol.md` must be one of those files, word for word.
//!
//! A transcript is a terminal session: an optional first line `$ otrera ARGS` gives the
//! command-line flags, lines starting with `>` are sent (the text after `> `), and all other lines
//! are the expected output, in order.

mod protocol_support;

use std::fs;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts")
}

/// (flags, input, expected output) of a transcript.
fn split(text: &str) -> (Vec<String>, String, String) {
    let (mut input, mut output) = (String::new(), String::new());
    let mut lines = text.lines().peekable();
    let mut args = Vec::new();
    if let Some(rest) = lines.peek().and_then(|l| l.strip_prefix("$ otrera")) {
        args = rest.split_whitespace().map(String::from).collect();
        lines.next();
    }
    for line in lines {
        match line.strip_prefix('>') {
            Some(rest) => {
                input.push_str(rest.strip_prefix(' ').unwrap_or(rest));
                input.push('\n');
            }
            None => {
                output.push_str(line);
                output.push('\n');
            }
        }
    }
    (args, input, output)
}

fn transcripts() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn transcripts_replay_exactly() {
    let all = transcripts();
    assert!(all.len() >= 8, "transcripts missing from {:?}", dir());
    for (name, text) in all {
        let (args, input, want) = split(&text);
        assert!(!input.is_empty() && !want.is_empty(), "{name} is empty");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (got, status) = protocol_support::run(&args, input.as_bytes());
        assert!(status.success(), "{name}: exit status {status}");
        assert_eq!(got, want, "transcript {name} differs");
    }
}

/// The blocks of protocol.md introduced by `<!-- transcript: NAME -->`.
fn documented() -> Vec<(String, String)> {
    let md = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    let mut out = Vec::new();
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .trim()
            .strip_prefix("<!-- transcript:")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let fence = lines.next().unwrap_or_default();
        assert!(
            fence.starts_with("```"),
            "transcript {name}: no code block after the marker"
        );
        let mut body = String::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push((name.trim().to_string(), body));
    }
    out
}

#[test]
fn protocol_md_examples_are_the_transcripts() {
    let docs = documented();
    assert!(
        docs.len() >= 6,
        "protocol.md shows only {} transcripts",
        docs.len()
    );
    for (name, body) in docs {
        let file = dir().join(format!("{name}.txt"));
        let text = fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("protocol.md shows transcript {name}, but {file:?}: {e}"));
        assert_eq!(body, text, "protocol.md's {name} differs from {file:?}");
    }
}

#[test]
fn protocol_md_lists_every_command_with_its_origin() {
    use otrera::protocol::command::{Origin, COMMANDS};
    let md = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    // Rows of the command table: | `name args` | origin | answer |
    let rows: Vec<(String, String)> = md
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.split([' ', '`']).next()?;
            Some((name.to_string(), cells.get(2)?.to_string()))
        })
        .collect();
    for c in COMMANDS {
        let origin = rows
            .iter()
            .find(|(n, _)| n == c.name)
            .map(|(_, o)| o.as_str())
            .unwrap_or_else(|| panic!("protocol.md's command table lacks {}", c.name));
        let ok = match c.origin {
            Origin::Gtp => origin == "GTP",
            Origin::Convention => origin.starts_with("conv."),
            Origin::Amazons => origin == "Amazons",
        };
        assert!(
            ok,
            "{}: protocol.md says {origin}, the table {:?}",
            c.name, c.origin
        );
    }
    let documented: Vec<&String> = rows
        .iter()
        .filter(|(_, o)| o == "GTP" || o == "Amazons" || o.starts_with("conv."))
        .map(|(n, _)| n)
        .collect();
    for name in documented {
        assert!(
            COMMANDS.iter().any(|c| c.name == name),
            "protocol.md documents {name}, which the engine does not know"
        );
    }
}

#[test]
fn protocol_md_lists_every_option() {
    let md = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    for o in otrera::settings::OPTIONS {
        let flag = o.name.replace('_', "-");
        let row = format!("| `{}` | `--{flag}", o.name);
        assert!(md.contains(&row), "protocol.md's option table lacks {row}");
    }
}

/// The cells of a Markdown table row, trimmed, without the outer pipes; `\|` stays inside a cell.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// (option, default) for every row of protocol.md's option table, whose header is
/// `| option | flag | values | default | meaning |`; backquotes are dropped.
fn documented_defaults(md: &str) -> Vec<(String, String)> {
    let mut lines = md.lines().skip_while(|l| !l.starts_with("| option |"));
    let header = cells(lines.next().expect("protocol.md has no option table"));
    assert_eq!(header, ["option", "flag", "values", "default", "meaning"]);
    assert!(lines.next().is_some_and(|l| l.starts_with("| ---")));
    lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c = cells(l);
            assert_eq!(c.len(), 5, "option table row {l:?}");
            (c[0].trim_matches('`').into(), c[3].trim_matches('`').into())
        })
        .collect()
}

/// What is wrong with the documented defaults against `list_options` (`= name value` lines):
/// each option's documented default must be what it lists, and every listed option documented.
fn wrong_defaults(documented: &[(String, String)], listed: &str) -> Vec<String> {
    let listed: Vec<(&str, &str)> = listed
        .trim()
        .trim_start_matches("= ")
        .lines()
        .map(|l| l.split_once(' ').unwrap_or((l, "")))
        .collect();
    let mut wrong = Vec::new();
    for (name, value) in &listed {
        match documented.iter().find(|(n, _)| n == name) {
            Some((_, d)) if d == value => {}
            Some((_, d)) => wrong.push(format!("{name}: protocol.md says {d}, the engine {value}")),
            None => wrong.push(format!("{name}: not in protocol.md's option table")),
        }
    }
    for (name, _) in documented {
        if !listed.iter().any(|(n, _)| n == name) {
            wrong.push(format!(
                "{name}: documented, but list_options does not show it"
            ));
        }
    }
    wrong
}

/// The defaults in protocol.md's option table are what `list_options` shows an engine started
/// without flags.
#[test]
fn protocol_md_option_defaults_are_the_engines() {
    let md = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    let documented = documented_defaults(&md);
    assert!(documented.len() >= 10, "{documented:?}");
    let (listed, status) = protocol_support::run(&[], b"list_options\n");
    assert!(status.success());
    assert_eq!(wrong_defaults(&documented, &listed), Vec::<String>::new());
    // A wrong default in the table is caught: the memory row's 512 made 256.
    let row = md.lines().find(|l| l.starts_with("| `memory` |")).unwrap();
    let bad = md.replace(row, &row.replacen(" | 512 | ", " | 256 | ", 1));
    assert_ne!(bad, md);
    assert_eq!(
        wrong_defaults(&documented_defaults(&bad), &listed),
        ["memory: protocol.md says 256, the engine 512"]
    );
    // So is a default in backquotes, and an option missing from the table.
    let bad = md.replace(
        "| `mcts` | what chooses the moves |",
        "| `greedy` | what chooses the moves |",
    );
    assert_eq!(
        wrong_defaults(&documented_defaults(&bad), &listed),
        ["player: protocol.md says greedy, the engine mcts"]
    );
    let bad: String = md
        .lines()
        .filter(|l| !l.starts_with("| `ponder` |"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        wrong_defaults(&documented_defaults(&bad), &listed),
        ["ponder: not in protocol.md's option table"]
    );
}

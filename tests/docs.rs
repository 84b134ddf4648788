//! The documentation cannot rot: README.md stays short, every relative link resolves, no page
//! numbers "rounds" of experiments, every protocol session shown is a replayed transcript, and
//! every command example marked `<!-- example -->` is run and its output compared.
//!
//! An example block is a fenced block right after the marker. Lines starting with
//! `$ otrera ` are commands: they run in an empty temporary folder with the built binary first
//! on `PATH`, standard input empty, and may end in the pipes `| tail -N`, `| head -N` or
//! `| grep WORD`. The lines after a command are its expected standard output, line by line, where
//! `…` stands for any text (times, rates). A command with no expected lines must just succeed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Longest README.md allowed: a newcomer reads it in ten minutes; depth goes to docs/.
const README_MAX_LINES: usize = 400;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown page of the project: README.md, protocol.md, DESIGN.md and docs/*.md.
fn pages() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["README.md", "protocol.md", "DESIGN.md"]
        .iter()
        .map(|p| root().join(p))
        .collect();
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn name(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The fenced blocks that follow a line `<!-- MARKER... -->`: (text after the marker, 1-based
/// line of the marker, body).
fn marked_blocks(text: &str, marker: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let Some(rest) = line
            .trim()
            .strip_prefix("<!-- ")
            .and_then(|r| r.strip_prefix(marker))
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let fence = lines.next().map(|(_, l)| l).unwrap_or_default();
        assert!(
            fence.starts_with("```"),
            "line {}: no code block after the marker",
            at + 1
        );
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        out.push((rest.trim().to_string(), at + 1, body));
    }
    out
}

#[test]
fn readme_is_short() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, at most {README_MAX_LINES}: move depth to docs/"
    );
}

/// GitHub's anchor for a heading: lower case, spaces to '-', other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a page, outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn links_resolve() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read(&page);
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target} (no such file)", name(&page)));
                continue;
            }
            if let Some(anchor) = anchor {
                if path.extension().is_some_and(|x| x == "md")
                    && !anchors(&read(&path)).iter().any(|a| a == anchor)
                {
                    broken.push(format!("{}: {target} (no such heading)", name(&page)));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn no_page_numbers_rounds_of_experiments() {
    const ORDINALS: [&str; 30] = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth",
        "next",
        "last",
        "previous",
        "this",
        "that",
        "earlier",
        "later",
        "same",
        "latest",
        "current",
    ];
    let mut found = Vec::new();
    for page in pages() {
        let text = read(&page).to_lowercase();
        let words: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            let numbered =
                ORDINALS.contains(&pair[0]) || pair[0].ends_with("th") && pair[0].len() > 2;
            if numbered && (pair[1] == "round" || pair[1] == "rounds") {
                found.push(format!("{}: '{} {}'", name(&page), pair[0], pair[1]));
            }
        }
    }
    assert!(
        found.is_empty(),
        "rounds of experiments mean nothing to a user; date them in docs/results.md:\n{}",
        found.join("\n")
    );
}

#[test]
fn shown_sessions_are_replayed_transcripts() {
    let mut shown = 0;
    for page in pages() {
        for (name_, line, body) in marked_blocks(&read(&page), "transcript:") {
            let file = root()
                .join("tests/transcripts")
                .join(format!("{name_}.txt"));
            let want = fs::read_to_string(&file).unwrap_or_else(|e| {
                panic!(
                    "{}:{line} shows transcript {name_}, but {}: {e}",
                    name(&page),
                    file.display()
                )
            });
            assert_eq!(
                body,
                want,
                "{}:{line}: the session differs from {}",
                name(&page),
                file.display()
            );
            shown += 1;
        }
    }
    assert!(shown >= 7, "only {shown} sessions shown in the docs");
}

/// Whether `got` matches `want`, where `…` in `want` stands for any text.
fn matches_line(want: &str, got: &str) -> bool {
    let parts: Vec<&str> = want.split('…').collect();
    if parts.len() == 1 {
        return want == got;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !got.starts_with(first) || !got[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Applies one pipe stage (`tail -N`, `head -N`, `grep WORD`) to the output lines.
fn pipe(lines: Vec<String>, stage: &[String], at: &str) -> Vec<String> {
    let count = || -> usize {
        stage
            .get(1)
            .and_then(|n| n.strip_prefix('-'))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{at}: expected `{} -N`", stage[0]))
    };
    match stage.first().map(String::as_str) {
        Some("tail") => {
            let n = count();
            lines[lines.len().saturating_sub(n)..].to_vec()
        }
        Some("head") => lines.into_iter().take(count()).collect(),
        Some("grep") if stage.len() == 2 => lines
            .into_iter()
            .filter(|l| l.contains(&stage[1]))
            .collect(),
        _ => panic!("{at}: only `| tail -N`, `| head -N` and `| grep WORD` are understood"),
    }
}

/// Runs one example command line and returns its (piped) standard output lines.
fn run_example(command: &str, dir: &Path, at: &str) -> Vec<String> {
    let words = shlex::split(command).unwrap_or_else(|| panic!("{at}: unbalanced quotes"));
    let mut stages = words.split(|w| w == "|");
    let argv = stages.next().unwrap();
    assert_eq!(argv[0], "otrera", "{at}: examples run otrera");
    let bin = Path::new(env!("CARGO_BIN_EXE_otrera"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new(bin)
        .args(&argv[1..])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{at}: {e}"));
    assert!(
        out.status.success(),
        "{at}: `{command}` exited with {}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    for stage in stages {
        lines = pipe(lines, stage, at);
    }
    lines
}

#[test]
fn examples_run_as_shown() {
    let mut run = 0;
    for page in pages() {
        for (_, line, body) in marked_blocks(&read(&page), "example") {
            let at = format!("{}:{line}", name(&page));
            let dir = std::env::temp_dir().join(format!(
                "otrera-docs-{}-{}-{line}",
                std::process::id(),
                name(&page).replace('/', "-")
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            // (command, expected lines) pairs, in order.
            let mut steps: Vec<(String, Vec<String>)> = Vec::new();
            for l in body.lines() {
                if let Some(cmd) = l.strip_prefix("$ ") {
                    steps.push((cmd.to_string(), Vec::new()));
                } else {
                    let step = steps
                        .last_mut()
                        .unwrap_or_else(|| panic!("{at}: output before any `$ ` command"));
                    step.1.push(l.to_string());
                }
            }
            assert!(!steps.is_empty(), "{at}: an example without a command");
            for (cmd, want) in steps {
                let got = run_example(&cmd, &dir, &at);
                if want.is_empty() {
                    continue;
                }
                let same = got.len() == want.len()
                    && want.iter().zip(&got).all(|(w, g)| matches_line(w, g));
                assert!(
                    same,
                    "{at}: `{cmd}` printed\n{}\nbut the page shows\n{}",
                    got.join("\n"),
                    want.join("\n")
                );
            }
            let _ = fs::remove_dir_all(&dir);
            run += 1;
        }
    }
    assert!(run >= 5, "only {run} examples in the docs");
}

#[test]
fn wildcards_match_as_documented() {
    assert!(matches_line("a … b", "a 1.5 s b"));
    assert!(matches_line("…", ""));
    assert!(matches_line("in …s, 12 nodes", "in 0.01s, 12 nodes"));
    assert!(!matches_line("in …s, 12 nodes", "in 0.01s, 13 nodes"));
    assert!(!matches_line("x…x", "x"));
    assert!(matches_line("plain", "plain"));
    assert!(!matches_line("plain", "plain "));
}

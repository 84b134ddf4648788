//! Fuzzing the protocol through the real binary: thousands of random, plausible and mutated
//! command lines (seeded, so a failure reproduces), each of which must get exactly one `=` or `?`
//! response with its id, in order, after which the engine must still answer and exit cleanly.

mod protocol_support;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Names no command has (they must get `? unknown command`).
const UNKNOWN_NAMES: &[&str] = &["pass", "help", "genmove_black"];

/// Table commands the fuzzer leaves out: `quit` ends the session, and `solve` takes a time budget
/// that random numbers would make long.
const LEFT_OUT: &[&str] = &["quit", "solve"];

/// Every command of the protocol's table (but [`LEFT_OUT`]), and a few unknown names.
fn names() -> Vec<&'static str> {
    otrera::protocol::command::COMMANDS
        .iter()
        .map(|s| s.name)
        .filter(|n| !LEFT_OUT.contains(n))
        .chain(UNKNOWN_NAMES.iter().copied())
        .collect()
}
const COLORS: &[&str] = &["w", "b", "white", "black", "W", "BLACK", "x", "", "wb"];
const MOVES: &[&str] = &[
    "d1-d7/g7",
    "D1-D7-G7",
    "a4-a5/a6",
    "g1-g3xg5",
    "j4-j5(j6)",
    "d1d7g7",
    "a7-a5/a6",
    "d10-d8/d9",
    "a1-a2/a3",
    "a4-b5/c6",
    "z9-z9/z9",
    "d1-d7",
    "d1-d7/",
    "-/",
    "pass",
    "resign",
    "a11-a12/a13",
    "j4-i4/h4",
    "c1-c6/f3",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "6",
    "8",
    "10",
    "11",
    "-1",
    "1.5",
    "99999999999999999999999",
    "nan",
    "inf",
    "-inf",
    "1e300",
    "0x10",
    "",
    "60",
    "300",
];
const WORDS: &[&str] = &[
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "fischer",
    "threads",
    "memory",
    "playouts",
    "resign",
    "seed",
    "move_overhead",
    "ponder",
    "on",
    "off",
    "Amazons",
    "Go",
    "interval",
    "maxmoves",
    "random",
    "0.3",
    "3B/4/4/W3",
    "w",
    "b",
    "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3",
];

fn pick<'a>(rng: &mut StdRng, pool: &[&'a str]) -> &'a str {
    pool.choose(rng).unwrap()
}

/// A plausible command: a known name with arguments from fitting pools.
fn plausible(rng: &mut StdRng) -> String {
    let name = pick(rng, &names());
    let mut words = vec![name.to_string()];
    let nargs = rng.gen_range(0..5);
    for _ in 0..nargs {
        let pool = match rng.gen_range(0..4) {
            0 => COLORS,
            1 => MOVES,
            2 => NUMBERS,
            _ => WORDS,
        };
        words.push(pick(rng, pool).to_string());
    }
    // Shapes that make sense often enough to change the game state.
    match rng.gen_range(0..10) {
        0 => format!("play {} {}", pick(rng, COLORS), pick(rng, MOVES)),
        1 => format!("genmove {}", pick(rng, COLORS)),
        2 => format!("boardsize {}", rng.gen_range(4..12)),
        3 => format!("perft {}", rng.gen_range(0..3)),
        4 => format!(
            "time_settings {} {} {}",
            pick(rng, NUMBERS),
            pick(rng, NUMBERS),
            pick(rng, NUMBERS)
        ),
        5 => format!("set_position {} {}", pick(rng, WORDS), pick(rng, COLORS)),
        _ => words.join(" "),
    }
}

/// Byte-level damage: insertions (control characters, tabs, `#`, non-ASCII and invalid UTF-8),
/// deletions, duplications, case changes, truncation.
fn mutate(rng: &mut StdRng, line: &str) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..4) {
        let at = rng.gen_range(0..=b.len());
        match rng.gen_range(0..7) {
            0 => {
                let junk: &[&[u8]] = &[
                    b"\t",
                    b"\r",
                    b"#",
                    b"\x00",
                    b"\x1b[2J",
                    "é".as_bytes(),
                    b"\xff",
                    b" ",
                    b"\x7f",
                ];
                let j = junk.choose(rng).unwrap();
                b.splice(at..at, j.iter().copied());
            }
            1 if !b.is_empty() => {
                let end = (at + rng.gen_range(1..6)).min(b.len());
                let at = at.min(end);
                b.drain(at..end);
            }
            2 => {
                let copy = b.clone();
                b.extend_from_slice(b" ");
                b.extend_from_slice(&copy);
            }
            3 => b.make_ascii_uppercase(),
            4 => b.truncate(at),
            5 => b.insert(at, rng.gen_range(0x20..0x7f)),
            _ => {
                let n = rng.gen_range(1..40);
                b.splice(at..at, (0..n).map(|_| rng.gen::<u8>()));
            }
        }
    }
    b
}

/// The command name the engine will see (after its id), roughly as the engine cleans lines.
fn command_name(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text: String = text
        .split('#')
        .next()
        .unwrap()
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect();
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn allowed(line: &[u8]) -> bool {
    let name = command_name(line);
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    // Not `quit`; no files written or read; keep the random player (others take seconds a move).
    !(name == "quit"
        || (name == "printsgf" || name == "loadsgf")
        || (name == "set_option" && text.contains("player"))
        || (name == "perft"
            && !text
                .split_whitespace()
                .nth(1)
                .is_some_and(|d| d.len() == 1 && d < "3")))
}

#[test]
fn random_and_mutated_command_lines() {
    let mut rng = StdRng::seed_from_u64(20_261_130);
    let mut input = Vec::new();
    let mut count = 0usize;
    while count < 4000 {
        let base = plausible(&mut rng);
        let body = match rng.gen_range(0..3) {
            0 => base.into_bytes(),
            1 => mutate(&mut rng, &base),
            _ => (0..rng.gen_range(0..60)).map(|_| rng.gen::<u8>()).collect(),
        };
        let mut body: Vec<u8> = body
            .into_iter()
            .map(|c| if c == b'\n' { b' ' } else { c })
            .collect();
        if !allowed(&body) {
            continue;
        }
        count += 1;
        // Every line gets an id, so even an empty or comment-only body is a command to answer.
        let mut line = format!("{count} ").into_bytes();
        line.append(&mut body);
        line.push(b'\n');
        input.extend_from_slice(&line);
    }
    input.extend_from_slice(format!("{} name\n", count + 1).as_bytes());
    let (out, status) = protocol_support::run(&["--player", "random", "--seed", "1"], &input);
    assert!(status.success(), "exit status {status}");
    let responses: Vec<&str> = out
        .strip_suffix("\n\n")
        .unwrap_or(&out)
        .split("\n\n")
        .collect();
    assert_eq!(responses.len(), count + 1, "one response per line");
    for (i, r) in responses.iter().enumerate() {
        let id = (i + 1).to_string();
        let head = r.split([' ', '\n']).next().unwrap();
        assert!(
            head == format!("={id}") || head == format!("?{id}"),
            "response {id} is {r:?}"
        );
    }
    assert_eq!(responses[count], format!("={} Otrera", count + 1));
    let failures = responses.iter().filter(|r| r.starts_with('?')).count();
    // The mix must exercise both paths.
    assert!(
        failures > count / 4 && failures < count,
        "{failures} failures of {count}"
    );
}

//! The match runner end to end: the built `otrera match` against the fake engine of
//! `tests/fixtures/fake_engine.rs`, which plays random moves and can be told to misbehave. Limits are generous; the only timing that matters is an engine sleeping far longer
//! than its clock allows.

mod cli_support;

use cli_support::{scratch, text};
use otrera::sgf;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

/// `word` quoted for an `--engine` command line.
fn quote(word: &str) -> String {
    shlex::try_quote(word).unwrap().into_owned()
}

/// The fake engine: the example `fake_engine`, which `cargo test` builds beside this test's
/// directory (`target/<profile>/examples`).
fn fake_engine() -> String {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .join("examples")
        .join(format!("fake_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it; alone, build it with \
         `cargo build --release --example fake_engine`",
        path.display()
    );
    quote(path.to_str().unwrap())
}

fn engine(args: &str) -> String {
    format!("{} {args}", fake_engine())
}

/// `otrera match` with `args`.
fn otrera(args: &[&str]) -> Output {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    cli_support::otrera(&all)
}

/// A match between the engines `a` and `b` (`--engine` specs) with the other options `rest`.
fn play(a: &str, b: &str, rest: &[&str]) -> Output {
    let mut args = vec!["--engine", a, "--engine", b];
    args.extend_from_slice(rest);
    otrera(&args)
}

/// The value of `"key":"..."` in a JSON line written by the runner (values have no escapes here).
fn json_field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("\"{key}\":\"")).unwrap() + key.len() + 4;
    let end = start + line[start..].find('"').unwrap();
    &line[start..end]
}

#[test]
fn plays_a_match_and_writes_records() {
    let dir = scratch("records");
    let sgf_dir = dir.join("sgf");
    let jsonl = dir.join("games.jsonl");
    let (a, b) = (engine("--seed 1"), engine("--seed 2"));
    let out = play(
        &format!("name=alpha cmd={}", quote(&a)),
        &format!("name=beta cmd={}", quote(&b)),
        &[
            "--games",
            "6",
            "--tc",
            "30+0.5",
            "--random-plies",
            "3",
            "--concurrency",
            "2",
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
            "--jsonl",
            jsonl.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("Match alpha vs beta: 6 games on 10x10"),
        "{stdout}"
    );
    assert!(stdout.contains("Ends: 6 out of moves"), "{stdout}");
    assert!(stdout.contains("Elo difference alpha - beta"), "{stdout}");
    assert!(stdout.contains("Forfeits by alpha: none"), "{stdout}");
    let lines: Vec<String> = fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 7);
    assert!(lines[6].starts_with("{\"type\":\"summary\""));
    for line in &lines[..6] {
        let game: usize = line["{\"type\":\"game\",\"game\":".len()..]
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let record = fs::read_to_string(sgf_dir.join(format!("game-{game:05}.sgf"))).unwrap();
        let loaded = sgf::parse(&record).unwrap();
        // The record holds the whole game: it ends with the loser out of moves.
        let end = loaded.game.position();
        assert!(!end.has_legal_move(), "game {game}");
        let winner = if end.side_to_move() == otrera::Color::White {
            "B+"
        } else {
            "W+"
        };
        // With the exact margin from the endgame solver: W+5 is White with 5 moves to spare.
        let result = otrera::endgame::final_score(end).to_string();
        assert!(result.starts_with(winner), "{result}");
        assert_eq!(loaded.info.result.as_deref(), Some(result.as_str()));
        assert_eq!(json_field(line, "result"), result);
        assert_eq!(json_field(line, "termination"), "normal");
        let moves = json_field(line, "moves").split(' ').count();
        assert_eq!(loaded.game.moves().len(), moves);
        // Pairs share the opening with colours swapped.
        let white = json_field(line, "white");
        assert_eq!(white, if game % 2 == 1 { "alpha" } else { "beta" });
        assert_eq!(loaded.info.white.as_deref(), Some(white));
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Plays two games between a well-behaved engine and one that misbehaves as `kind`; the
/// misbehaving one must lose both, for the expected reason.
fn forfeits(kind: &str, extra: &[&str], termination: &str, reason: &str) {
    let dir = scratch(kind);
    let jsonl = dir.join("games.jsonl");
    let bad = format!(
        "name=bad cmd={}",
        quote(&engine(&format!("--misbehave {kind} --sleep 3")))
    );
    let good = format!("name=good cmd={}", quote(&engine("--seed 5")));
    let mut args = vec![
        "--engine",
        &bad,
        "--engine",
        &good,
        "--games",
        "2",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--st") {
        args.extend_from_slice(&["--tc", "60"]);
    }
    let out = otrera(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("bad         2      0      2"),
        "{kind}:\n{stdout}"
    );
    let lines = fs::read_to_string(&jsonl).unwrap();
    let games: Vec<&str> = lines.lines().take(2).collect();
    for g in games {
        assert_eq!(json_field(g, "winner"), "good", "{kind}: {g}");
        assert_eq!(json_field(g, "termination"), termination, "{kind}: {g}");
        assert!(json_field(g, "reason").contains(reason), "{kind}: {g}");
    }
    if termination != "resign" {
        assert!(
            stdout.contains(&format!("Forfeits by bad: {termination} 2")),
            "{kind}:\n{stdout}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn illegal_move_loses() {
    forfeits("illegal", &[], "illegal", "there is no amazon on");
}

#[test]
fn garbage_loses() {
    forfeits(
        "garbage",
        &[],
        "unparsable",
        "answered genmove with 'hello world'",
    );
}

#[test]
fn stray_output_loses() {
    forfeits(
        "noise",
        &[],
        "protocol",
        "unexpected output 'thinking very hard'",
    );
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    forfeits("crash", &[], "crash", "exited with status 3");
}

#[test]
fn hang_loses() {
    forfeits(
        "hang",
        &["--st", "0.2", "--hang-timeout", "1"],
        "hang",
        "did not answer genmove",
    );
}

#[test]
fn overrun_loses() {
    // Sleeps 3 s with 0.2 s per move; it answers within the hang limit, so this is an overrun.
    forfeits(
        "slow",
        &["--st", "0.2", "--hang-timeout", "30"],
        "time",
        "lost on time",
    );
}

#[test]
fn refusing_genmove_loses() {
    forfeits("refuse", &[], "genmove_error", "'? cannot think'");
}

#[test]
fn rejecting_a_legal_move_loses() {
    forfeits("reject-play", &[], "protocol", "rejected 'play");
}

#[test]
fn resignation_loses() {
    forfeits("resign", &[], "resign", "resigned");
}

#[test]
fn sudden_death_clock_runs_out() {
    // Both engines think 0.4 s a move with 1 s for the game: White's third move is late.
    let dir = scratch("clock");
    let jsonl = dir.join("games.jsonl");
    let slow = engine("--think 0.4");
    let out = play(
        &slow,
        &slow,
        &[
            "--games",
            "2",
            "--tc",
            "1",
            "--margin",
            "0.1",
            "--jsonl",
            jsonl.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // Same name twice: the runner numbers them.
    assert!(stdout.contains("fake#1"), "{stdout}");
    for g in fs::read_to_string(&jsonl).unwrap().lines().take(2) {
        assert_eq!(json_field(g, "termination"), "time", "{g}");
        assert_eq!(json_field(g, "winner_color"), "black", "{g}");
        assert!(g.contains("\"plies\":4,"), "{g}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn engines_are_told_the_real_time_left() {
    let dir = scratch("time-left");
    let log = dir.join("commands.log");
    let logged = engine(&format!(
        "--think 0.02 --log {}",
        quote(log.to_str().unwrap())
    ));
    let out = play(
        &logged,
        &engine("--think 0.02"),
        &["--games", "2", "--tc", "30+0.5"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().map(|l| l.split_once(' ').unwrap().1).collect();
    assert_eq!(lines[0], "protocol_version");
    let mut genmoves = 0;
    let mut increases = 0;
    let mut last_left = f64::INFINITY;
    for (i, line) in lines.iter().enumerate() {
        if *line == "time_settings 30 0 0" {
            last_left = f64::INFINITY;
        }
        if let Some(color) = line.strip_prefix("genmove ") {
            genmoves += 1;
            let before: Vec<&str> = lines[i - 1].split(' ').collect();
            assert_eq!(&before[..2], ["time_left", color], "{}", lines[i - 1]);
            assert_eq!(before[3], "0");
            let left: f64 = before[2].parse().unwrap();
            // The first move of a game sees the full 30 s; every later one sees what is left after
            // the previous one, which cost at least its 0.02 s of thinking and earned 0.5 s.
            if last_left.is_infinite() {
                assert_eq!(left, 30.0);
            } else {
                assert!(left <= last_left + 0.481, "{left} after {last_left}");
                increases += usize::from(left > last_left);
            }
            last_left = left;
        }
    }
    assert!(genmoves > 20, "{genmoves}");
    // The increment shows: a fast engine's clock grows.
    assert!(increases > 0);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_gui_like_controller_rounds_to_whole_seconds_and_charges_its_lag() {
    // 2 s a move, reported in whole seconds; the controller charges 3 s on top of each move, so
    // even an engine answering at once is late on its first move.
    let dir = scratch("gui-clock");
    let log = dir.join("commands.log");
    let jsonl = dir.join("games.jsonl");
    let logged = engine(&format!("--log {}", quote(log.to_str().unwrap())));
    let out = play(
        &logged,
        &engine(""),
        &[
            "--games",
            "2",
            "--tc",
            "canadian:0:2:1",
            "--clock-report",
            "whole-seconds",
            "--controller-lag",
            "3000",
            "--jsonl",
            jsonl.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("time control canadian:0:2:1"), "{stdout}");
    assert!(
        stdout.contains("Controller: whole-second reports, 3000 ms lag charged per move"),
        "{stdout}"
    );
    for g in fs::read_to_string(&jsonl).unwrap().lines().take(2) {
        assert_eq!(json_field(g, "termination"), "time", "{g}");
        assert_eq!(json_field(g, "winner_color"), "black", "{g}");
        assert!(g.contains("\"plies\":0,"), "{g}");
    }
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().map(|l| l.split_once(' ').unwrap().1).collect();
    assert!(lines.contains(&"time_settings 0 2 1"), "{log}");
    assert!(lines.contains(&"time_left white 2 1"), "{log}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn each_engine_may_have_its_own_time_control() {
    let dir = scratch("odds");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let sgf_dir = dir.join("sgf");
    let jsonl = dir.join("games.jsonl");
    let spec = |name: &str, log: &PathBuf, control: &str| {
        let cmd = engine(&format!("--log {}", quote(log.to_str().unwrap())));
        format!("name={name} {control} cmd={}", quote(&cmd))
    };
    let out = play(
        &spec("quick", &log_a, "st=0.5"),
        &spec("slow", &log_b, "tc=canadian:30:5:5"),
        &[
            "--games",
            "2",
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
            "--jsonl",
            jsonl.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("time control quick st 0.5, slow canadian:30:5:5"),
        "{stdout}"
    );
    let a = fs::read_to_string(&log_a).unwrap();
    let b = fs::read_to_string(&log_b).unwrap();
    assert!(a.contains("time_settings 0 0.5 1\n"), "{a}");
    assert!(a.contains(" 0.500 1\n"), "{a}");
    assert!(b.contains("time_settings 30 5 5\n"), "{b}");
    assert!(b.contains(" 30.000 0\n"), "{b}");
    let first = fs::read_to_string(&jsonl).unwrap();
    let first = first.lines().next().unwrap();
    assert_eq!(json_field(first, "white_control"), "st 0.5");
    assert_eq!(json_field(first, "black_control"), "canadian:30:5:5");
    // With time odds the record names each side's control and leaves TM and OT out.
    let record = sgf::parse(&fs::read_to_string(sgf_dir.join("game-00001.sgf")).unwrap()).unwrap();
    let comment = record.info.comment.unwrap();
    assert!(
        comment.ends_with("time control White st 0.5, Black canadian:30:5:5"),
        "{comment}"
    );
    assert_eq!(record.info.time_control, None);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn records_carry_main_time_and_overtime() {
    let dir = scratch("ot");
    let sgf_dir = dir.join("sgf");
    let out = play(
        &engine("--seed 1"),
        &engine("--seed 2"),
        &[
            "--games",
            "1",
            "--tc",
            "canadian:60:10:5",
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let text = fs::read_to_string(sgf_dir.join("game-00001.sgf")).unwrap();
    assert!(text.contains("TM[60]OT[5/10 Canadian]"), "{text}");
    let record = sgf::parse(&text).unwrap();
    assert_eq!(record.info.time_control.as_deref(), Some("60"));
    assert_eq!(record.info.overtime.as_deref(), Some("5/10 Canadian"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn adjudication_ends_decided_games() {
    let dir = scratch("adjudicate");
    let jsonl = dir.join("games.jsonl");
    let sgf_dir = dir.join("sgf");
    let out = play(
        &engine("--seed 1"),
        &engine("--seed 2"),
        &[
            "--games",
            "8",
            "--tc",
            "60",
            "--random-plies",
            "2",
            "--adjudicate",
            "--jsonl",
            jsonl.to_str().unwrap(),
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let mut adjudicated = 0;
    for line in fs::read_to_string(&jsonl).unwrap().lines().take(8) {
        if json_field(line, "termination") != "adjudicated" {
            continue;
        }
        adjudicated += 1;
        let game: usize = line["{\"type\":\"game\",\"game\":".len()..]
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let record = fs::read_to_string(sgf_dir.join(format!("game-{game:05}.sgf"))).unwrap();
        let end = sgf::parse(&record).unwrap().game.position().clone();
        // Stopped where the position is decided, with the solver's result and margin.
        assert!(end.has_legal_move() && otrera::regions::is_decided(&end));
        let score = otrera::endgame::final_score(&end).to_string();
        assert_eq!(json_field(line, "result"), score, "{line}");
        let winner = if score.starts_with('W') {
            "white"
        } else {
            "black"
        };
        assert_eq!(json_field(line, "winner_color"), winner);
    }
    // Random play walls the amazons off long before the end in most games.
    assert!(adjudicated > 0, "{stdout}");
    assert!(
        stdout.contains(&format!("{adjudicated} adjudicated")),
        "{stdout}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_when_decided() {
    let out = play(
        &engine("--name strong"),
        &engine("--name weak --misbehave resign"),
        &[
            "--games",
            "2000",
            "--st",
            "5",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Ended: SPRT accepted H1"), "{stdout}");
    let games: u64 = stdout
        .split("Match strong vs weak: ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(games < 1000, "{stdout}");
}

#[test]
fn openings_file_on_small_boards() {
    let dir = scratch("openings");
    let book = dir.join("book.txt");
    let sgf_dir = dir.join("sgf");
    // A position string with arrows (sent with set_position) and a move sequence (sent as plays).
    fs::write(
        &book,
        "# 6x6 openings\nBx2B1/5B/6/6/W4W/1W2W1 w\n\n1. b1-b4/c4 2. e6-e3/d3\n",
    )
    .unwrap();
    let out = play(
        &engine("--seed 3"),
        &engine("--seed 4"),
        &[
            "--games",
            "4",
            "--size",
            "6",
            "--st",
            "5",
            "--openings",
            book.to_str().unwrap(),
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("4 games on 6x6"), "{stdout}");
    let first = sgf::parse(&fs::read_to_string(sgf_dir.join("game-00001.sgf")).unwrap()).unwrap();
    assert_eq!(
        first.game.start().to_string(),
        "Bx2B1/5B/6/6/W4W/1W2W1 w",
        "the set-up start is recorded"
    );
    assert!(!first.game.position().has_legal_move());
    let third = sgf::parse(&fs::read_to_string(sgf_dir.join("game-00003.sgf")).unwrap()).unwrap();
    assert_eq!(third.game.start(), &otrera::Position::start(6).unwrap());
    assert_eq!(third.game.moves()[0].to_string(), "b1-b4/c4");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn bad_engines_and_options_are_reported() {
    let out = play("/nonexistent/engine", &engine(""), &["--st", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot start '/nonexistent/engine'"));
    let out = play(
        &engine("--misbehave bad-protocol"),
        &engine(""),
        &["--st", "1"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("expected '= 2'"),
        "{}",
        text(&out.stderr)
    );
    for args in [
        &["--engine", "a", "--engine", "b"][..],
        &["--engine", "a", "--engine", "b", "--tc", "x"],
        &["--engine", "a", "--engine", "b", "--tc", "1", "--size", "7"],
        &["--engine", "a", "--st", "1"],
        &[
            "--engine", "a", "--engine", "b", "--st", "1", "--sprt", "elo0=5", "elo1=0",
        ],
    ] {
        let out = otrera(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_and_still_summarises() {
    let child = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args([
            "match",
            "--engine",
            &engine("--think 0.05"),
            "--engine",
            &engine("--think 0.05"),
            "--games",
            "1000",
            "--st",
            "5",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once the first game has finished (not after a fixed sleep: on a loaded machine
    // start-up can take longer), and keep draining stderr so the runner never blocks on it.
    let mut child = child;
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let drain = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut all = String::new();
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if line.starts_with("game ") {
                let _ = tx.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("a first game within a minute");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    let stderr = drain.join().unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Ended: interrupted"), "{stdout}");
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

/// Asks a fresh Otrera protocol loop to load `file` and answers its `get_position`.
fn loadsgf_position(file: &std::path::Path) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!("loadsgf {}\nget_position\nquit\n", file.display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = text(&child.wait_with_output().unwrap().stdout);
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0].trim(), "=", "loadsgf: {out}");
    answers[1].trim().strip_prefix("= ").unwrap().to_string()
}

#[test]
fn otrera_plays_itself_and_its_records_load_back() {
    let dir = scratch("selfplay");
    let sgf_dir = dir.join("sgf");
    let me = quote(env!("CARGO_BIN_EXE_otrera"));
    let out = play(
        &format!("{me} --player random --seed 1"),
        &format!("{me} --player random --seed 2"),
        &[
            "--games",
            "4",
            "--tc",
            "20+0.2",
            "--random-plies",
            "2",
            "--concurrency",
            "2",
            "--sgf-out",
            sgf_dir.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("Match Otrera#1 vs Otrera#2: 4 games"),
        "{stdout}"
    );
    assert!(stdout.contains("Forfeits by Otrera#1: none"), "{stdout}");
    assert!(stdout.contains("Forfeits by Otrera#2: none"), "{stdout}");
    for game in 1..=4 {
        let file = sgf_dir.join(format!("game-{game:05}.sgf"));
        let ours = sgf::parse(&fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(loadsgf_position(&file), ours.game.position().to_string());
    }
    let _ = fs::remove_dir_all(&dir);
}

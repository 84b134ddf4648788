//! Protocol behaviour through the real binary: framing, pipelining, interruption, end of input,
//! failed commands leaving the game unchanged, game records, command-line flags.

mod protocol_support;

use protocol_support::{run, run_in, Session};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

#[test]
fn crlf_spaces_tabs_comments_and_empty_lines() {
    let input = b"name\r\n  \t protocol_version  \r\n\r\n   \n# only a comment\r\n\t3\tknown_command\tplay # c\r\nlist_games";
    let (out, status) = run(&[], input);
    assert_eq!(out, "= Otrera\n\n= 2\n\n=3 true\n\n= Amazons\n\n");
    assert!(status.success());
}

#[test]
fn end_of_input_acts_as_quit() {
    let mut s = Session::start(&[]);
    assert_eq!(s.ask("name"), "= Otrera");
    assert!(s.close().success());
}

#[test]
fn quit_is_answered_and_ends_the_process() {
    let (out, status) = run(&[], b"1 quit\nname\n");
    assert_eq!(out, "=1\n\n");
    assert!(status.success());
}

#[test]
fn pipelined_commands_are_answered_once_each_in_order() {
    let mut input = String::from("set_option player random\n");
    let n = 300;
    for i in 1..=n {
        let cmd = match i % 6 {
            0 => "genmove w",
            1 => "undo",
            2 => "time_left white 10 0",
            3 => "play w a4-a5/a6",
            4 => "get_position",
            _ => "analyze w 1",
        };
        input.push_str(&format!("{i} {cmd}\n"));
    }
    let (out, status) = run(&["--seed", "11"], input.as_bytes());
    assert!(status.success());
    let responses: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(responses.len(), n + 1, "{out}");
    for (i, r) in responses.iter().skip(1).enumerate() {
        let id = (i + 1).to_string();
        let head = r.split([' ', '\n']).next().unwrap();
        assert!(
            head == format!("={id}") || head == format!("?{id}"),
            "{i}: {r}"
        );
    }
}

#[test]
fn analyze_streams_until_the_next_command() {
    let mut s = Session::start(&["--player", "random"]);
    s.send("7 analyze w 1");
    assert_eq!(s.line().unwrap(), "=7");
    std::thread::sleep(Duration::from_millis(100));
    s.send("8 name");
    // The random player has no statistics to stream: the response ends with the blank line.
    assert_eq!(s.line().unwrap(), "");
    assert_eq!(s.response(), "=8 Otrera");
    s.send("analyze w 1");
    assert_eq!(s.line().unwrap(), "=");
    let t = Instant::now();
    s.send("quit");
    assert_eq!(s.line().unwrap(), "");
    assert_eq!(s.response(), "=");
    assert!(s.wait().success());
    assert!(t.elapsed() < Duration::from_secs(30));
}

#[test]
fn analyze_shows_the_solvers_proof() {
    // A small position White loses whatever it plays: the solver proves it (in about 100
    // nodes) before the tree search would start, and the stream says so after the info line.
    let mut s = Session::start(&["--seed", "1"]);
    assert_eq!(
        s.ask("set_position 1BWxxx/xxBxxx/BxxBxx/x2x1x/xxxWxx/1W1xxW w"),
        "="
    );
    s.send("analyze w 10");
    assert_eq!(s.line().unwrap(), "=");
    let info = s.line().unwrap();
    assert!(
        info.starts_with("info move ") && info.contains(" winrate 0.0000 "),
        "{info}"
    );
    assert_eq!(s.line().unwrap(), "solved loss");
    s.send("name");
    assert_eq!(s.line().unwrap(), "");
    assert_eq!(s.response(), "= Otrera");
    // Switched off, the same analysis has no solved line.
    assert_eq!(s.ask("set_option solver_empty 0"), "=");
    s.send("analyze w 10");
    assert_eq!(s.line().unwrap(), "=");
    let info = s.line().unwrap();
    assert!(info.starts_with("info move "), "{info}");
    s.send("name");
    loop {
        let l = s.line().unwrap();
        assert!(!l.starts_with("solved"), "{l}");
        if l.is_empty() {
            break;
        }
    }
    assert_eq!(s.response(), "= Otrera");
    assert!(s.close().success());
}

#[test]
fn end_of_input_ends_analyze() {
    let (out, status) = run(&["--player", "random"], b"analyze 5");
    assert_eq!(out, "=\n\n");
    assert!(status.success());
}

#[test]
fn quit_right_after_genmove_answers_both_in_order() {
    let (out, status) = run(
        &["--player", "random", "--seed", "2"],
        b"time_settings 0 1 1\n1 genmove w\n2 quit\n3 name\n",
    );
    assert!(status.success());
    let r: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(r.len(), 3, "{out}");
    assert!(r[1].starts_with("=1 ") && r[1].len() > 8, "{out}");
    assert_eq!(r[2], "=2");
}

#[test]
fn pondering_is_stopped_by_the_next_command() {
    let mut s = Session::start(&["--player", "random", "--ponder", "--seed", "4"]);
    assert_eq!(s.ok("get_option ponder"), "on");
    let m = s.ok("genmove w");
    assert_eq!(m.len(), 8, "{m}");
    // The engine now thinks on Black's time until this arrives.
    assert_eq!(s.ok("play b a7-a6/a5"), "");
    assert_eq!(s.ok("name"), "Otrera");
    assert!(s.close().success());
}

#[test]
fn overlong_and_binary_lines_get_errors_and_the_engine_lives() {
    let mut s = Session::start(&[]);
    let long = format!("12 play w {}\n", "a".repeat(200_000));
    s.send_raw(long.as_bytes());
    let r = s.response();
    assert!(r.starts_with("?12 line too long (200010 bytes"), "{r}");
    s.send_raw(b"\xff\xfe\x00\x01 name\n");
    assert!(s.response().starts_with("? unknown command"));
    s.send_raw(b"4 na\x00me\n");
    assert_eq!(s.response(), "=4 Otrera");
    assert!(s.close().success());
}

/// A move that is almost legal: one of its squares replaced at random.
fn mutate(mv: &str, rng: &mut StdRng, size: usize) -> String {
    let mut squares: Vec<String> = mv.split(['-', '/']).map(String::from).collect();
    let k = rng.gen_range(0..3);
    let file = (b'a' + rng.gen_range(0..size as u8)) as char;
    squares[k] = format!("{file}{}", rng.gen_range(1..=size));
    format!("{}-{}/{}", squares[0], squares[1], squares[2])
}

#[test]
fn failed_commands_leave_the_position_unchanged() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut s = Session::start(&["--player", "random", "--seed", "9"]);
    for size in [6, 10] {
        s.ok(&format!("boardsize {size}"));
        loop {
            let before = s.ok("get_position");
            let moves = s.ok("legal_moves");
            let moves: Vec<&str> = moves.split_whitespace().collect();
            let side = if before.ends_with('w') { "w" } else { "b" };
            let other = if side == "w" { "b" } else { "w" };
            let mut attempts = vec![
                format!("play {other} {}", moves.first().unwrap_or(&"a1-a2/a3")),
                "boardsize 3".to_string(),
                "set_position 3B/4/4/W3 q".to_string(),
                "loadsgf /nonexistent.sgf".to_string(),
                format!("genmove {other}"),
                "time_left w x 0".to_string(),
            ];
            for _ in 0..6 {
                let m = match moves.first() {
                    Some(m) => mutate(m, &mut rng, size),
                    None => mutate("a1-a2/a3", &mut rng, size),
                };
                if !moves.contains(&m.as_str()) {
                    attempts.push(format!("play {side} {m}"));
                }
            }
            for a in attempts {
                let r = s.ask(&a);
                assert!(r.starts_with('?'), "{a} in {before}: {r}");
                assert_eq!(s.ok("get_position"), before, "after {a}");
            }
            if moves.is_empty() {
                assert_eq!(s.ok(&format!("genmove {side}")), "resign");
                assert!(s
                    .ok("final_score")
                    .starts_with(if side == "w" { "B+" } else { "W+" }));
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            s.ok(&format!("play {side} {m}"));
        }
    }
    assert!(s.close().success());
}

#[test]
fn records_round_trip_through_files() {
    let dir = std::env::temp_dir().join(format!("otrera-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = Session::start_in(&["--player", "random", "--seed", "3"], Some(&dir));
    s.ok("boardsize 8");
    let mut positions = vec![s.ok("get_position")];
    for i in 0..6 {
        s.ok(&format!("genmove {}", if i % 2 == 0 { "w" } else { "b" }));
        positions.push(s.ok("get_position"));
    }
    s.ok("printsgf game.sgf");
    let text = std::fs::read_to_string(dir.join("game.sgf")).unwrap();
    assert!(text.starts_with("(;FF[4]GM[18]SZ[8]"), "{text}");
    assert_eq!(s.ok("printsgf"), text.trim_end());
    s.ok("clear_board");
    s.ok("loadsgf game.sgf");
    assert_eq!(s.ok("get_position"), positions[6]);
    // The position before move 3 is played.
    s.ok("loadsgf game.sgf 3");
    assert_eq!(s.ok("get_position"), positions[2]);
    s.ok("loadsgf game.sgf 99");
    assert_eq!(s.ok("get_position"), positions[6]);
    // Bad records change nothing.
    std::fs::write(dir.join("bad.sgf"), "(;GM[18]SZ[8];W[zzzzzz])").unwrap();
    std::fs::write(dir.join("go.sgf"), "(;GM[1]SZ[19])").unwrap();
    for bad in ["bad.sgf", "go.sgf", "missing.sgf", "."] {
        let r = s.ask(&format!("loadsgf {bad}"));
        assert!(r.starts_with('?'), "{bad}: {r}");
        assert_eq!(s.ok("get_position"), positions[6]);
    }
    assert!(s
        .ask("printsgf no/such/dir/x.sgf")
        .starts_with("? cannot write"));
    assert!(s.close().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flags_set_the_options() {
    let (out, status) = run(
        &[
            "--threads",
            "2",
            "--memory",
            "64",
            "--playouts",
            "500",
            "--resign",
            "off",
            "--player",
            "random",
            "--seed",
            "5",
            "--move-overhead",
            "80",
            "--ponder",
            "--weights",
            "builtin",
            "--solver-empty",
            "12",
        ],
        b"list_options\n",
    );
    assert!(status.success());
    assert_eq!(
        out,
        "= threads 2\nmemory 64\nplayouts 500\nresign off\nplayer random\nseed 5\n\
         move_overhead 80\nponder on\nweights builtin\nsolver_empty 12\n\n"
    );
    for bad in [
        &["--threads", "0"][..],
        &["--resign", "2"],
        &["--memory", "0"],
        &["--player", "deep-blue"],
        &["--solver-empty", "101"],
    ] {
        let (out, status) = run(bad, b"name\n");
        assert!(!status.success() && out.is_empty(), "{bad:?}");
    }
}

#[test]
fn runs_from_a_directory_without_files() {
    let (out, status) = run_in(&[], b"name\n", Some(&std::env::temp_dir()));
    assert_eq!(out, "= Otrera\n\n");
    assert!(status.success());
}

/// The `lag learned` seconds of a `clock` answer.
fn learned_lag(clock: &str) -> f64 {
    let words: Vec<&str> = clock.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "learned").unwrap() + 1;
    words[i].parse().unwrap()
}

#[test]
fn the_buffer_grows_when_the_controller_charges_more_than_the_engine_measured() {
    let mut s = Session::start(&["--player", "random", "--seed", "3"]);
    assert_eq!(s.ask("time_settings 60 0 0"), "=");
    assert_eq!(s.ask("time_left white 60 0"), "=");
    let before = s.ask("clock");
    assert!(
        before.ends_with("lag learned 0.000 buffer 0.050 move_overhead 0.050"),
        "{before}"
    );
    // The random player answers at once; the controller then reports 3 s gone, rounded to whole
    // seconds: at least 2 s of it are the controller's own.
    assert!(s.ask("genmove white").starts_with("= "));
    assert!(s.ask("genmove black").starts_with("= "));
    assert_eq!(s.ask("time_left white 57 0"), "=");
    let after = s.ask("clock");
    let lag = learned_lag(&after);
    assert!((1.5..=2.0).contains(&lag), "{after}");
    assert!(
        after.contains("white main 57.000 precision 1.000"),
        "{after}"
    );
    // The next moves are budgeted for it.
    let buffer: f64 = after
        .split_whitespace()
        .rev()
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(buffer, lag);
    // A new game keeps what was learned about the controller.
    assert_eq!(s.ask("clear_board"), "=");
    assert_eq!(s.ask("time_settings 30 0 0"), "=");
    assert_eq!(learned_lag(&s.ask("clock")), lag);
    assert!(s.close().success());
}

#[test]
fn exact_reports_teach_the_exact_lag() {
    let mut s = Session::start(&["--player", "random", "--seed", "3"]);
    assert_eq!(s.ask("time_settings 60 0 0"), "=");
    assert_eq!(s.ask("time_left white 60.000 0"), "=");
    assert!(s.ask("genmove white").starts_with("= "));
    assert!(s.ask("genmove black").starts_with("= "));
    assert_eq!(s.ask("time_left white 59.500 0"), "=");
    let clock = s.ask("clock");
    let lag = learned_lag(&clock);
    // 0.5 s charged, less the engine's own (short) move and 1 ms of rounding.
    assert!((0.3..0.5).contains(&lag), "{clock}");
    assert!(
        clock.contains("white main 59.500 precision 0.001"),
        "{clock}"
    );
    assert!(s.close().success());
}

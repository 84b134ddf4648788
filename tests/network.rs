//! The network evaluation end to end through the built binary: binary self-play that resumes,
//! `train --model net` writing the same bytes twice, the file played from the protocol, and bad files
//! refused with the file and the reason.

mod cli_support;

use cli_support::otrera;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

fn selfplay(out: &Path, games: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "selfplay",
        "--out",
        out.to_str().unwrap(),
        "--games",
        games,
        "--playouts",
        "40",
        "--seed",
        "3",
        "--memory",
        "16",
    ];
    args.extend_from_slice(extra);
    otrera(&args)
}

fn protocol(args: &[&str], input: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn selfplay_resumes_and_the_trained_net_plays() {
    let dir = cli_support::scratch("network");
    let full = dir.join("full.osp");
    let part = dir.join("part.osp");
    ok(&selfplay(&full, "3", &[]));
    ok(&selfplay(&part, "2", &[]));
    // An existing file is never overwritten.
    let out = selfplay(&part, "2", &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --resume"));
    // A stopped run (here: cut in the middle of its last game) resumes to the same bytes.
    let bytes = fs::read(&part).unwrap();
    fs::write(&part, &bytes[..bytes.len() - 30]).unwrap();
    ok(&selfplay(&part, "3", &["--resume"]));
    assert_eq!(fs::read(&part).unwrap(), fs::read(&full).unwrap());
    // Other settings are refused.
    let out = otrera(&[
        "selfplay",
        "--out",
        part.to_str().unwrap(),
        "--games",
        "4",
        "--playouts",
        "41",
        "--seed",
        "3",
        "--memory",
        "16",
        "--resume",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));

    let train = |out: &Path| {
        ok(&otrera(&[
            "train",
            "--model",
            "net",
            full.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--hidden",
            "4",
            "--epochs",
            "2",
            "--holdout",
            "0.34",
        ]))
    };
    let a = dir.join("a.onet");
    let b = dir.join("b.onet");
    let log = train(&a);
    assert!(log.contains("epoch   2: loss train "), "{log}");
    assert!(log.contains("linear evaluation held-out loss"), "{log}");
    train(&b);
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());

    let path = a.to_str().unwrap();
    let text = protocol(
        &["--playouts", "200"],
        &format!("set_option weights {path}\nget_option weights\ngenmove w\nquit\n"),
    );
    assert!(text.starts_with(&format!("=\n\n= {path}\n\n= ")), "{text}");

    // Bad files: refused, the file named, nothing changed.
    let cut = dir.join("cut.onet");
    fs::write(&cut, &fs::read(&a).unwrap()[..100]).unwrap();
    let cut = cut.to_str().unwrap();
    let text = protocol(
        &[],
        &format!("set_option weights {cut}\nget_option weights\nquit\n"),
    );
    assert!(
        text.starts_with(&format!(
            "? bad value for weights: weights file '{cut}': truncated: 100 bytes"
        )),
        "{text}"
    );
    assert!(text.contains("= learned"), "{text}");
    let out = otrera(&["bench", "--weights", full.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no OTRERANN magic"), "{err}");
    fs::remove_dir_all(&dir).ok();
}

/// The bar as a user meets it: a run killed (SIGKILL, no chance to tidy up) in the middle and
/// started again with the same command ends with the same bytes as a run never stopped.
#[test]
fn selfplay_killed_and_run_again_gives_the_same_bytes() {
    let dir = cli_support::scratch("network-kill");
    let full = dir.join("full.osp");
    let part = dir.join("part.osp");
    let args = |out: &Path| {
        vec![
            "selfplay".to_string(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--games".into(),
            "6".into(),
            "--playouts".into(),
            "300".into(),
            "--seed".into(),
            "11".into(),
            "--memory".into(),
            "16".into(),
            "--resume".into(),
        ]
    };
    let run = |out: &Path| {
        let status = Command::new(env!("CARGO_BIN_EXE_otrera"))
            .args(args(out))
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    };
    run(&full);
    let whole = fs::read(&full).unwrap();
    // Kill once the file holds some games but not all: watch its size grow.
    let mut child = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(args(&part))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let third = whole.len() as u64 / 3;
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none()
        && fs::metadata(&part).map_or(0, |m| m.len()) < third
        && started.elapsed() < std::time::Duration::from_secs(120)
    {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().ok();
    child.wait().unwrap();
    let cut = fs::read(&part).unwrap();
    assert!(cut.len() <= whole.len() && whole.starts_with(&cut[..cut.len().min(whole.len())]));
    run(&part);
    assert_eq!(fs::read(&part).unwrap(), whole);
    fs::remove_dir_all(&dir).ok();
}

/// `--weights FILE` on the command line: a random, a truncated and a wrong-version file stop the
/// program before it plays, with a non-zero exit and a message that names the file and the fault.
#[test]
fn bad_weights_files_are_refused_on_the_command_line() {
    let dir = cli_support::scratch("network-refusals");
    let good = fs::read("src/net/otrera.onet").unwrap();
    let random: Vec<u8> = (0..good.len() as u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
        .collect();
    let mut version = good.clone();
    version[8..12].copy_from_slice(&7u32.to_le_bytes());
    let mut flipped = good.clone();
    flipped[100] ^= 0x10;
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "random.onet",
            &random,
            "not an Otrera network file (no OTRERANN magic)",
        ),
        (
            "cut.onet",
            &good[..good.len() / 2],
            &format!(
                "truncated: {} bytes, expected {}",
                good.len() / 2,
                good.len()
            ),
        ),
        (
            "v7.onet",
            &version,
            "format version 7; this build reads version 1",
        ),
        ("flipped.onet", &flipped, "corrupt: checksum"),
        ("empty.onet", &[], "not an Otrera network file"),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let want = format!("weights file '{path}': {reason}");
        for args in [
            vec!["--weights", path],
            vec!["bench", "--weights", path],
            vec!["selfplay", "--out", "x.osp", "--weights", path],
        ] {
            let out = otrera(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{args:?} accepted");
            assert!(err.contains(&want), "{args:?}: {err}");
            assert!(out.stdout.is_empty(), "{args:?} printed");
        }
    }
    let missing = dir.join("missing.onet");
    let out = otrera(&["--weights", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(&format!("weights file '{}'", missing.display())));
    fs::remove_dir_all(&dir).ok();
}

/// `scripts/net_loop.sh` with tiny budgets: a whole generation, then the same command again
/// (everything is skipped), and shard arguments that do not fit refused.
#[test]
fn the_generation_script_runs_and_a_second_run_skips_what_is_done() {
    let dir = cli_support::scratch("net-loop");
    let run = dir.join("run");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/net_loop.sh");
    let loop_cmd = |args: &[&str]| {
        Command::new("bash")
            .arg(&script)
            .arg(&run)
            .args(args)
            .env("OTRERA", env!("CARGO_BIN_EXE_otrera"))
            .envs([
                ("GAMES", "4"),
                ("PLAYOUTS", "40"),
                ("SHARDS", "2"),
                ("EPOCHS", "1"),
                ("GATE_GAMES", "4"),
                ("GATE_SHARDS", "2"),
                ("ST", "0.05"),
                ("SEED", "5"),
                ("SPRT", "elo0=0 elo1=400"),
            ])
            .output()
            .unwrap()
    };
    let err = ok(&loop_cmd(&[]));
    let verdict = fs::read_to_string(run.join("verdict")).unwrap();
    assert!(
        ["accepted\n", "rejected\n", "undecided\n"].contains(&verdict.as_str()),
        "{verdict:?}\n{err}"
    );
    let settings = fs::read_to_string(run.join("settings")).unwrap();
    assert!(
        settings.contains("GAMES=4\n") && settings.contains("SHARDS=2\n"),
        "{settings}"
    );
    for i in 0..2 {
        assert!(run.join(format!("selfplay-{i}.done")).exists());
        assert!(run.join(format!("gate-{i}.jsonl")).exists());
    }
    let gate = fs::read_to_string(run.join("gate.txt")).unwrap();
    assert!(gate.contains("candidate vs best, 4 games"), "{gate}");
    // The candidate is a network file the engine plays with.
    let out = protocol(
        &["--weights", run.join("candidate.onet").to_str().unwrap()],
        "genmove w\nquit\n",
    );
    assert!(out.starts_with("= "), "{out}");
    let best = run.join("best.onet").exists();
    assert_eq!(best, verdict == "accepted\n");

    // Run again: nothing is played or trained again.
    let outputs = || {
        [
            "selfplay-0.osp",
            "selfplay-1.osp",
            "candidate.onet",
            "gate-0.jsonl",
        ]
        .map(|f| fs::read(run.join(f)).unwrap())
    };
    let before = outputs();
    let err = ok(&loop_cmd(&[]));
    assert!(err.contains(verdict.trim()), "{err}");
    assert!(before == outputs());

    for (step, shard) in [("selfplay", "2/2"), ("gate", "0/3"), ("selfplay", "x")] {
        let out = loop_cmd(&[step, shard]);
        assert!(!out.status.success(), "{step} {shard}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("shard '{shard}' is not I/2")),
            "{err}"
        );
    }
    let out = loop_cmd(&["fly"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown step 'fly'"));
    fs::remove_dir_all(&dir).ok();
}

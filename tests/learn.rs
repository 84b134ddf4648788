//! Self-play and training end to end through the built binary, on a tiny budget: the data file,
//! its reproducibility and shards, the reader's errors, and the byte-identical weights file with
//! only the evaluation fitted.

mod cli_support;

use cli_support::otrera;
use otrera::learn::data_file::read_file;
use otrera::learn::weights::Weights;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

fn selfplay(out: &Path, shard: &str) -> String {
    ok(&otrera(&[
        "selfplay",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "--playouts",
        "40",
        "--random-plies",
        "6",
        "--temperature-plies",
        "4",
        "--seed",
        "9",
        "--concurrency",
        "2",
        "--memory",
        "16",
        "--shard",
        shard,
    ]))
}

#[test]
fn selfplay_then_train_end_to_end() {
    let dir = cli_support::scratch("learn");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    let c = dir.join("c.jsonl");
    let progress = selfplay(&a, "0/2");
    assert!(
        progress.contains("selfplay 0/2: games 2/2, positions "),
        "{progress}"
    );
    selfplay(&b, "0/2");
    selfplay(&c, "1/2");
    // A playout budget makes the data reproducible, whatever the concurrency.
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    let ra = read_file(&a).unwrap();
    let rc = read_file(&c).unwrap();
    // Shard 0/2 plays games 0 and 2, shard 1/2 games 1 and 3.
    let games = |r: &[otrera::learn::record::Record]| {
        let mut g: Vec<u64> = r.iter().map(|x| x.game).collect();
        g.dedup();
        g
    };
    assert_eq!(games(&ra), [0, 2]);
    assert_eq!(games(&rc), [1, 3]);
    for r in &ra {
        assert!(r.ply >= 6);
        assert!(r.result == 0.0 || r.result == 1.0);
        // Every searched position records its root visits, most visited first.
        if !r.visits.is_empty() {
            assert!(r.visits.windows(2).all(|w| w[0].1 >= w[1].1));
        }
    }
    assert!(ra.iter().filter(|r| !r.visits.is_empty()).count() > 20);

    let train = |out: &Path| {
        ok(&otrera(&[
            "train",
            a.to_str().unwrap(),
            c.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--holdout",
            "0.25",
            "--seed",
            "4",
        ]))
    };
    let w1 = dir.join("w1.txt");
    let w2 = dir.join("w2.txt");
    let log = train(&w1);
    assert!(
        log.contains("evaluation: ") && log.contains("logistic loss train "),
        "{log}"
    );
    assert!(!log.contains("prior"), "{log}");
    train(&w2);
    let text = fs::read_to_string(&w1).unwrap();
    assert_eq!(text.as_bytes(), fs::read(&w2).unwrap());
    // Only the evaluation is fitted: the ordering is written as it starts (builtin).
    let w = Weights::parse(&text).unwrap();
    assert_eq!(w.ordering, Weights::builtin().ordering);
    assert_ne!(w.eval, Weights::builtin().eval);

    // The move-prior switches are gone.
    for flag in [
        "--fit",
        "--objective",
        "--rank-every",
        "--sharpen",
        "--negatives",
    ] {
        let out = otrera(&[
            "train",
            a.to_str().unwrap(),
            "--out",
            w2.to_str().unwrap(),
            flag,
            "1",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("unexpected argument"), "{flag}: {err}");
    }
    let out = otrera(&["bench", "--weights", "learned-prior"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'learned-prior'"), "{err}");

    // A cut file is rejected with its place.
    let full = fs::read_to_string(&a).unwrap();
    let cut = dir.join("cut.jsonl");
    fs::write(&cut, &full[..full.len() - 40]).unwrap();
    let out = otrera(&[
        "train",
        cut.to_str().unwrap(),
        "--out",
        w2.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let last = full.lines().count();
    assert!(err.contains(&format!("cut.jsonl:{last}: ")), "{err}");
    assert!(err.contains("truncated"), "{err}");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn learned_weights_play_from_the_protocol() {
    let out = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(["--weights", "learned", "--playouts", "200"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"get_option weights\ngenmove w\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("= learned\n\n= "), "{text}");
}

//! The network evaluation end to end through the built binary: binary self-play that resumes,
//! `train --net` writing the same bytes twice, the file played from the protocol, and bad files
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
    let full = dir.join("full.hpsp");
    let part = dir.join("part.hpsp");
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
            "--net",
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
    let a = dir.join("a.hnet");
    let b = dir.join("b.hnet");
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
    let cut = dir.join("cut.hnet");
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

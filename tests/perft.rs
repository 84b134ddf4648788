//! Perft cases kept as data (tests/data/perft.txt), checked through the library and the binary.

use otrera::perft::{divide, perft};
use otrera::Position;
use std::process::Command;

fn cases() -> Vec<(String, u32, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 3, "bad perft line: {l}");
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_data() {
    let cases = cases();
    assert!(cases.len() >= 20);
    for (fen, depth, want) in cases {
        let mut pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        let before = pos.clone();
        assert_eq!(perft(&mut pos, depth), want, "{fen} depth {depth}");
        assert_eq!(pos, before, "perft must leave the position as it found it");
        if depth >= 1 && want < 5_000_000 {
            let sum: u64 = divide(&mut pos, depth).iter().map(|(_, n)| n).sum();
            assert_eq!(sum, want, "divide {fen}");
        }
    }
}

#[test]
fn perft_from_the_binary() {
    let out = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(["perft", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.trim_end().ends_with("4307152"), "{stdout}");

    let out = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args([
            "perft",
            "1",
            "--divide",
            "--position",
            "B1xxx/xxxxx/xxxxx/xWxxx/1x1xx w",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, ["b2-a1/b2: 1", "b2-c1/b2: 1", "perft 1: 2"]);

    let out = Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(["perft", "1", "--position", "10/9 w"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("rank 1 has 9 squares but the top rank has 10"),
        "{stderr}"
    );
}

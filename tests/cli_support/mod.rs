//! Running the built `otrera` binary as a user would, for the end-to-end tests of its
//! subcommands (`match`, `selfplay`, `train`): a fresh scratch directory per test and the
//! binary's output.
#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

/// An empty directory of its own for one test (named after the test and this process).
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("otrera-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the built binary with `args` to its end.
pub fn otrera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_otrera"))
        .args(args)
        .output()
        .unwrap()
}

/// Output bytes as text, for messages and matching.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

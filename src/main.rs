//! The `otrera` binary: parses the command line and hands it to `otrera::cli`.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    otrera::cli::run(otrera::cli::Cli::parse())
}

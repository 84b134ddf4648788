//! How a subcommand ends: its exit status, with its error on stderr.

use std::process::ExitCode;

/// Exit status of a subcommand, printing its error.
pub fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("otrera: {e}");
            ExitCode::from(2)
        }
    }
}

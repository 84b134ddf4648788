//! `otrera perft`: counts move sequences (the move generator's check and benchmark).

use crate::perft::{divide, perft};
use crate::position::Position;
use std::process::ExitCode;
use std::time::Instant;

/// Flags of `otrera perft`.
#[derive(clap::Args, Clone, Debug)]
pub struct PerftArgs {
    /// Number of plies.
    pub depth: u32,
    /// Start from this position string instead of the 10x10 start.
    #[arg(long)]
    pub position: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

/// Runs `otrera perft`: the count on stdout, the time on stderr.
pub fn run(args: &PerftArgs) -> ExitCode {
    let mut pos = match args.position.as_deref().map(str::parse::<Position>) {
        None => Position::standard(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("otrera: bad --position: {e}");
            return ExitCode::from(2);
        }
    };
    let depth = args.depth;
    let start = Instant::now();
    let total = if args.divide {
        let parts = divide(&mut pos, depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} moves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    println!("perft {depth}: {total}");
    ExitCode::SUCCESS
}

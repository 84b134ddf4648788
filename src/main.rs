//! The `hippolyta` binary: command-line entry point.

use clap::{Parser, Subcommand};
use hippolyta::perft::{divide, perft};
use hippolyta::settings::SettingsArgs;
use hippolyta::{protocol, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Hippolyta, a Game of the Amazons engine. Without a subcommand it reads protocol commands
/// (GTP with Amazons moves, see protocol.md) on stdin and answers on stdout.
#[derive(Parser)]
#[command(name = "hippolyta", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: SettingsArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of a given length (move generator check and benchmark).
    Perft {
        /// Number of plies.
        depth: u32,
        /// Start from this position string instead of the 10x10 start.
        #[arg(long)]
        position: Option<String>,
        /// Print the count under each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play a match between two engines (see docs/matches.md).
    Match(Box<hippolyta::matches::MatchArgs>),
    /// Time the exact endgame solver on random one-side regions of 10, 15, 20 and 25 squares.
    EndgameBench(hippolyta::endgame::bench::BenchArgs),
    /// Play Hippolyta against itself and write training data (see docs/training.md).
    Selfplay(Box<hippolyta::learn::selfplay::SelfplayArgs>),
    /// Fit the evaluation weights to self-play data and write the weights file.
    Train(Box<hippolyta::learn::train::TrainArgs>),
    /// Serve a board in the browser: play, watch and analyse (see docs/gui.md).
    Gui(Box<hippolyta::gui::GuiArgs>),
    /// Prove who wins a position (small boards, late middle games) by proof-number search.
    Solve(hippolyta::solver::cli::SolveArgs),
    /// Search fixed positions with a fixed playout budget; prints a signature and the speed.
    Bench {
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = hippolyta::settings::parse_threads)]
        threads: usize,
        /// Playouts per position.
        #[arg(long, default_value_t = hippolyta::bench::BenchOptions::default().playouts)]
        playouts: u64,
        /// Search only this position string (e.g. the start, to measure playouts per second).
        #[arg(long)]
        position: Option<String>,
        /// Search with the hand-set or the learned weights (the signature is the default's).
        #[arg(long, value_enum, default_value_t = hippolyta::learn::selfplay::DEFAULT_WEIGHTS)]
        weights: hippolyta::learn::selfplay::WeightsChoice,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            position,
            divide: split,
        }) => run_perft(depth, position, split),
        Some(Command::Match(args)) => hippolyta::matches::run_cli(&args),
        Some(Command::Selfplay(args)) => report(
            hippolyta::learn::selfplay::run(&args, &mut std::io::stderr()).map(|s| {
                eprintln!(
                    "selfplay: {} games, {} positions in {:.1} s",
                    s.games,
                    s.positions,
                    s.elapsed.as_secs_f64()
                )
            }),
        ),
        Some(Command::Train(args)) => {
            report(hippolyta::learn::train::run(&args, &mut std::io::stderr()).map(|_| ()))
        }
        Some(Command::Gui(args)) => hippolyta::gui::run_cli(&args),
        Some(Command::EndgameBench(args)) => {
            print!("{}", hippolyta::endgame::bench::run(args.into()));
            ExitCode::SUCCESS
        }
        Some(Command::Solve(args)) => hippolyta::solver::cli::run(&args),
        Some(Command::Bench {
            threads,
            playouts,
            position,
            weights,
        }) => run_bench(threads, playouts, position, weights),
        None => run_protocol(&cli.settings),
    }
}

/// Exit status of a subcommand, printing its error.
fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hippolyta: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_protocol(args: &SettingsArgs) -> ExitCode {
    match protocol::run(args.settings()) {
        Ok(()) => ExitCode::SUCCESS,
        // The controller went away; there is nobody left to tell.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hippolyta: writing responses: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_bench(
    threads: usize,
    playouts: u64,
    position: Option<String>,
    weights: hippolyta::learn::selfplay::WeightsChoice,
) -> ExitCode {
    let position = match position.as_deref().map(str::parse::<Position>) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            eprintln!("hippolyta: bad --position: {e}");
            return ExitCode::from(2);
        }
    };
    let options = hippolyta::bench::BenchOptions {
        threads,
        playouts,
        position,
        weights,
        ..Default::default()
    };
    match hippolyta::bench::run(&options, &mut std::io::stdout().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hippolyta: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(depth: u32, position: Option<String>, split: bool) -> ExitCode {
    let mut pos = match position.as_deref().map(str::parse::<Position>) {
        None => Position::standard(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("hippolyta: bad --position: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if split {
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

//! The command line: the floor above the engine. Every subcommand has its file here, with its
//! flags (`clap`), its checks and its output; the libraries below (`solver`, `endgame`, `learn`,
//! `mcts`, `matches`, `protocol`, `gui`) take plain options and never read the command line.
//! `main.rs` parses [`Cli`] and calls [`run`].

pub mod bench;
pub mod endgame_bench;
pub mod gui;
pub mod interrupt;
pub mod matches;
pub mod perft;
pub mod selfplay;
pub mod settings_args;
pub mod solve;
pub mod status;
pub mod train;

use crate::protocol;
use clap::{Parser, Subcommand};
use settings_args::SettingsArgs;
use std::process::ExitCode;

/// Otrera, a Game of the Amazons engine. Without a subcommand it reads protocol commands
/// (GTP with Amazons moves, see protocol.md) on stdin and answers on stdout.
#[derive(Parser)]
#[command(name = "otrera", version)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: SettingsArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of a given length (move generator check and benchmark).
    Perft(perft::PerftArgs),
    /// Play a match between two engines (see docs/matches.md).
    Match(Box<matches::MatchArgs>),
    /// Time the exact endgame solver on random one-side regions of 10, 15, 20 and 25 squares.
    EndgameBench(endgame_bench::BenchArgs),
    /// Play Otrera against itself and write training data (see docs/training.md).
    Selfplay(Box<selfplay::SelfplayArgs>),
    /// Fit the evaluation to self-play data (the linear weights, or a network with `--model net`)
    /// and write its weights file.
    Train(Box<train::TrainArgs>),
    /// Serve a board in the browser: play, watch and analyse (see docs/gui.md).
    Gui(Box<gui::GuiArgs>),
    /// Prove who wins a position (small boards, late middle games) by proof-number search.
    Solve(solve::SolveArgs),
    /// Search fixed positions with a fixed playout budget; prints a signature and the speed.
    Bench(bench::BenchArgs),
}

/// Runs what the command line asks for.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Gui(args)) => gui::run(&args),
        Some(Command::EndgameBench(args)) => endgame_bench::run(args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => run_protocol(&cli.settings),
    }
}

/// The protocol loop on stdin and stdout.
fn run_protocol(args: &SettingsArgs) -> ExitCode {
    match protocol::run(args.settings()) {
        Ok(()) => ExitCode::SUCCESS,
        // The controller went away; there is nobody left to tell.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("otrera: writing responses: {e}");
            ExitCode::FAILURE
        }
    }
}

//! The engine settings as command-line flags (of the protocol loop and of `gui`). Each flag reads
//! its value with its option's parser from `settings`, so a flag and `set_option` accept the
//! same text.

use crate::learn::weights::{WeightsChoice, DEFAULT_WEIGHTS};
use crate::player_kind::PlayerKind;
use crate::settings::{
    parse_threads, Settings, DEFAULT_PLAYER, MEMORY, MOVE_OVERHEAD, PLAYOUTS, RESIGN, SOLVER_EMPTY,
};
use crate::time::DEFAULT_MOVE_OVERHEAD;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::time::Duration;

/// A flag value that may be "none"/"off" (clap gives `Option<Option<T>>` another meaning).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Flag<T>(pub Option<T>);

/// The settings as flags.
#[derive(clap::Args, Clone, Debug)]
pub struct SettingsArgs {
    /// Search threads.
    #[arg(long, default_value_t = Settings::default().threads, value_parser = parse_threads)]
    pub threads: usize,
    /// Memory for the search, in MiB: the tree and each thread's endgame table (1.4 MB), and a
    /// quarter for the whole-position solver's tables when it is on (`--solver-empty`).
    #[arg(long, value_name = "MB", default_value_t = Settings::default().memory_mb,
          value_parser = |t: &str| MEMORY.parse(t, |s| s.memory_mb))]
    pub memory: usize,
    /// Playouts per move (none or 0: no limit).
    #[arg(long, value_name = "N", value_parser = |t: &str| PLAYOUTS.parse(t, |s| Flag(s.playouts)))]
    pub playouts: Option<Flag<u64>>,
    /// Resign hopeless games: on, off, or a win-rate threshold (on = 0.05).
    #[arg(long, value_name = "on|off|THRESHOLD",
          value_parser = |t: &str| RESIGN.parse(t, |s| Flag(s.resign)))]
    pub resign: Option<Flag<f64>>,
    /// Which player chooses moves.
    #[arg(long, default_value_t = DEFAULT_PLAYER,
          value_parser = named(PlayerKind::ALL.map(|k| (k, k.name(), k.help()))))]
    pub player: PlayerKind,
    /// Seed for reproducible play.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Milliseconds kept back every move for communication delays.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_MOVE_OVERHEAD.as_millis() as u64,
          value_parser = |t: &str| MOVE_OVERHEAD.parse(t, |s| s.move_overhead.as_millis() as u64))]
    pub move_overhead: u64,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Move-ordering and evaluation weights: `builtin` (hand-set), `learned` (those of
    /// `src/learn/weights.txt`, fitted to self-play), `net` (the network built in, evaluating on
    /// top of the learned ones), or a network weights file from `otrera train --model net`.
    #[arg(long, default_value_t = DEFAULT_WEIGHTS, value_parser = weights_parser())]
    pub weights: WeightsChoice,
    /// Try the whole-position solver before searching once the regions still fought over have at
    /// most K empty squares (0: off).
    #[arg(long, value_name = "K", default_value_t = Settings::default().solver_empty,
          value_parser = |t: &str| SOLVER_EMPTY.parse(t, |s| s.solver_empty))]
    pub solver_empty: u32,
}

/// The parser of every `--weights` flag: `builtin`, `learned`, or a network weights file, which
/// is read and checked at once, so that a bad file stops the program before it plays.
pub fn weights_parser() -> impl clap::builder::TypedValueParser<Value = WeightsChoice> {
    |text: &str| text.parse::<WeightsChoice>()
}

/// A flag's parser for a library enum given as `(value, name, help)`: `--help` lists the names
/// with their help, and a name (exactly as listed) gives its value.
pub fn named<T, const N: usize>(
    values: [(T, &'static str, &'static str); N],
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static,
{
    let names = values.map(|(_, name, help)| PossibleValue::new(name).help(help));
    PossibleValuesParser::new(names).map(move |text: String| {
        values
            .iter()
            .find(|(_, name, _)| *name == text)
            .map(|(v, ..)| *v)
            .expect("clap passes only a listed name")
    })
}

impl SettingsArgs {
    /// The settings these flags give.
    pub fn settings(&self) -> Settings {
        let mut s = Settings {
            threads: self.threads,
            memory_mb: self.memory,
            player: self.player,
            seed: self.seed,
            move_overhead: Duration::from_millis(self.move_overhead),
            ponder: self.ponder,
            weights: self.weights.clone(),
            solver_empty: self.solver_empty,
            ..Settings::default()
        };
        if let Some(Flag(p)) = self.playouts {
            s.playouts = p;
        }
        if let Some(Flag(r)) = self.resign {
            s.resign = r;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        settings: SettingsArgs,
    }

    #[test]
    fn flags_read_what_set_option_reads() {
        for (flag, name, value) in [
            ("--threads", "threads", "3"),
            ("--memory", "memory", "64"),
            ("--playouts", "playouts", "none"),
            ("--resign", "resign", "0.1"),
            ("--player", "player", "greedy"),
            ("--move-overhead", "move_overhead", "70"),
            ("--weights", "weights", "builtin"),
            ("--solver-empty", "solver_empty", "12"),
        ] {
            let cli = Cli::try_parse_from(["otrera", flag, value]).unwrap();
            let mut want = Settings::default();
            want.set(name, value).unwrap();
            assert_eq!(cli.settings.settings(), want, "{flag} {value}");
        }
        let defaults = Cli::try_parse_from(["otrera"]).unwrap();
        assert_eq!(defaults.settings.settings(), Settings::default());
        assert!(Cli::try_parse_from(["otrera", "--player", "alphazero"]).is_err());
        assert!(Cli::try_parse_from(["otrera", "--threads", "0"]).is_err());
    }
}

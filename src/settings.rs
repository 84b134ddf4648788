//! Engine settings: one table of named options, set from command-line flags at start-up or with
//! `set_option NAME VALUE` at run time, and shown by `get_option` / `list_options`.

use crate::learn::weights::{WeightsChoice, DEFAULT_WEIGHTS};
use crate::player_kind::{PlayerConfig, PlayerKind};
use crate::time::DEFAULT_MOVE_OVERHEAD;
use std::fmt;
use std::time::Duration;

/// The player used when none is chosen.
pub const DEFAULT_PLAYER: PlayerKind = PlayerKind::Mcts;
/// Resign threshold used by `--resign on`: the engine's win-rate estimate below which it resigns.
pub const DEFAULT_RESIGN_THRESHOLD: f64 = 0.05;
/// Consecutive own moves with an estimate below the threshold before resigning.
pub const RESIGN_AFTER: u32 = 2;

const MAX_THREADS: usize = 512;
const MAX_MEMORY_MB: usize = 1 << 20;
const MAX_OVERHEAD_MS: u64 = 60_000;
/// Largest `solver_empty`: a 10x10 board has 92 empty squares at the start.
const MAX_SOLVER_EMPTY: u32 = 100;

/// Everything the user can set about the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// Memory for the search (the tree and every thread's endgame table), MiB.
    pub memory_mb: usize,
    /// Playouts per move (`None`: no limit; then time decides).
    pub playouts: Option<u64>,
    /// Resign when the win-rate estimate stays below this (`None`: never resign a game that still
    /// has legal moves).
    pub resign: Option<f64>,
    /// Which player chooses moves.
    pub player: PlayerKind,
    /// Seed for reproducible play (`None`: from entropy).
    pub seed: Option<u64>,
    /// Time reserved per move for communication.
    pub move_overhead: Duration,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// Hand-set or learned move-ordering and evaluation weights.
    pub weights: WeightsChoice,
    /// Try the whole-position solver once the mixed regions have at most this many empty squares
    /// (0: never; see `proof_player`).
    pub solver_empty: u32,
}

impl Default for Settings {
    fn default() -> Self {
        let p = PlayerConfig::default();
        Settings {
            threads: p.threads,
            memory_mb: p.memory_mb,
            playouts: None,
            resign: Some(DEFAULT_RESIGN_THRESHOLD),
            player: DEFAULT_PLAYER,
            seed: p.seed,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            ponder: false,
            weights: DEFAULT_WEIGHTS,
            solver_empty: p.solver_empty,
        }
    }
}

impl Settings {
    /// The resources the player is built with.
    pub fn player_config(&self) -> PlayerConfig {
        PlayerConfig {
            threads: self.threads,
            memory_mb: self.memory_mb,
            seed: self.seed,
            search: self.weights.search_params(),
            solver_empty: self.solver_empty,
        }
    }

    /// Sets option `name` from its text `value`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let option = find(name)?;
        option.set(self, value)
    }

    /// The value of option `name`, as `set` reads it.
    pub fn get(&self, name: &str) -> Result<String, OptionError> {
        Ok((find(name)?.get)(self))
    }

    /// Whether changing from `self` to `other` needs a new player.
    pub fn needs_new_player(&self, other: &Settings) -> bool {
        self.player != other.player || self.player_config() != other.player_config()
    }
}

/// One settable option: its name, what it takes, and how to read it into and out of
/// [`Settings`] (one typed parser per option, shared by `set_option` and the command-line flag).
pub struct OptionInfo {
    /// Its name in `set_option` (the flag is `--name` with `-` for `_`).
    pub name: &'static str,
    /// What values it takes (for error messages; protocol.md describes each option).
    pub values: &'static str,
    /// Reads the text of a value into the settings; `None` (and nothing changed) when it does
    /// not fit.
    store: fn(&mut Settings, &str) -> Option<()>,
    /// The current value, as `store` reads it.
    get: fn(&Settings) -> String,
    /// Why a value `store` refused does not fit, when there is more to say than `values`.
    reason: fn(&str) -> Option<String>,
}

fn no_reason(_: &str) -> Option<String> {
    None
}

/// A weights file's own error: which file, and what is wrong with it.
fn weights_reason(value: &str) -> Option<String> {
    value.parse::<WeightsChoice>().err()
}

impl OptionInfo {
    /// Sets this option from its text `value`; on error nothing changes.
    pub fn set(&self, settings: &mut Settings, value: &str) -> Result<(), OptionError> {
        let value = value.trim();
        let mut next = settings.clone();
        (self.store)(&mut next, value).ok_or_else(|| match (self.reason)(value) {
            Some(reason) => OptionError::Refused {
                name: self.name,
                reason,
            },
            None => OptionError::BadValue {
                name: self.name,
                value: value.to_string(),
                expected: self.values,
            },
        })?;
        *settings = next;
        Ok(())
    }

    /// Reads `value` as a command-line flag does: the value this option would take, or the
    /// error message.
    pub fn parse<T>(&self, value: &str, read: fn(&Settings) -> T) -> Result<T, String> {
        let mut s = Settings::default();
        self.set(&mut s, value).map_err(|e| e.to_string())?;
        Ok(read(&s))
    }
}

impl fmt::Debug for OptionInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptionInfo")
            .field("name", &self.name)
            .field("values", &self.values)
            .finish()
    }
}

/// The `threads` option.
pub const THREADS: OptionInfo = OptionInfo {
    name: "threads",
    values: "an integer 1..512",
    store: |s, v| {
        s.threads = parse_in(v, 1, MAX_THREADS)?;
        Some(())
    },
    get: |s| s.threads.to_string(),
    reason: no_reason,
};

/// The `memory` option.
pub const MEMORY: OptionInfo = OptionInfo {
    name: "memory",
    values: "MiB, an integer 1..1048576",
    store: |s, v| {
        s.memory_mb = parse_in(v, 1, MAX_MEMORY_MB)?;
        Some(())
    },
    get: |s| s.memory_mb.to_string(),
    reason: no_reason,
};

/// The `playouts` option.
pub const PLAYOUTS: OptionInfo = OptionInfo {
    name: "playouts",
    values: "a positive integer, or none (0 also means none)",
    store: |s, v| {
        s.playouts = parse_playouts(v).ok()?;
        Some(())
    },
    get: |s| s.playouts.map_or("none".into(), |n| n.to_string()),
    reason: no_reason,
};

/// The `resign` option.
pub const RESIGN: OptionInfo = OptionInfo {
    name: "resign",
    values: "on, off, or a win-rate threshold 0..1",
    store: |s, v| {
        s.resign = parse_resign(v).ok()?;
        Some(())
    },
    get: |s| s.resign.map_or("off".into(), |t| t.to_string()),
    reason: no_reason,
};

/// The `player` option.
pub const PLAYER: OptionInfo = OptionInfo {
    name: "player",
    values: "a player kind",
    store: |s, v| {
        s.player = v.parse().ok()?;
        Some(())
    },
    get: |s| s.player.name().into(),
    reason: no_reason,
};

/// The `seed` option.
pub const SEED: OptionInfo = OptionInfo {
    name: "seed",
    values: "an integer 0..2^64-1, or none",
    store: |s, v| {
        s.seed = parse_seed(v).ok()?;
        Some(())
    },
    get: |s| s.seed.map_or("none".into(), |n| n.to_string()),
    reason: no_reason,
};

/// The `move_overhead` option.
pub const MOVE_OVERHEAD: OptionInfo = OptionInfo {
    name: "move_overhead",
    values: "milliseconds, an integer 0..60000",
    store: |s, v| {
        s.move_overhead = Duration::from_millis(parse_in(v, 0, MAX_OVERHEAD_MS)?);
        Some(())
    },
    get: |s| s.move_overhead.as_millis().to_string(),
    reason: no_reason,
};

/// The `ponder` option.
pub const PONDER: OptionInfo = OptionInfo {
    name: "ponder",
    values: "on or off",
    store: |s, v| {
        s.ponder = parse_switch(v)?;
        Some(())
    },
    get: |s| if s.ponder { "on" } else { "off" }.into(),
    reason: no_reason,
};

/// The `weights` option.
pub const WEIGHTS: OptionInfo = OptionInfo {
    name: "weights",
    values: WeightsChoice::VALUES,
    store: |s, v| {
        s.weights = v.parse().ok()?;
        Some(())
    },
    get: |s| s.weights.name(),
    reason: weights_reason,
};

/// The `solver_empty` option.
pub const SOLVER_EMPTY: OptionInfo = OptionInfo {
    name: "solver_empty",
    values: "an integer 0..100 (0: off)",
    store: |s, v| {
        s.solver_empty = parse_in(v, 0, MAX_SOLVER_EMPTY)?;
        Some(())
    },
    get: |s| s.solver_empty.to_string(),
    reason: no_reason,
};

/// All options, in the order `list_options` shows them.
pub const OPTIONS: &[OptionInfo] = &[
    THREADS,
    MEMORY,
    PLAYOUTS,
    RESIGN,
    PLAYER,
    SEED,
    MOVE_OVERHEAD,
    PONDER,
    WEIGHTS,
    SOLVER_EMPTY,
];

/// The names of the player kinds, as options and flags spell them.
pub fn player_names() -> Vec<String> {
    PlayerKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect()
}

fn find(name: &str) -> Result<&'static OptionInfo, OptionError> {
    let key = name.trim().to_ascii_lowercase().replace('-', "_");
    OPTIONS
        .iter()
        .find(|o| o.name == key)
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

fn parse_in<T: std::str::FromStr + PartialOrd>(text: &str, lo: T, hi: T) -> Option<T> {
    text.parse::<T>().ok().filter(|v| *v >= lo && *v <= hi)
}

fn parse_switch(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Some(true),
        "off" | "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// Reads a playout limit: a positive integer, or `none`/`0` for no limit.
pub fn parse_playouts(text: &str) -> Result<Option<u64>, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    match text.parse::<u64>() {
        Ok(0) => Ok(None),
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(format!(
            "'{text}' is not a playout count (a positive integer or none)"
        )),
    }
}

/// Reads a resign setting: `on`, `off`, or a threshold in `[0, 1)`.
pub fn parse_resign(text: &str) -> Result<Option<f64>, String> {
    match parse_switch(text) {
        Some(true) => return Ok(Some(DEFAULT_RESIGN_THRESHOLD)),
        Some(false) => return Ok(None),
        None => {}
    }
    match text.parse::<f64>() {
        Ok(t) if (0.0..1.0).contains(&t) => Ok(Some(t)),
        _ => Err(format!(
            "'{text}' is not a resign setting (on, off or a threshold from 0 to below 1)"
        )),
    }
}

/// Reads a seed: an integer, or `none` for a random one.
pub fn parse_seed(text: &str) -> Result<Option<u64>, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    text.parse::<u64>()
        .map(Some)
        .map_err(|_| format!("'{text}' is not a seed (an integer 0..2^64-1 or none)"))
}

/// Why an option could not be set or read.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value does not fit the option.
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// The value names something that cannot be used (a bad weights file).
    Refused {
        /// The option.
        name: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => {
                let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                write!(f, "unknown option '{name}' (options: {})", names.join(", "))
            }
            OptionError::BadValue { name, value, .. } if *name == "player" => write!(
                f,
                "bad value '{value}' for player (expected one of: {})",
                player_names().join(", ")
            ),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(f, "bad value '{value}' for {name} (expected {expected})"),
            OptionError::Refused { name, reason } => write!(f, "bad value for {name}: {reason}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Reads a `--threads` value (also `bench --threads`) as `set_option threads` does.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    THREADS.parse(text, |s| s.threads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_reads_back_what_was_set() {
        let cases = [
            ("threads", "4", "4"),
            ("memory", "64", "64"),
            ("playouts", "1000", "1000"),
            ("playouts", "0", "none"),
            ("playouts", "NONE", "none"),
            ("resign", "on", "0.05"),
            ("resign", "off", "off"),
            ("resign", "0.1", "0.1"),
            ("player", "RANDOM", "random"),
            ("seed", "42", "42"),
            ("seed", "none", "none"),
            ("move_overhead", "120", "120"),
            ("move-overhead", "0", "0"),
            ("ponder", "on", "on"),
            ("weights", "builtin", "builtin"),
            ("weights", "LEARNED", "learned"),
            ("Ponder", "off", "off"),
            ("solver_empty", "0", "0"),
            ("solver-empty", "30", "30"),
        ];
        for (name, value, want) in cases {
            let mut s = Settings::default();
            s.set(name, value).unwrap();
            assert_eq!(s.get(name).unwrap(), want, "{name} {value}");
        }
        assert_eq!(OPTIONS.len(), 10);
        for o in OPTIONS {
            Settings::default().get(o.name).unwrap();
        }
    }

    #[test]
    fn bad_values_change_nothing_and_say_why() {
        let cases = [
            ("threads", "0", "1..512"),
            ("threads", "513", "1..512"),
            ("threads", "two", "1..512"),
            ("memory", "0", "1..1048576"),
            ("playouts", "-3", "positive integer"),
            ("resign", "1.5", "threshold"),
            ("resign", "maybe", "threshold"),
            ("player", "alphazero", "random"),
            ("seed", "-1", "integer"),
            ("move_overhead", "60001", "0..60000"),
            ("ponder", "perhaps", "on or off"),
            (
                "weights",
                "learned-prior",
                "weights file 'learned-prior': No such file",
            ),
            ("solver_empty", "101", "0..100"),
            ("solver_empty", "-1", "0..100"),
            ("colour", "blue", "unknown option"),
        ];
        for (name, value, want) in cases {
            let mut s = Settings::default();
            let err = s.set(name, value).unwrap_err().to_string();
            assert!(err.contains(want), "{name} {value}: {err}");
            assert_eq!(s, Settings::default());
        }
    }

    #[test]
    fn player_rebuild_is_needed_only_for_player_settings() {
        let a = Settings::default();
        for (name, value, rebuild) in [
            ("threads", "3", true),
            ("memory", "100", true),
            ("seed", "5", true),
            ("playouts", "100", false),
            ("resign", "off", false),
            ("ponder", "on", false),
            ("move_overhead", "10", false),
            ("solver_empty", "0", true),
        ] {
            let mut b = a.clone();
            b.set(name, value).unwrap();
            assert_eq!(a.needs_new_player(&b), rebuild, "{name}");
        }
    }
}

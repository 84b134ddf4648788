//! The fitted parameters file (`src/learn/weights.txt`), embedded in the binary.
//!
//! Format, version 1: `#` comment lines, then `format otrera-weights 1`, then one `key value`
//! line for each of the move-ordering weights (`ordering.*`, see [`OrderingWeights`]) and the
//! evaluation weights (`eval.*`, see [`EvalParams`]), all of them, each once. `otrera train`
//! writes it with fixed formatting, so the same data and seed give the same bytes.

use super::features::{
    weight_vector, weights_from_vector, FEATURE_NAMES, NUM_BASIC_FEATURES, NUM_FEATURES,
};
use crate::eval::EvalParams;
use crate::mcts::params::OrderingWeights;
use crate::mcts::SearchParams;
use crate::net::{NetFileError, Network};
use std::fmt::{self, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

/// The first non-comment line.
pub const HEADER: &str = "format otrera-weights 1";

/// The file as built into this binary.
pub const EMBEDDED: &str = include_str!("weights.txt");

/// The evaluation weights by name, in file order.
pub const EVAL_NAMES: [&str; 11] = [
    "kappa",
    "phase_norm",
    "t1_open",
    "t2_open",
    "c1_open",
    "c2_open",
    "mobility_open",
    "mobility_threshold",
    "scale_open",
    "scale_end",
    "tempo_end",
];

/// The evaluation weights as a vector in [`EVAL_NAMES`] order.
pub fn eval_vector(p: &EvalParams) -> [f64; 11] {
    [
        p.kappa,
        p.phase_norm,
        p.t1_open,
        p.t2_open,
        p.c1_open,
        p.c2_open,
        p.mobility_open,
        p.mobility_threshold,
        p.scale_open,
        p.scale_end,
        p.tempo_end,
    ]
    .map(f64::from)
}

/// The evaluation weights from a vector in [`EVAL_NAMES`] order.
pub fn eval_from_vector(v: &[f64; 11]) -> EvalParams {
    EvalParams {
        kappa: v[0] as f32,
        phase_norm: v[1] as f32,
        t1_open: v[2] as f32,
        t2_open: v[3] as f32,
        c1_open: v[4] as f32,
        c2_open: v[5] as f32,
        mobility_open: v[6] as f32,
        mobility_threshold: v[7] as f32,
        scale_open: v[8] as f32,
        scale_end: v[9] as f32,
        tempo_end: v[10] as f32,
    }
}

/// Which weights a player uses.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightsChoice {
    /// The hand-set defaults.
    Builtin,
    /// The fitted weights embedded from `src/learn/weights.txt`.
    Learned,
    /// The network embedded from `src/net/otrera.onet`, evaluating playout cut-offs on top of
    /// the learned weights (which also order the moves).
    Net,
    /// A network weights file, read and checked when chosen, used as `Net` is.
    NetFile {
        /// The file as the user named it.
        path: PathBuf,
        /// The network it holds.
        net: Arc<Network>,
    },
}

/// The weights the engine, `bench` and `selfplay` use unless told otherwise: the learned ones,
/// which beat the hand-set ones in the gating match (docs/training.md). The network stays a
/// choice until a match says it pays (docs/network.md).
pub const DEFAULT_WEIGHTS: WeightsChoice = WeightsChoice::Learned;

impl WeightsChoice {
    /// The choices that have a name, in the order `--help` lists them.
    pub const NAMED: [WeightsChoice; 3] = [
        WeightsChoice::Builtin,
        WeightsChoice::Learned,
        WeightsChoice::Net,
    ];

    /// What `--weights` and the `weights` option take, for messages.
    pub const VALUES: &'static str = "builtin, learned, net, or a network weights file";

    /// The linear weights: the move ordering's and the evaluation's.
    pub fn weights(&self) -> Weights {
        match self {
            WeightsChoice::Builtin => Weights::builtin(),
            WeightsChoice::Learned | WeightsChoice::Net | WeightsChoice::NetFile { .. } => {
                Weights::embedded()
            }
        }
    }

    /// Search parameters with these weights (and the network, if any) and every other setting at
    /// its default.
    pub fn search_params(&self) -> SearchParams {
        let mut p = self.weights().search_params();
        match self {
            WeightsChoice::Net => p.net = Some(crate::net::embedded()),
            WeightsChoice::NetFile { net, .. } => p.net = Some(net.clone()),
            _ => {}
        }
        p
    }

    /// Its name, as options and flags spell it (a file's path as given).
    pub fn name(&self) -> String {
        match self {
            WeightsChoice::Builtin => "builtin".into(),
            WeightsChoice::Learned => "learned".into(),
            WeightsChoice::Net => "net".into(),
            WeightsChoice::NetFile { path, .. } => path.display().to_string(),
        }
    }

    /// Reads a network weights file.
    pub fn net_file(path: &Path) -> Result<WeightsChoice, NetFileError> {
        Ok(WeightsChoice::NetFile {
            path: path.to_path_buf(),
            net: Arc::new(crate::net::file::load(path)?),
        })
    }
}

impl fmt::Display for WeightsChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for WeightsChoice {
    type Err = String;

    /// A choice by name, in any case; any other text names a network weights file, which is read
    /// and checked now (the error names the file and what is wrong with it).
    fn from_str(text: &str) -> Result<WeightsChoice, String> {
        let text = text.trim();
        if let Some(c) = Self::NAMED
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text))
        {
            return Ok(c);
        }
        if text.is_empty() {
            return Err(format!("expected {}", Self::VALUES));
        }
        WeightsChoice::net_file(Path::new(text)).map_err(|e| e.to_string())
    }
}

/// A full set of learnable weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Cheap move-ordering weights (the move prior's ranking).
    pub ordering: OrderingWeights,
    /// Static evaluation weights.
    pub eval: EvalParams,
}

impl Weights {
    /// The hand-set weights of `SearchParams::default()`.
    pub fn builtin() -> Weights {
        let p = SearchParams::default();
        Weights {
            ordering: p.ordering,
            eval: p.eval,
        }
    }

    /// The weights embedded from `src/learn/weights.txt`.
    pub fn embedded() -> Weights {
        Weights::parse(EMBEDDED).expect("the embedded weights file is checked by the tests")
    }

    /// Search parameters with these weights and every other setting at its default.
    pub fn search_params(&self) -> SearchParams {
        SearchParams {
            ordering: self.ordering.clone(),
            eval: self.eval.clone(),
            ..SearchParams::default()
        }
    }

    /// The file text: `comments` (one `#` line each), the header, then every weight.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut s = String::new();
        for c in comments {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(s, "{HEADER}");
        for (name, v) in FEATURE_NAMES.iter().zip(weight_vector(&self.ordering)) {
            let _ = writeln!(s, "ordering.{name} {v:.6}");
        }
        for (name, v) in EVAL_NAMES.iter().zip(eval_vector(&self.eval)) {
            let _ = writeln!(s, "eval.{name} {v:.6}");
        }
        s
    }

    /// Reads a weights file; errors name the line.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut ordering: [Option<f64>; NUM_FEATURES] = [None; NUM_FEATURES];
        let mut eval: [Option<f64>; 11] = [None; 11];
        let mut header = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |m: String| format!("line {}: {m}", i + 1);
            if !header {
                if line != HEADER {
                    return Err(at(format!("expected \"{HEADER}\"")));
                }
                header = true;
                continue;
            }
            let (key, value) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| at("expected \"key value\"".into()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| at(format!("bad number for {key}")))?;
            let slot = if let Some(name) = key.strip_prefix("ordering.") {
                FEATURE_NAMES
                    .iter()
                    .position(|n| *n == name)
                    .map(|k| &mut ordering[k])
            } else if let Some(name) = key.strip_prefix("eval.") {
                EVAL_NAMES
                    .iter()
                    .position(|n| *n == name)
                    .map(|k| &mut eval[k])
            } else {
                None
            };
            match slot {
                None => return Err(at(format!("unknown weight {key}"))),
                Some(Some(_)) => return Err(at(format!("{key} given twice"))),
                Some(s) => *s = Some(value),
            }
        }
        if !header {
            return Err(format!("no \"{HEADER}\" line"));
        }
        let missing = |names: &[&str], prefix: &str, got: &[Option<f64>]| {
            names
                .iter()
                .zip(got)
                .find(|(_, v)| v.is_none())
                .map(|(n, _)| format!("{prefix}.{n} is missing"))
        };
        // The learned reach terms came later: files without them weigh them 0.
        if let Some(e) = missing(
            &FEATURE_NAMES[..NUM_BASIC_FEATURES],
            "ordering",
            &ordering[..NUM_BASIC_FEATURES],
        )
        .or_else(|| missing(&EVAL_NAMES, "eval", &eval))
        {
            return Err(e);
        }
        Ok(Weights {
            ordering: weights_from_vector(&ordering.map(|v| v.unwrap_or(0.0))),
            eval: eval_from_vector(&eval.map(Option::unwrap)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_parses() {
        let w = Weights::embedded();
        assert!(w.eval.scale_open > 0.0 && w.eval.scale_end > 0.0);
    }

    #[test]
    fn files_without_the_reach_terms_weigh_them_zero() {
        let text = Weights::builtin().to_text(&[]);
        let old: String = text
            .lines()
            .filter(|l| {
                !FEATURE_NAMES[NUM_BASIC_FEATURES..]
                    .iter()
                    .any(|n| l.contains(n))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        assert_ne!(old, text);
        let w = Weights::parse(&old).unwrap();
        assert_eq!(w, Weights::builtin());
        assert!(!w.ordering.uses_reach());
    }

    #[test]
    fn text_round_trips_and_errors_name_the_line() {
        let w = Weights::builtin();
        let text = w.to_text(&["test".into()]);
        assert_eq!(Weights::parse(&text).unwrap(), w);
        let e = Weights::parse(&text.replace("eval.kappa", "eval.kapa")).unwrap_err();
        assert!(e.contains("unknown weight eval.kapa"), "{e}");
        let e = Weights::parse(&text.replace("eval.tempo_end 0.500000\n", "")).unwrap_err();
        assert!(e.contains("eval.tempo_end is missing"), "{e}");
        let e = Weights::parse(&text.replace("0.500000", "x")).unwrap_err();
        assert!(e.starts_with("line "), "{e}");
        assert!(Weights::parse("ordering.escape 1\n").is_err());
    }
}

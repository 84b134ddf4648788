//! Learning from self-play: `hippolyta selfplay` writes searched positions, `hippolyta train`
//! fits the evaluation weights to them, and the binary embeds the result.
//!
//! - `record.rs`: the versioned data format (JSON lines) and its reader;
//! - `selfplay.rs`: the self-play games, sharding and the `--weights` choice;
//! - `features.rs`: the cheap move ordering's features and its weights as a vector;
//! - `train.rs`: the evaluation fit, the held-out split and the losses;
//! - `weights.rs`: the weights file, embedded from `weights.txt`;
//! - `symmetry.rs`: the dihedral group of the board.

pub mod features;
pub mod record;
pub mod selfplay;
pub mod symmetry;
pub mod train;
pub mod weights;

//! Learning from self-play: `hippolyta selfplay` writes searched positions, `hippolyta train`
//! fits the evaluation weights to them, and the binary embeds the result.
//!
//! - `record.rs`: the versioned data format (JSON lines) and its reader;
//! - `selfplay.rs`: the self-play games and sharding;
//! - `features.rs`: the cheap move ordering's features and its weights as a vector;
//! - `train.rs`: the evaluation fit, the held-out split and the losses;
//! - `weights.rs`: the weights file, embedded from `weights.txt`, and the `--weights` choice.

pub mod features;
pub mod record;
pub mod selfplay;
pub mod train;
pub mod weights;

//! Learning from self-play: `otrera selfplay` writes searched positions, `otrera train`
//! fits the evaluation weights to them, and the binary embeds the result.
//!
//! - `record.rs`: the versioned data format (JSON lines) and its reader;
//! - `binary.rs`: the same records compactly, a game per checksummed block, for resumable runs;
//! - `data_file.rs`: reads a data file in either format;
//! - `selfplay.rs`: the self-play games and sharding;
//! - `features.rs`: the cheap move ordering's features and its weights as a vector;
//! - `train.rs`: the evaluation fit, the held-out split and the losses;
//! - `net_job.rs`: training the network evaluation (`crate::net`) on the same data;
//! - `weights.rs`: the weights file, embedded from `weights.txt`, and the `--weights` choice.

pub mod binary;
pub mod data_file;
pub mod features;
pub mod net_job;
pub mod record;
pub mod selfplay;
pub mod train;
pub mod weights;

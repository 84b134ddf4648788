//! Learning from self-play: `hippolyta selfplay` writes searched positions, `hippolyta train`
//! fits the move-ordering and evaluation weights to them, and the binary embeds the result.
//!
//! - `record.rs`: the versioned data format (JSON lines) and its reader;
//! - `selfplay.rs`: the self-play games, sharding and the `--weights` choice;
//! - `features.rs`: the move-prior model's features (those of the cheap move ordering);
//! - `train.rs`: the fits, the held-out split and the losses;
//! - `weights.rs`: the weights file, embedded from `weights.txt`;
//! - `symmetry.rs`: the dihedral group of the board.

pub mod features;
pub mod record;
pub mod selfplay;
pub mod symmetry;
pub mod train;
pub mod weights;

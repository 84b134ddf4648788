//! The learned network evaluation: a small CPU network, trained on self-play, that corrects the
//! linear evaluation where playouts are cut off.
//!
//! - `features.rs`: the inputs, symmetric by construction;
//! - `network.rs`: the weights and the inference (and the plain reference it is tested against);
//! - `checksum.rs`: FNV-1a, for the weights file and the self-play blocks;
//! - `file.rs`: the versioned, checksummed weights file;
//! - `train.rs`: deterministic training with held-out losses (`learn::net_job` feeds it self-play).

pub mod checksum;
pub mod features;
pub mod file;
pub mod network;
pub mod train;

pub use file::{NetFileError, NetFormatError};
pub use network::Network;

use std::sync::{Arc, OnceLock};

/// The network built into the binary as `--weights net` (`src/net/otrera.onet`; how it was
/// trained and how it plays: docs/results.md). Not the default until a match says it pays.
pub const EMBEDDED: &[u8] = include_bytes!("otrera.onet");

/// The embedded network, read once and shared.
pub fn embedded() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(file::from_bytes(EMBEDDED).expect("the embedded network is checked by the tests"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_network_reads() {
        let net = super::embedded();
        assert!(net.hidden > 0);
    }
}

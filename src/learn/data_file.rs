//! Reading self-play data in either format: binary (`binary.rs`, told by its magic) or JSON lines
//! (`record.rs`).

use super::binary;
use super::record::{self, DataError, Record};
use std::path::Path;

/// Reads a data file in either format.
pub fn read_file(path: &Path) -> Result<Vec<Record>, DataError> {
    let mut head = [0u8; 8];
    let is_binary = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .map(|n| binary::is_binary(&head[..n]))
        .unwrap_or(false);
    if is_binary {
        binary::read_file(path)
    } else {
        record::read_file(path)
    }
}

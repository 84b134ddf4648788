//! Reading self-play data in either format: binary (`binary.rs`, told by its magic) or JSON lines
//! (`record.rs`).

use super::binary;
use super::record::{self, DataError, Record};
use std::path::Path;

/// Reads a data file in either format: its bytes once, then the format its first bytes name.
pub fn read_file(path: &Path) -> Result<Vec<Record>, DataError> {
    let name = path.display().to_string();
    let error = |message: String| DataError {
        file: name.clone(),
        line: 0,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
    if binary::is_binary(&bytes) {
        return binary::records(&name, &bytes);
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| error("stream did not contain valid UTF-8".into()))?;
    record::parse_records(&name, text)
}

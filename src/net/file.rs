//! The network weights file.
//!
//! Little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `OTRERANN` |
//! | 4 | format version, [`VERSION`] |
//! | 4 | feature set (`features::FEATURE_SET`): which inputs the net was trained on |
//! | 4 | inputs |
//! | 4 | hidden units |
//! | 4 × n | the weights as f32: `w1` (input-major), `b1`, `out`, `skip`, `b2` |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! A file is read whole and checked before any of it is used, so a truncated, corrupt or foreign
//! file is refused and the engine never plays with a half-read net.

use super::checksum::fnv1a;
use super::features::{FEATURE_SET, NUM_INPUTS};
use super::network::{Network, MAX_HIDDEN};
use std::fmt;
use std::path::{Path, PathBuf};

/// The first bytes of every weights file.
pub const MAGIC: &[u8; 8] = b"OTRERANN";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 * 4;

/// What is wrong with a weights file's contents.
#[derive(Clone, Debug, PartialEq)]
pub enum NetFormatError {
    /// Shorter than the header, or than the header says.
    Truncated {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        found: usize,
    },
    /// Longer than the header says.
    TrailingBytes {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        found: usize,
    },
    /// Not an Otrera network file.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// Made for another set of inputs than this build computes.
    FeatureSet(u32),
    /// A shape this build cannot use.
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden units in the file.
        hidden: u32,
    },
    /// The checksum does not match the contents.
    Checksum {
        /// Checksum stored in the file.
        stored: u64,
        /// Checksum of the contents.
        computed: u64,
    },
    /// A weight is infinite or not a number.
    NotFinite(usize),
}

impl fmt::Display for NetFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetFormatError::Truncated { expected, found } => {
                write!(f, "truncated: {found} bytes, expected {expected}")
            }
            NetFormatError::TrailingBytes { expected, found } => {
                write!(f, "{found} bytes, expected {expected}: not one network")
            }
            NetFormatError::BadMagic => write!(f, "not an Otrera network file (no OTRERANN magic)"),
            NetFormatError::Version(v) => {
                write!(f, "format version {v}; this build reads version {VERSION}")
            }
            NetFormatError::FeatureSet(s) => write!(
                f,
                "made for input set {s}; this build computes input set {FEATURE_SET}"
            ),
            NetFormatError::Shape { inputs, hidden } => write!(
                f,
                "shape {inputs} inputs x {hidden} hidden units; this build needs {NUM_INPUTS} inputs and 1 to {MAX_HIDDEN} hidden units"
            ),
            NetFormatError::Checksum { stored, computed } => write!(
                f,
                "corrupt: checksum {computed:016x} does not match the stored {stored:016x}"
            ),
            NetFormatError::NotFinite(i) => write!(f, "corrupt: weight {i} is not a finite number"),
        }
    }
}

impl std::error::Error for NetFormatError {}

/// A weights file that cannot be used: which file, and why.
#[derive(Debug)]
pub struct NetFileError {
    /// The file.
    pub path: PathBuf,
    /// Why: it could not be read, or what is wrong with it.
    pub reason: String,
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights file '{}': {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for NetFileError {}

/// The checksum of a file's contents.
pub fn checksum(bytes: &[u8]) -> u64 {
    fnv1a(bytes)
}

/// The file's bytes.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut b = Vec::with_capacity(HEADER_LEN + 4 * net.len() + 8);
    b.extend_from_slice(MAGIC);
    for v in [VERSION, FEATURE_SET, NUM_INPUTS as u32, net.hidden as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let weights = net
        .w1
        .iter()
        .chain(&net.b1)
        .chain(&net.out)
        .chain(&net.skip)
        .chain(std::iter::once(&net.b2));
    for w in weights {
        b.extend_from_slice(&w.to_le_bytes());
    }
    let sum = checksum(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// Reads a network from a file's bytes, checking everything first.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetFormatError> {
    let found = bytes.len();
    if found < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(NetFormatError::BadMagic);
    }
    if found < HEADER_LEN {
        return Err(NetFormatError::Truncated {
            expected: HEADER_LEN,
            found,
        });
    }
    let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    let (version, set, inputs, hidden) = (word(0), word(1), word(2), word(3));
    if version != VERSION {
        return Err(NetFormatError::Version(version));
    }
    if set != FEATURE_SET {
        return Err(NetFormatError::FeatureSet(set));
    }
    if inputs as usize != NUM_INPUTS || hidden == 0 || hidden as usize > MAX_HIDDEN {
        return Err(NetFormatError::Shape { inputs, hidden });
    }
    let h = hidden as usize;
    let n = NUM_INPUTS * h + h + h + NUM_INPUTS + 1;
    let expected = HEADER_LEN + 4 * n + 8;
    if found < expected {
        return Err(NetFormatError::Truncated { expected, found });
    }
    if found > expected {
        return Err(NetFormatError::TrailingBytes { expected, found });
    }
    let body = &bytes[..expected - 8];
    let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
    let computed = checksum(body);
    if stored != computed {
        return Err(NetFormatError::Checksum { stored, computed });
    }
    let weights: Vec<f32> = body[HEADER_LEN..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
        return Err(NetFormatError::NotFinite(i));
    }
    let mut rest = &weights[..];
    let mut take = |k: usize| {
        let (a, b) = rest.split_at(k);
        rest = b;
        a.to_vec()
    };
    let w1 = take(NUM_INPUTS * h);
    let b1 = take(h);
    let out = take(h);
    let skip = take(NUM_INPUTS);
    let b2 = take(1)[0];
    Ok(Network {
        hidden: h,
        w1,
        b1,
        out,
        skip,
        b2,
    })
}

/// Reads the weights file at `path`.
pub fn load(path: &Path) -> Result<Network, NetFileError> {
    let err = |reason: String| NetFileError {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|e| err(e.to_string()))?;
    from_bytes(&bytes).map_err(|e| err(e.to_string()))
}

/// Writes `net` to `path`.
pub fn save(net: &Network, path: &Path) -> Result<(), NetFileError> {
    std::fs::write(path, to_bytes(net)).map_err(|e| NetFileError {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::network::tests::random_net;

    #[test]
    fn files_round_trip() {
        let net = random_net(1, 16);
        let bytes = to_bytes(&net);
        assert_eq!(from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let good = to_bytes(&random_net(2, 4));
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            from_bytes(&b).unwrap_err().to_string()
        };
        let set_word = |b: &mut Vec<u8>, i: usize, v: u32| {
            b[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes())
        };
        let cases: Vec<(String, &str)> = vec![
            (with(&|b| b.clear()), "not an Otrera network file"),
            (with(&|b| b[0] = b'X'), "not an Otrera network file"),
            (
                with(&|b| b.truncate(20)),
                "truncated: 20 bytes, expected 24",
            ),
            (with(&|b| b.truncate(b.len() - 3)), "truncated"),
            (with(&|b| b.push(0)), "not one network"),
            (
                with(&|b| set_word(b, 0, 2)),
                "format version 2; this build reads version 1",
            ),
            (with(&|b| set_word(b, 1, 9)), "made for input set 9"),
            (
                with(&|b| set_word(b, 2, 5)),
                "shape 5 inputs x 4 hidden units",
            ),
            (with(&|b| set_word(b, 3, 0)), "shape"),
            (with(&|b| b[40] ^= 1), "corrupt: checksum"),
        ];
        for (message, want) in cases {
            assert!(message.contains(want), "{message:?} lacks {want:?}");
        }
        // A non-finite weight with a checksum that matches it.
        let mut b = good.clone();
        let n = b.len();
        b[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let sum = checksum(&b[..n - 8]);
        b[n - 8..].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(from_bytes(&b), Err(NetFormatError::NotFinite(0)));
    }

    #[test]
    fn load_names_the_file() {
        let dir = std::env::temp_dir().join(format!("otrera-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("short.onet");
        std::fs::write(&path, b"OTRERANN\x01").unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(
            e.starts_with("weights file '") && e.contains("short.onet': truncated"),
            "{e}"
        );
        let e = load(&dir.join("missing.onet")).unwrap_err().to_string();
        assert!(e.contains("missing.onet'"), "{e}");
        let net = random_net(4, 3);
        let path = dir.join("good.onet");
        save(&net, &path).unwrap();
        assert_eq!(load(&path).unwrap(), net);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! `--shard I/N`: part `I` (from 0) of a run split into `N` disjoint parts, so a big self-play or
//! match run can be an array job on a batch scheduler (Slurm job arrays, Kubernetes indexed Jobs).

use std::fmt;
use std::str::FromStr;

/// A part `index` of `count` of a run (`--shard I/N`, `I` from 0 to `N - 1`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, from 0.
    pub index: u64,
    /// Number of parts.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard I/N with 0 <= I < N (e.g. 0/4)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 2, count: 4 }.to_string(), "2/4");
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}

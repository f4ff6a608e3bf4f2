//! `--shard I/N`: one of N jobs that write one data set together. Each job derives
//! its workers' seeds from the run's seed and its index I, so the jobs' games are
//! unrelated, and each job reruns byte for byte on its own.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Text that is not `I/N` with `0 <= I < N` (clap shows it after the option).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16")]
pub struct ShardError(String);

/// Shard `index` of `count` (0-based index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N` with `0 <= I < N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_owned());
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
    fn parses_and_rejects() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        for bad in ["16/16", "1/0", "x/2", "3", "-1/4", ""] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError(bad.to_owned())),
                "{bad}"
            );
        }
        assert_eq!(
            ShardError("9/4".into()).to_string(),
            "'9/4' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16"
        );
    }
}

//! `--append` continues a file without replaying its games.
//!
//! A run's games follow from its seed: the book's order, every random move and
//! random opening. An interrupted run continued with the same `--seed` would
//! play the same games again and add their positions a second time (a third of
//! the file duplicated in a new user's trial). So a run that appends to a file
//! already holding data plays from a seed mixed from `--seed` and the file's
//! length in bytes. The file only grows and a run that adds nothing leaves
//! nothing to repeat, so each continuation starts from a length no earlier run
//! of the file started from, and its games are new; the run stays reproducible
//! from `--seed` and the file it continues.

use std::io::ErrorKind;
use std::path::Path;

use nnue_core::output::OutputMode;

use super::options::GenConfig;
use super::writer::{part_path, PARTS_CHECKED};
use crate::error::Error;
use crate::rng::mix;

/// Mixed into the length, so that a continuation's seed is unrelated to the
/// seed of a run given that length as `--seed`.
const CONTINUATION_SALT: u64 = 0x6170_7065_6E64_6564;

/// A run that continues a file holding `bytes` bytes: `--seed` was `given`,
/// its games come from `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation {
    pub given: u64,
    pub bytes: u64,
    pub seed: u64,
}

impl Continuation {
    /// The continuation of the run `config` describes: `None` unless it
    /// appends to data already there (a missing or empty file is a fresh
    /// start, seeded by `--seed` alone).
    pub fn of(config: &GenConfig) -> Result<Option<Continuation>, Error> {
        if config.output_mode != OutputMode::Append {
            return Ok(None);
        }
        let bytes = existing_bytes(&config.output, config.save_every)?;
        Ok((bytes > 0).then(|| Continuation {
            given: config.seed,
            bytes,
            seed: continuation_seed(config.seed, bytes),
        }))
    }
}

/// The seed of a run that continues a file of `bytes` (> 0) bytes from `seed`.
pub fn continuation_seed(seed: u64, bytes: u64) -> u64 {
    mix(mix(seed) ^ mix(bytes ^ CONTINUATION_SALT))
}

/// Bytes already in the files a run appends to: `output`, or with
/// `--save-every` its parts from 0 on as long as they exist.
fn existing_bytes(output: &Path, save_every: Option<u64>) -> Result<u64, Error> {
    if save_every.is_none() {
        return Ok(file_len(output)?.unwrap_or(0));
    }
    let mut total = 0;
    for k in 0..PARTS_CHECKED {
        match file_len(&part_path(output, k))? {
            Some(len) => total += len,
            None => break,
        }
    }
    Ok(total)
}

/// The length of `path`, `None` when it does not exist.
fn file_len(path: &Path) -> Result<Option<u64>, Error> {
    match std::fs::metadata(path) {
        Ok(meta) => Ok(Some(meta.len())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(source) => Err(Error::Read {
            file: path.to_path_buf(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_length_gives_its_own_seed() {
        let seeds = [1, 40, 80, 4_000].map(|bytes| continuation_seed(7, bytes));
        for (i, a) in seeds.iter().enumerate() {
            assert_ne!(*a, 7);
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_ne!(continuation_seed(7, 40), continuation_seed(8, 40));
        assert_eq!(continuation_seed(7, 40), continuation_seed(7, 40));
    }
}

//! Where training positions come from. The trainer only sees [`PositionSource`],
//! so another container (`.binpack`) plugs in by implementing it.

use std::ops::Range;
use std::path::PathBuf;

use nnue_core::data::{BinReader, DataError, ReaderOptions, TrainingRecord};
use nnue_core::packed::PACKED_SFEN_VALUE_SIZE;

use crate::error::LearnError;

/// Random access to decoded positions of one or many files.
pub trait PositionSource: Send + Sync {
    /// Number of records.
    fn len(&self) -> u64;

    /// Whether there are no records.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Global index ranges of the files, in order (streams interleave them).
    fn file_ranges(&self) -> Vec<Range<u64>>;

    /// Record `index` decoded on the fast path; errors name the file and record.
    fn record(&self, index: u64) -> Result<TrainingRecord, DataError>;

    /// The files, for messages.
    fn describe(&self) -> String;
}

/// `.bin` files through the core's memory-mapped [`BinReader`].
pub struct BinSource {
    reader: BinReader,
    paths: Vec<PathBuf>,
}

impl BinSource {
    /// Maps `paths`; a missing, unreadable or truncated file is an error naming it.
    pub fn open(paths: &[PathBuf]) -> Result<BinSource, LearnError> {
        for path in paths {
            if path.extension().is_some_and(|e| e == "binpack") {
                return Err(LearnError::Usage(format!(
                    "{}: .binpack input is not supported by nnue-learn yet (give .bin files)",
                    path.display()
                )));
            }
        }
        let reader = BinReader::open(paths, ReaderOptions::default())?;
        Ok(BinSource {
            reader,
            paths: paths.to_vec(),
        })
    }
}

impl PositionSource for BinSource {
    fn len(&self) -> u64 {
        self.reader.len()
    }

    fn file_ranges(&self) -> Vec<Range<u64>> {
        let mut start = 0u64;
        (0..self.reader.file_count())
            .map(|f| {
                let n = (self.reader.file_bytes(f).len() / PACKED_SFEN_VALUE_SIZE) as u64;
                let range = start..start + n;
                start += n;
                range
            })
            .collect()
    }

    fn record(&self, index: u64) -> Result<TrainingRecord, DataError> {
        self.reader.get(index)
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self.paths.iter().map(|p| p.display().to_string()).collect();
        names.join(", ")
    }
}

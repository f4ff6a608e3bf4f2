//! Records from a `.bin`, `.binpack` or `.plain` file, validated, with
//! errors that name the file and the record index, chunk and entry, or line
//! (through the core's by-extension [`TrainingDataReader`]). The one reading
//! loop of every subcommand that reads records.

use std::path::Path;

use nnue_core::data::{ReaderOptions, TrainingDataReader, TrainingRecord, Validation};
use nnue_core::packed::PackedSfenValue;

use crate::error::Error;

/// Calls `f` for every record of `path` in order, stopping at the first
/// error (returned), or skipping bad records when `options.skip_invalid`
/// (returns the number skipped; `.binpack` errors always stop, since later
/// entries of a chain derive from earlier ones).
///
/// Records are checked structurally ([`Validation::Fast`]) or fully
/// (legal position and move, [`Validation::Full`]); `.plain` records are
/// always fully checked, since packing them needs a legal position and
/// move anyway.
pub fn for_each_record(
    path: &Path,
    options: ReaderOptions,
    validation: Validation,
    mut f: impl FnMut(&PackedSfenValue, &TrainingRecord) -> Result<(), Error>,
) -> Result<u64, Error> {
    let reader = TrainingDataReader::open(path, options)?;
    let mut records = reader.records(validation)?;
    for record in records.by_ref() {
        let record = record?;
        f(&record.raw, &record.record)?;
    }
    Ok(records.skipped())
}

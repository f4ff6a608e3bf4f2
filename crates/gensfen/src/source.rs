//! Records from a `.bin`, `.binpack`, `.plain`, `.vf`, `.mf` or `.bf`
//! file, validated, with errors that name the file and the record index,
//! chunk and entry, game and move, or line (through the core's
//! [`TrainingDataReader`], by extension or by a named format). The one reading
//! loop of every subcommand that reads records.

use std::path::Path;

use nnue_core::data::{DataFormat, ReaderOptions, TrainingDataReader, TrainingRecord, Validation};
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
    f: impl FnMut(&PackedSfenValue, &TrainingRecord) -> Result<(), Error>,
) -> Result<u64, Error> {
    for_each_record_as((path, None), options, validation, f)
}

/// [`for_each_record`] reading `path` as `format` where given (a file whose
/// extension does not say), else by its extension. `.mf` and `.bf` records
/// have no move (`MOVE_NONE`) whatever `options` allow: the formats store
/// none.
pub fn for_each_record_as(
    (path, format): (&Path, Option<DataFormat>),
    options: ReaderOptions,
    validation: Validation,
    mut f: impl FnMut(&PackedSfenValue, &TrainingRecord) -> Result<(), Error>,
) -> Result<u64, Error> {
    let reader = TrainingDataReader::open_as(path, format, options)?;
    let mut records = reader.records(validation)?;
    for record in records.by_ref() {
        let record = record?;
        f(&record.raw, &record.record)?;
    }
    Ok(records.skipped())
}

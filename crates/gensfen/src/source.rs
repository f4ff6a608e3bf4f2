//! Records from a `.bin` or `.plain` file, validated, with errors that name
//! the file and the record index (or line).

use std::path::Path;

use nnue_core::data::{
    decode_fast, decode_full, BinReader, DataError, PlainEntry, PlainError, PlainKey, PlainReader,
    ReaderOptions, RecordPolicy, TrainingRecord, Validation,
};
use nnue_core::packed::PackedSfenValue;

use crate::error::CliError;
use crate::format::Format;

/// Calls `f` for every record of `path` in order, stopping at the first
/// error (returned), or skipping bad records when `options.skip_invalid`
/// (returns the number skipped).
///
/// `.bin` records are checked structurally ([`Validation::Fast`]) or fully
/// (legal position and move, [`Validation::Full`]); `.plain` records are always fully checked, since
/// packing them needs a legal position and move anyway.
pub fn for_each_record(
    path: &Path,
    options: ReaderOptions,
    validation: Validation,
    mut f: impl FnMut(&PackedSfenValue, &TrainingRecord) -> Result<(), CliError>,
) -> Result<u64, CliError> {
    match Format::from_path(path)? {
        Format::Bin => {
            let reader = BinReader::open(&[path], options)?;
            let mut skipped = reader.truncated_tails();
            for (loc, raw) in reader.iter_raw() {
                let decoded = if validation == Validation::Full {
                    decode_full(&raw, options.policy).map(|v| v.record)
                } else {
                    decode_fast(&raw, options.policy)
                };
                match decoded {
                    Ok(rec) => f(&raw, &rec)?,
                    Err(_) if options.skip_invalid => skipped += 1,
                    Err(reason) => {
                        return Err(DataError::BadRecord {
                            file: path.to_path_buf(),
                            index: loc.index,
                            reason,
                        }
                        .into())
                    }
                }
            }
            Ok(skipped)
        }
        Format::Plain => {
            let mut skipped = 0;
            for entry in PlainReader::open(path)? {
                let packed = entry.and_then(|e| plain_record(&e, options.policy, path));
                match packed {
                    Ok((raw, rec)) => f(&raw, &rec)?,
                    Err(DataError::BadPlain { .. }) if options.skip_invalid => skipped += 1,
                    Err(e) => return Err(e.into()),
                }
            }
            Ok(skipped)
        }
    }
}

/// Packs and checks one `.plain` entry; errors name the line of the bad field.
fn plain_record(
    entry: &PlainEntry,
    policy: RecordPolicy,
    path: &Path,
) -> Result<(PackedSfenValue, TrainingRecord), DataError> {
    let (raw, _) = entry.pack(policy, path)?;
    let rec = decode_fast(&raw, policy).map_err(|reason| DataError::BadPlain {
        file: path.to_path_buf(),
        line: entry.line_of(PlainKey::Fen),
        reason: PlainError::Record(reason),
    })?;
    Ok((raw, rec))
}

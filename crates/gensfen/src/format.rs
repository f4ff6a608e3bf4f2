//! Data formats chosen by file extension, as Stockfish's `convert` does:
//! `.bin`, `.binpack` and `.plain` (the core's [`DataFormat`]), and how many
//! records a file of each holds.

pub use nnue_core::data::DataFormat as Format;

use std::path::Path;

use nnue_core::output::OutputCheck;
use nnue_core::packed::PACKED_SFEN_VALUE_SIZE;

use crate::error::Error;

/// `.binpack` positions per file byte, as a ratio: Stockfish's chained
/// encoding stores a game's positions in about 2.9 bytes each (40 / 14).
const BINPACK_RECORDS_PER_BYTE: (u64, u64) = (14, 40);
/// Typical size of one `.plain` record (six `key value` lines), bytes.
const PLAIN_BYTES_PER_RECORD: u64 = 95;

/// Records a file of `size` bytes holds, estimated from its format (to size
/// `shuffle`'s buckets and `rescore`'s progress bar): exact for `.bin`,
/// typical ratios for `.binpack` (about 2.9 bytes a position in game chains)
/// and `.plain` (about 95 bytes a record).
pub fn estimated_records(format: Format, size: u64) -> u64 {
    match format {
        Format::Bin => size / PACKED_SFEN_VALUE_SIZE as u64,
        Format::Binpack => {
            let (num, den) = BINPACK_RECORDS_PER_BYTE;
            size.saturating_mul(num) / den
        }
        Format::Plain => size.div_ceil(PLAIN_BYTES_PER_RECORD),
    }
}

/// The output's format for a one-input, one-output command (`convert`,
/// `rescore`), after the output rule of `check` (to which the input is
/// added): the output is not the input (even with
/// `--force`), an existing output needs `--force` (or `--append` where
/// `appendable`), and its folder exists. Then both names need a known
/// extension, and the input must be a file (a directory is a failure, not a
/// usage error, as in every subcommand).
pub fn transform_formats(
    input: &Path,
    output: &Path,
    check: OutputCheck,
    appendable: bool,
) -> Result<Format, Error> {
    let checked = check.inputs([input]).check(output);
    checked.map_err(|e| match appendable {
        true => Error::appendable(e),
        false => Error::Output(e),
    })?;
    Format::from_path(input)?;
    Ok(Format::from_path(output)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_follow_each_format() {
        assert_eq!(estimated_records(Format::Bin, 400), 10);
        assert_eq!(estimated_records(Format::Binpack, 40), 14);
        assert_eq!(estimated_records(Format::Plain, 96), 2);
    }
}

//! Data formats chosen by file extension, as Stockfish's `convert` does:
//! `.bin`, `.binpack`, `.plain`, `.vf`, `.mf` and `.bf` (the core's
//! [`DataFormat`]), or by name where the extension does not say; and how
//! many records a file of each holds.

pub use nnue_core::data::DataFormat as Format;

use std::path::Path;

use nnue_core::data::BOARD_RECORD_SIZE;
use nnue_core::output::OutputCheck;
use nnue_core::packed::PACKED_SFEN_VALUE_SIZE;

use crate::error::Error;

/// `.binpack` positions per file byte, as a ratio: Stockfish's chained
/// encoding stores a game's positions in about 2.9 bytes each (40 / 14).
const BINPACK_RECORDS_PER_BYTE: (u64, u64) = (14, 40);
/// Typical size of one `.plain` record (six `key value` lines), bytes.
const PLAIN_BYTES_PER_RECORD: u64 = 95;
/// Typical size of one `.vf` record: its 4-byte move entry plus its share of
/// the game's 36 bytes of start board and terminator (games of ~35 positions).
const VIRI_BYTES_PER_RECORD: u64 = 5;

/// Records a file of `size` bytes holds, estimated from its format (to size
/// `shuffle`'s buckets and `rescore`'s progress bar): exact for `.bin`,
/// typical ratios for `.binpack` (about 2.9 bytes a position in game chains),
/// `.plain` (about 95 bytes a record) and `.vf` (about 5), exact for `.mf`
/// and `.bf` (32).
pub fn estimated_records(format: Format, size: u64) -> u64 {
    match format {
        Format::Bin => size / PACKED_SFEN_VALUE_SIZE as u64,
        Format::Binpack => {
            let (num, den) = BINPACK_RECORDS_PER_BYTE;
            size.saturating_mul(num) / den
        }
        Format::Plain => size.div_ceil(PLAIN_BYTES_PER_RECORD),
        Format::Viri => size.div_ceil(VIRI_BYTES_PER_RECORD),
        Format::Marlin | Format::Bullet => size / BOARD_RECORD_SIZE as u64,
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
    let (_, output) = transform_formats_as((input, None), (output, None), check, appendable)?;
    Ok(output)
}

/// [`transform_formats`] where either file's format may be named
/// (`--input-format`, `--output-format`) instead of taken from its
/// extension; gives both formats.
pub fn transform_formats_as(
    (input, input_format): (&Path, Option<Format>),
    (output, output_format): (&Path, Option<Format>),
    check: OutputCheck,
    appendable: bool,
) -> Result<(Format, Format), Error> {
    let checked = check.inputs([input]).check(output);
    checked.map_err(|e| match appendable {
        true => Error::appendable(e),
        false => Error::Output(e),
    })?;
    let input = Format::from_path_or(input, input_format)?;
    Ok((input, Format::from_path_or(output, output_format)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_follow_each_format() {
        assert_eq!(estimated_records(Format::Bin, 400), 10);
        assert_eq!(estimated_records(Format::Binpack, 40), 14);
        assert_eq!(estimated_records(Format::Plain, 96), 2);
        assert_eq!(estimated_records(Format::Marlin, 320), 10);
        assert_eq!(estimated_records(Format::Bullet, 320), 10);
        assert_eq!(estimated_records(Format::Viri, 50), 10);
    }
}

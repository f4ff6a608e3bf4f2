//! Data formats chosen by file extension, as Stockfish's `convert` does:
//! `.bin`, `.binpack` and `.plain` (the core's [`DataFormat`]).

pub use nnue_core::data::DataFormat as Format;

use std::path::Path;

use crate::error::CliError;

/// The output's format for a one-input, one-output command (`convert`,
/// `rescore`): both names need a known extension, and they must not be the
/// same file, which would be truncated before it is read.
pub fn transform_formats(input: &Path, output: &Path) -> Result<Format, CliError> {
    let out_format = Format::from_path(output)?;
    Format::from_path(input)?;
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            return Err(CliError::SameFile(output.to_path_buf()));
        }
    }
    Ok(out_format)
}

//! Data formats chosen by file extension, as Stockfish's `convert` does.

use std::path::Path;

use nnue_core::data::DataError;

use crate::error::CliError;

/// A training-data file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// 40-byte PackedSfenValue records.
    Bin,
    /// `fen`/`move`/`score`/`ply`/`result`/`e` text.
    Plain,
}

impl Format {
    /// The format named by `path`'s extension.
    ///
    /// A directory is refused as such first, whatever its name.
    pub fn from_path(path: &Path) -> Result<Format, CliError> {
        if path.is_dir() {
            return Err(DataError::IsDirectory {
                file: path.to_path_buf(),
            }
            .into());
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => Ok(Format::Bin),
            Some("plain") => Ok(Format::Plain),
            _ => Err(CliError::UnsupportedExtension(path.to_path_buf())),
        }
    }
}

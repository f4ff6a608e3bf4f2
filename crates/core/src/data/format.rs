//! Training-data formats, chosen by file extension as Stockfish's tools do.

use std::fmt;
use std::path::Path;

use super::error::DataError;

/// A training-data file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataFormat {
    /// `.bin`: 40-byte PackedSfenValue records, no header.
    Bin,
    /// `.binpack`: Stockfish's chained, compressed chunks.
    Binpack,
    /// `.plain`: `fen`/`move`/`score`/`ply`/`result`/`e` text.
    Plain,
}

impl DataFormat {
    /// All formats, for help texts.
    pub const ALL: [DataFormat; 3] = [DataFormat::Bin, DataFormat::Binpack, DataFormat::Plain];

    /// The format named by `path`'s extension (`.bin`, `.binpack`, `.plain`).
    ///
    /// A directory is refused as such first, whatever its name.
    pub fn from_path(path: impl AsRef<Path>) -> Result<DataFormat, DataError> {
        let path = path.as_ref();
        if path.is_dir() {
            return Err(DataError::IsDirectory {
                file: path.to_path_buf(),
            });
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => Ok(DataFormat::Bin),
            Some("binpack") => Ok(DataFormat::Binpack),
            Some("plain") => Ok(DataFormat::Plain),
            _ => Err(DataError::UnsupportedExtension(path.to_path_buf())),
        }
    }

    /// The extension without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            DataFormat::Bin => "bin",
            DataFormat::Binpack => "binpack",
            DataFormat::Plain => "plain",
        }
    }
}

impl fmt::Display for DataFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.extension())
    }
}

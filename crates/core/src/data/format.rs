//! Training-data formats, chosen by file extension as Stockfish's tools do,
//! or by name where a file's extension does not say (viriformat files in the
//! wild are called `.bin`, `.vf` and `.binpack`).

use std::fmt;
use std::path::Path;
use std::str::FromStr;

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
    /// `.vf`: viriformat games (a start board, then moves with scores).
    Viri,
    /// `.mf`: marlinformat 32-byte `PackedBoard` records.
    Marlin,
    /// `.bf`: bulletformat 32-byte `ChessBoard` records.
    Bullet,
}

impl DataFormat {
    /// All formats, for help texts.
    pub const ALL: [DataFormat; 6] = [
        DataFormat::Bin,
        DataFormat::Binpack,
        DataFormat::Plain,
        DataFormat::Viri,
        DataFormat::Marlin,
        DataFormat::Bullet,
    ];

    /// The format named by `path`'s extension (`.bin`, `.binpack`, `.plain`,
    /// `.vf`, `.mf`, `.bf`).
    ///
    /// A directory is refused as such first, whatever its name.
    pub fn from_path(path: impl AsRef<Path>) -> Result<DataFormat, DataError> {
        Self::from_path_or(path, None)
    }

    /// `format` where given (a file named otherwise), else the format of
    /// `path`'s extension. A directory is refused as such first.
    pub fn from_path_or(
        path: impl AsRef<Path>,
        format: Option<DataFormat>,
    ) -> Result<DataFormat, DataError> {
        let path = path.as_ref();
        if path.is_dir() {
            return Err(DataError::IsDirectory {
                file: path.to_path_buf(),
            });
        }
        if let Some(format) = format {
            return Ok(format);
        }
        let extension = path.extension().and_then(|e| e.to_str());
        Self::ALL
            .into_iter()
            .find(|f| Some(f.extension()) == extension)
            .ok_or_else(|| DataError::UnsupportedExtension(path.to_path_buf()))
    }

    /// The extension without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            DataFormat::Bin => "bin",
            DataFormat::Binpack => "binpack",
            DataFormat::Plain => "plain",
            DataFormat::Viri => "vf",
            DataFormat::Marlin => "mf",
            DataFormat::Bullet => "bf",
        }
    }

    /// The format's name as `--format` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            DataFormat::Bin => "bin",
            DataFormat::Binpack => "binpack",
            DataFormat::Plain => "plain",
            DataFormat::Viri => "viriformat",
            DataFormat::Marlin => "marlinformat",
            DataFormat::Bullet => "bulletformat",
        }
    }

    /// Whether each record must be a legal position with a legal best move
    /// to be written (the game formats replay or chain the moves).
    pub const fn needs_moves(self) -> bool {
        matches!(self, DataFormat::Binpack | DataFormat::Viri)
    }
}

impl FromStr for DataFormat {
    type Err = String;

    /// A format's name or extension (`viriformat` or `vf`, ...).
    fn from_str(text: &str) -> Result<DataFormat, String> {
        let text = text.trim_start_matches('.');
        Self::ALL
            .into_iter()
            .find(|f| f.name() == text || f.extension() == text)
            .ok_or_else(|| {
                let names: Vec<String> = Self::ALL
                    .iter()
                    .map(|f| format!("{} ({})", f.name(), f.extension()))
                    .collect();
                format!("unknown format {text:?} (expected {})", names.join(", "))
            })
    }
}

impl fmt::Display for DataFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.extension())
    }
}

//! Why `generate` (and `shuffle`) can fail: each error is one line naming the
//! option, file and position at fault.

use std::path::PathBuf;

use nnue_core::data::DataError;
use nnue_core::nnue::NetworkError;
use thiserror::Error;

/// A generation failure.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// An option value is out of range or contradicts another (a usage error).
    #[error("{0}")]
    InvalidOption(String),
    /// The output exists and neither `--append` nor `--force` was given.
    #[error("{0}: output file exists; pass --append to add to it or --force to replace it")]
    OutputExists(PathBuf),
    /// The output (or a temporary file) could not be created or written.
    #[error("{file}: cannot write: {source}")]
    Write {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// An input could not be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A book line is not a legal position.
    #[error("{file}:{line}: not a legal FEN/EPD position: {problem}")]
    BookLine {
        file: PathBuf,
        line: usize,
        problem: String,
    },
    /// The book holds no position.
    #[error("{0}: the book holds no position")]
    EmptyBook(PathBuf),
    /// The network could not be loaded.
    #[error("{0}")]
    Network(#[from] NetworkError),
    /// `--use-nnue true` without `--eval-file`, and the binary embeds no net.
    #[error("--use-nnue: this binary embeds no network; pass --eval-file FILE.nnue")]
    NoEmbeddedNet,
    /// A worker's hash table could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] nnue_engine::search::HashError),
    /// A worker thread could not be started.
    #[error("cannot start worker thread {index}: {source}")]
    Thread {
        index: usize,
        #[source]
        source: std::io::Error,
    },
    /// Writing or reading training data failed.
    #[error("{0}")]
    Data(#[from] DataError),
    /// An output path breaks the output rule, or writing it failed.
    #[error("{0}")]
    Output(#[from] nnue_core::output::OutputError),
}

impl GenerateError {
    /// Whether the command line itself was wrong (exit status 2).
    pub fn is_usage(&self) -> bool {
        matches!(self, GenerateError::InvalidOption(_))
    }
}

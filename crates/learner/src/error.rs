//! Everything that can stop `nnue-learn`, each printable as one line that names
//! the file, the position in it and the problem.

use std::path::PathBuf;

use nnue_core::data::DataError;
use nnue_core::features::FeatureSetError;
use nnue_core::nnue::{ArchitectureError, NetworkError};

/// A failure of a `nnue-learn` command.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// Options that contradict each other or are out of range (exit code 2).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    FeatureSet(#[from] FeatureSetError),
    #[error("architecture: {0}")]
    Architecture(#[from] ArchitectureError),
    #[error(transparent)]
    Network(#[from] NetworkError),
    #[error(transparent)]
    Data(#[from] DataError),
    /// Training data without a single usable position.
    #[error("{0}")]
    NoData(String),
    #[error("{}: {what}: {error}", path.display())]
    Io {
        path: PathBuf,
        what: &'static str,
        error: std::io::Error,
    },
    /// A checkpoint that cannot be resumed from.
    #[error("{}: {problem}", path.display())]
    Checkpoint { path: PathBuf, problem: String },
    /// An `--init-net` file that does not fit the run (a file of another
    /// architecture, or a parameter that cannot be represented).
    #[error("{}: {problem}", path.display())]
    InitNet { path: PathBuf, problem: String },
    /// The export would not be a faithful quantization of the float model.
    #[error("export: {0}")]
    Export(String),
    /// Training stopped early (Ctrl-C); says what was saved.
    #[error("interrupted: {0}")]
    Interrupted(String),
}

impl LearnError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, what: &'static str, error: std::io::Error) -> LearnError {
        LearnError::Io {
            path: path.into(),
            what,
            error,
        }
    }

    /// The process exit code: 2 for usage errors (bad options, an unknown feature
    /// set, an architecture a `.nnue` file cannot hold), 1 for every other failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            LearnError::Usage(_) | LearnError::FeatureSet(_) | LearnError::Architecture(_) => 2,
            _ => 1,
        }
    }
}

//! Everything that can stop `nnue-learn`, each printable as one line that names
//! the file, the position in it and the problem.

use std::path::PathBuf;

use nnue_core::cli::exit;
use nnue_core::data::DataError;
use nnue_core::features::FeatureSetError;
use nnue_core::nnue::{ArchitectureError, NetworkError, RangeError};
use nnue_core::output::OutputError;

use crate::checkpoint::codec::CodecError;
use crate::model::load::InitNetError;
use crate::train::divergence::DivergenceError;

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
    /// An output path the output rule refuses, or a write that failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// Training data without a single usable position.
    #[error("{0}")]
    NoData(String),
    /// `--loss pqr` on data that is not in game order.
    #[error(transparent)]
    GameOrder(#[from] crate::pqr::GameOrderError),
    #[error("{}: {what}: {error}", path.display())]
    Io {
        path: PathBuf,
        what: &'static str,
        error: std::io::Error,
    },
    /// A checkpoint that cannot be read.
    #[error("{}: cannot --resume: {problem}", path.display())]
    Checkpoint { path: PathBuf, problem: CodecError },
    /// A checkpoint written by a run with other settings than this command line.
    #[error("{}: cannot --resume: {}{}", path.display(), differences.join("; "), if *forceable { " (--force resumes anyway)" } else { "" })]
    ResumeMismatch {
        path: PathBuf,
        differences: Vec<String>,
        /// Whether `--force` would accept the differences (not so for the
        /// model's shape or the optimizer, whose saved state would not fit).
        forceable: bool,
    },
    /// An `--init-net` file that does not fit the run (a file of another
    /// architecture, or a parameter that cannot be represented).
    #[error("{}: {problem}", path.display())]
    InitNet {
        path: PathBuf,
        problem: InitNetError,
    },
    /// The trained net's evaluation could leave the engine's range (it would
    /// be refused when loaded); nothing is written.
    #[error("{}: {error}; not written (lower --lr?)", path.display())]
    Range { path: PathBuf, error: RangeError },
    /// A net that the asked layout cannot hold (`export --layout raw` of a
    /// net with hidden layers or another feature set).
    #[error("{}: {error}", path.display())]
    RawLayout {
        path: PathBuf,
        error: nnue_core::nnue::raw::RawLayoutError,
    },
    /// The run diverged; nothing of the diverged weights was saved.
    #[error("training diverged: {0}; stopped without saving these weights (files saved before are kept)")]
    Diverged(#[from] DivergenceError),
    /// Training stopped early (Ctrl-C, SIGTERM, the testing hook): not an
    /// error, the run did what was asked; `main` prints it as a stop, with the
    /// signal, and exits 130 or 143.
    #[error("{}", match saved_in {
        Some(dir) => format!("checkpoint saved in {}; continue with --resume", dir.display()),
        None => "no --checkpoint-dir, nothing saved to resume from".to_string(),
    })]
    Interrupted {
        /// The checkpoint directory, when a checkpoint was saved.
        saved_in: Option<PathBuf>,
    },
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

    /// The process exit status: [`exit::USAGE`] for usage errors (bad options,
    /// an unknown feature set, an architecture a `.nnue` file cannot hold, an
    /// output the output rule refuses), [`exit::INTERRUPTED`] for a run stopped
    /// without a signal (the testing hook), [`exit::FAILURE`] for every other
    /// failure. A run stopped by a signal exits with that signal's status, which
    /// the caller knows.
    pub fn exit_code(&self) -> u8 {
        match self {
            LearnError::Usage(_) | LearnError::FeatureSet(_) | LearnError::Architecture(_) => {
                exit::USAGE
            }
            LearnError::Output(e) if e.is_usage() => exit::USAGE,
            LearnError::Interrupted { .. } => exit::INTERRUPTED,
            _ => exit::FAILURE,
        }
    }
}

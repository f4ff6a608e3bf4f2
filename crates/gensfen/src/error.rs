//! Errors of the `nnue-gen-sfen` subcommands, each printable as one line.

use std::path::PathBuf;

use nnue_core::data::DataError;
use thiserror::Error;

/// Why a subcommand failed.
#[derive(Debug, Error)]
pub enum CliError {
    /// Reading, validating or writing training data failed.
    #[error("{0}")]
    Data(#[from] DataError),
    /// Input and output are the same file.
    #[error("{0}: input and output are the same file")]
    SameFile(PathBuf),
    /// A subcommand argument is unusable.
    #[error("{0}")]
    Usage(String),
}

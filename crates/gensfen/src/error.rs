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
    /// The file name does not end in `.bin` or `.plain`.
    #[error("{0}: unsupported extension (expected .bin or .plain)")]
    UnsupportedExtension(PathBuf),
    /// Input and output are the same file.
    #[error("{0}: input and output are the same file")]
    SameFile(PathBuf),
    /// A subcommand argument is unusable.
    #[error("{0}")]
    Usage(String),
    /// `generate` or `shuffle` failed.
    #[error("{0}")]
    Generate(#[from] crate::generate::error::GenerateError),
}

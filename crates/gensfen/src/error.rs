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
    /// An output path breaks the output rule, or writing it failed.
    #[error("{0}")]
    Output(#[from] nnue_core::output::OutputError),
    /// `generate` or `shuffle` failed.
    #[error("{0}")]
    Generate(#[from] crate::generate::error::GenerateError),
}

impl CliError {
    /// The process exit status for this error: 2 for a usage error, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Data(DataError::UnsupportedExtension(_))
            | CliError::SameFile(_)
            | CliError::Usage(_) => EXIT_USAGE,
            CliError::Generate(g) if g.is_usage() => EXIT_USAGE,
            CliError::Output(o) if o.is_usage() => EXIT_USAGE,
            _ => EXIT_FAILURE,
        }
    }
}

/// Exit status of a failed command (bad data, I/O).
pub const EXIT_FAILURE: u8 = 1;
/// Exit status of a command line that cannot be run as written.
pub const EXIT_USAGE: u8 = 2;

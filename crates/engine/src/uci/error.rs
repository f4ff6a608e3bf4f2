//! Errors in commands from the GUI. None of them stops the engine: each becomes an
//! `info string error: ...` line and the engine keeps a consistent state (its previous
//! one, or for a bad move in `position ... moves` the position before that move). In
//! the command-line mode (`nnue perft x`) the error goes to stderr as
//! `nnue: error: ...` with an exit status.

use nnue_core::cli::exit;
use thiserror::Error;

use super::go::GoError;
use super::number::ArgRange;

/// Why a UCI command was rejected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum UciError {
    #[error("unknown command '{0}' (type 'help' for the list)")]
    UnknownCommand(String),
    #[error("position: {0}")]
    Position(String),
    /// A `go` whose arguments cannot be run as written.
    #[error("go: {0}")]
    GoArgument(#[from] GoError),
    /// A `go` that could not start its search.
    #[error("go: {0}")]
    Go(String),
    /// A `setoption` that failed (a net that did not load, a table that could
    /// not be allocated).
    #[error("setoption: {0}")]
    SetOption(String),
    /// A `setoption` that cannot be run as written (no such option, a value out
    /// of range or of the wrong type).
    #[error("setoption: {0}")]
    SetOptionArgument(String),
    /// An integer argument outside its range, or not an integer.
    #[error("{command}: {what} '{text}' is not a number in {range}")]
    Number {
        command: &'static str,
        what: &'static str,
        text: String,
        range: ArgRange,
    },
    #[error("{command}: {problem}")]
    Argument {
        command: &'static str,
        problem: String,
    },
    #[error("{0} ignored while a search is running (send 'stop' first)")]
    Busy(String),
}

impl UciError {
    /// The exit status when this error ends a command-line run (`nnue perft x`):
    /// [`exit::USAGE`] for a command that cannot be run as written,
    /// [`exit::FAILURE`] for one that failed.
    pub fn exit_code(&self) -> u8 {
        match self {
            UciError::UnknownCommand(_)
            | UciError::Position(_)
            | UciError::GoArgument(_)
            | UciError::SetOptionArgument(_)
            | UciError::Number { .. }
            | UciError::Argument { .. } => exit::USAGE,
            UciError::Go(_) | UciError::SetOption(_) | UciError::Busy(_) => exit::FAILURE,
        }
    }
}

//! Errors in commands from the GUI. None of them stops the engine: each becomes an
//! `info string error: ...` line and the engine keeps a consistent state (its previous
//! one, or for a bad move in `position ... moves` the position before that move). In
//! the command-line mode (`nnue perft x`) the error goes to stderr as
//! `nnue: error: ...` with an exit status.

use thiserror::Error;

/// Why a UCI command was rejected.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum UciError {
    #[error("unknown command '{0}' (type 'help' for the list)")]
    UnknownCommand(String),
    #[error("position: {0}")]
    Position(String),
    #[error("go: {0}")]
    Go(String),
    #[error("setoption: {0}")]
    SetOption(String),
    #[error("{command}: {problem}")]
    Argument { command: String, problem: String },
    #[error("{0} ignored while a search is running (send 'stop' first)")]
    Busy(String),
}

/// Exit status of a command-line run that failed (`nnue setoption ...` that could
/// not load a net, a search that could not start).
pub const EXIT_FAILURE: u8 = 1;
/// Exit status of a command line that cannot be run as written.
pub const EXIT_USAGE: u8 = 2;

impl UciError {
    /// The exit status when this error ends a command-line run (`nnue perft x`):
    /// 2 for a command that cannot be run as written, 1 for one that failed.
    pub fn exit_code(&self) -> u8 {
        match self {
            UciError::UnknownCommand(_) | UciError::Position(_) | UciError::Argument { .. } => {
                EXIT_USAGE
            }
            UciError::Go(_) | UciError::SetOption(_) | UciError::Busy(_) => EXIT_FAILURE,
        }
    }
}

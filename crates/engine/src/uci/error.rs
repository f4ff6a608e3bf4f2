//! Errors in commands from the GUI. None of them stops the engine: each becomes an
//! `info string error: ...` line and the engine keeps its previous, consistent state.

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

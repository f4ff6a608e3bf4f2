//! Conventions that the three programs (`nnue`, `nnue-gen-sfen`, `nnue-learn`)
//! share on their command lines, so that scripts can treat them alike: the
//! exit statuses ([`exit`]), every error as one `<program>: error: <what>`
//! line on standard error ([`Program`]) quoting file text on one line
//! ([`quote::one_line`]), and what Ctrl-C and SIGTERM do ([`StopSignal`]).

pub mod exit;
mod program;
pub mod quote;
mod stop;
pub mod words;

pub use program::Program;
pub use stop::StopSignal;

//! Files the programs write, under one rule for all of them: an output that is
//! also an input is refused, an existing output is refused unless the user
//! says `--force` (or `--append` where a command can add to a file), every
//! output path is checked before the work starts, and a file appears under its
//! final name only once it is complete. A user's data is never destroyed by a
//! mistyped command line, and hours of work never end in "cannot write".

mod atomic;
mod check;
mod error;

pub use atomic::{write_atomic, AtomicOutput};
pub use check::{OutputCheck, OutputMode};
pub use error::OutputError;

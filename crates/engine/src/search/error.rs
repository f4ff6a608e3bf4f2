//! Errors of the search library.

use std::collections::TryReserveError;

use thiserror::Error;

/// Why the transposition table could not be (re)allocated.
#[derive(Debug, Error)]
pub enum HashError {
    /// The machine did not give us the memory; the caller keeps a 1 MiB table.
    #[error("cannot allocate a {mb} MiB hash table ({source}); using 1 MiB")]
    Alloc {
        mb: usize,
        #[source]
        source: TryReserveError,
    },
    /// The system refused the table's memory mapping; the caller keeps a 1 MiB table.
    #[error("cannot map a {mb} MiB hash table ({source}); using 1 MiB")]
    Map {
        mb: usize,
        #[source]
        source: std::io::Error,
    },
}

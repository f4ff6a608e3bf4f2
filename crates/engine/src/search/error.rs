//! Errors of the search library.

use thiserror::Error;

/// Why the transposition table could not be (re)allocated.
#[derive(Debug, Error)]
pub enum HashError {
    /// The system refused the table's memory mapping; the caller keeps a 1 MiB table.
    #[error("cannot map a {mb} MiB hash table ({source}); using 1 MiB")]
    Map {
        mb: usize,
        #[source]
        source: std::io::Error,
    },
}

//! Exit statuses, the same for the same condition in every program.

/// The command did what it was asked.
pub const SUCCESS: u8 = 0;
/// The command could not be done: bad or unreadable data, a file that is not
/// what it should be, a failed write, a diverged training run.
pub const FAILURE: u8 = 1;
/// The command line cannot be run as written: an unknown command or option, a
/// value out of range, an unsupported file extension, an output the rule
/// refuses (an input, or an existing file without `--force`).
pub const USAGE: u8 = 2;
/// Stopped by SIGINT (Ctrl-C) after saving what it had (128 + 2, as shells report).
pub const INTERRUPTED: u8 = 130;
/// Stopped by SIGTERM (a scheduler's pre-emption) after saving what it had (128 + 15).
pub const TERMINATED: u8 = 143;

/// What stopped a job that exits with `status`, for its last line: the signal
/// ("Ctrl-C (SIGINT)", "SIGTERM"), or `None` for any other status.
pub fn stopped_by(status: u8) -> Option<&'static str> {
    match status {
        INTERRUPTED => Some("Ctrl-C (SIGINT)"),
        TERMINATED => Some("SIGTERM"),
        _ => None,
    }
}

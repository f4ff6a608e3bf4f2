//! What Ctrl-C and SIGTERM do in a long job: the first asks the job to stop
//! and save what it has (generated games, a training checkpoint), the second
//! SIGINT ends the process at once. The job then exits with the status of the
//! signal that stopped it ([`exit::INTERRUPTED`] or [`exit::TERMINATED`]), so a
//! script can tell a finished run from an interrupted one.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;

use super::exit;

/// A stop request shared between a signal listener and the job's threads.
#[derive(Debug, Clone, Default)]
pub struct StopSignal {
    stop: Arc<AtomicBool>,
    /// The exit status of the first signal received, 0 while none was.
    status: Arc<AtomicU8>,
}

impl StopSignal {
    /// A flag that only [`StopSignal::request`] sets (tests, library use).
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Listens for SIGINT and SIGTERM on a thread of its own. Without signal
    /// support the flag is still usable; the job just cannot be stopped early.
    pub fn install() -> StopSignal {
        let signal = StopSignal::new();
        listen(signal.clone());
        signal
    }

    /// Asks the job to stop as if `status`' signal had come.
    pub fn request(&self, status: u8) {
        let _ = self
            .status
            .compare_exchange(0, status, Ordering::SeqCst, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that polls an `AtomicBool`.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// The exit status the process should end with: that of the first signal,
    /// or `None` when no signal came (a stop requested by the program itself).
    pub fn exit_status(&self) -> Option<u8> {
        match self.status.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

#[cfg(unix)]
fn listen(signal: StopSignal) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        for number in signals.forever() {
            let status = if number == SIGTERM {
                exit::TERMINATED
            } else {
                exit::INTERRUPTED
            };
            if signal.requested() && number == SIGINT {
                // A second Ctrl-C: the user does not want to wait for the save.
                std::process::exit(i32::from(status));
            }
            signal.request(status);
        }
    });
}

#[cfg(not(unix))]
fn listen(_: StopSignal) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_signal_decides_the_exit_status() {
        let signal = StopSignal::new();
        assert!(!signal.requested());
        assert_eq!(signal.exit_status(), None);
        signal.request(exit::TERMINATED);
        signal.request(exit::INTERRUPTED);
        assert!(signal.requested());
        assert_eq!(signal.exit_status(), Some(exit::TERMINATED));
    }
}

//! The progress of a training run on standard error: indicatif's bar on a
//! terminal; on a pipe or a log file (nohup, a cluster's job log), where a bar
//! draws nothing, a plain line every [`LOG_EVERY`] instead, so that the log of a
//! long run shows it moving (as `nnue-gen-sfen generate` does).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Interval of the plain progress lines.
pub const LOG_EVERY: Duration = Duration::from_secs(30);
const TEMPLATE: &str = "{bar:40} {human_pos}/{human_len} positions, {per_sec}, ETA {eta}";

/// The run's progress display.
pub struct Progress {
    bar: ProgressBar,
    log: Option<Log>,
}

/// The plain lines' state.
struct Log {
    every: Duration,
    start: Instant,
    last: Instant,
    /// Positions done when this invocation started (a resumed run's rate
    /// counts from there).
    first: u64,
    done: u64,
    total: u64,
}

impl Progress {
    /// The display of a run of `total` positions of which `done` are done;
    /// nothing unless `shown`, plain lines every `every` when standard error
    /// is not a terminal.
    pub fn new(total: u64, done: u64, shown: bool, every: Duration) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let target = if shown && terminal {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        bar.set_style(
            ProgressStyle::with_template(TEMPLATE).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_position(done);
        // A resumed run's rate and ETA count from now, not from position 0.
        bar.reset_eta();
        let now = Instant::now();
        let log = (shown && !terminal).then_some(Log {
            every,
            start: now,
            last: now,
            first: done,
            done,
            total,
        });
        Progress { bar, log }
    }

    /// Counts `n` more positions trained.
    pub fn inc(&mut self, n: u64) {
        self.bar.inc(n);
        if let Some(log) = &mut self.log {
            log.done += n;
            if log.last.elapsed() >= log.every {
                log.last = Instant::now();
                eprintln!("{}", log.line());
            }
        }
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }
}

impl Log {
    /// `positions D of T (P %), R positions/s, E s, about L s left`.
    fn line(&self) -> String {
        let elapsed = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = (self.done - self.first) as f64 / elapsed;
        let left = self.total.saturating_sub(self.done);
        let eta = if rate > 0.0 {
            format!("about {:.0} s left", left as f64 / rate)
        } else {
            "time left unknown".to_string()
        };
        format!(
            "positions {} of {} ({:.1} %), {:.0} positions/s, {:.0} s, {eta}",
            self.done,
            self.total,
            100.0 * self.done as f64 / self.total.max(1) as f64,
            rate,
            elapsed
        )
    }
}

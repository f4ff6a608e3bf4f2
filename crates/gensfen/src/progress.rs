//! Progress while generating: an indicatif bar (positions, positions/s, games, ETA)
//! on a terminal; on a pipe or log file (Slurm, nohup) a line every
//! [`LOG_EVERY`] instead, like Stockfish's "N sfens, X sfens/second" reports.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Interval of the plain-text progress lines.
const LOG_EVERY: Duration = Duration::from_secs(30);
const TEMPLATE: &str =
    "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} positions {rate} ETA {eta} {msg}";

/// The run's progress display.
pub enum Progress {
    Hidden,
    Bar(ProgressBar),
    Log { start: Instant, last: Instant },
}

impl Progress {
    /// A display for a run of `total` records (nothing with `quiet`).
    pub fn new(total: u64, quiet: bool) -> Progress {
        if quiet {
            return Progress::Hidden;
        }
        if !std::io::stderr().is_terminal() {
            let now = Instant::now();
            return Progress::Log {
                start: now,
                last: now,
            };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            )
            .progress_chars("=> ");
        bar.set_style(style);
        Progress::Bar(bar)
    }

    /// `positions` written so far in `games` games.
    pub fn update(&mut self, positions: u64, games: u64) {
        self.report(positions, Some(games));
    }

    /// `positions` done so far, for jobs without games (`rescore`).
    pub fn update_count(&mut self, positions: u64) {
        self.report(positions, None);
    }

    fn report(&mut self, positions: u64, games: Option<u64>) {
        match self {
            Progress::Hidden => {}
            Progress::Bar(bar) => {
                // The message first: setting the position redraws (rate-limited).
                if let Some(games) = games {
                    bar.set_message(format!("{games} games"));
                }
                bar.set_position(positions);
            }
            Progress::Log { start, last } => {
                if last.elapsed() >= LOG_EVERY {
                    *last = Instant::now();
                    let secs = start.elapsed().as_secs_f64();
                    let games = games.map_or(String::new(), |g| format!(", {g} games"));
                    eprintln!(
                        "{positions} positions{games}, {:.0} positions/s, {:.0} s",
                        positions as f64 / secs.max(1e-9),
                        secs
                    );
                }
            }
        }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

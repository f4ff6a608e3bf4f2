//! Progress of a long job (`generate`, `rescore`): an indicatif bar (positions,
//! positions/s, games, ETA) on a terminal; on a pipe or log file (Slurm, nohup)
//! a line every [`LOG_EVERY`] instead, like Stockfish's "N sfens, X
//! sfens/second" reports. Rates are whole positions a second everywhere
//! ([`per_second`]): a fraction of a position is noise, not information.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Interval of the plain-text progress lines.
const LOG_EVERY: Duration = Duration::from_secs(30);
const TEMPLATE: &str =
    "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} positions {rate} ETA {eta} {msg}";

/// `count` items over `elapsed`, rounded to a whole number a second (0 for
/// no time at all).
pub fn per_second(count: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return 0;
    }
    (count as f64 / secs).round() as u64
}

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
                    let _ = write!(w, "{}/s", state.per_sec().max(0.0).round() as u64);
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
                    let elapsed = start.elapsed();
                    let games = games.map_or(String::new(), |g| format!(", {g} games"));
                    eprintln!(
                        "{positions} positions{games}, {} positions/s, {} s",
                        per_second(positions, elapsed),
                        elapsed.as_secs()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_whole_positions_a_second() {
        assert_eq!(per_second(1000, Duration::from_secs(3)), 333);
        assert_eq!(per_second(2000, Duration::from_secs(3)), 667);
        assert_eq!(per_second(7, Duration::from_millis(500)), 14);
        assert_eq!(per_second(5, Duration::ZERO), 0);
    }
}

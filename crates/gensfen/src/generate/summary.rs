//! Counts of one run, shown live by the progress bar and printed at the end.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use nnue_core::packed::GameResult;

use super::continuation::Continuation;
use super::game::{Game, GameEnd};
use super::opening;

/// What a run produced.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    pub output: PathBuf,
    /// The seed the games came from.
    pub seed: u64,
    /// Set when the run appended to data already in its file: the games came
    /// from a seed mixed from `--seed` and the file's length.
    pub continuation: Option<Continuation>,
    /// Games that ended by the rules or adjudication.
    pub games: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Plies of those games, for the mean.
    pub plies: u64,
    /// Games by how they ended (discarded ones included).
    pub ends: BTreeMap<GameEnd, u64>,
    /// Records written.
    pub positions: u64,
    pub elapsed: Duration,
    /// The run drew random openings (`--random-opening-plies`): print their counts.
    pub random_openings: bool,
    /// Random openings rejected by the verification search (or ending the game
    /// on the way), over the games the writer took.
    pub opening_rejections: u64,
    /// Games that found no passing opening and started from the base position.
    pub opening_fallbacks: u64,
    /// Stopped by Ctrl-C / SIGTERM or `--max-time-*` before `--loop` was reached.
    pub interrupted: bool,
}

impl Summary {
    /// Counts a game the writer received.
    pub fn add_game(&mut self, game: &Game) {
        *self.ends.entry(game.end).or_default() += 1;
        self.opening_rejections += u64::from(game.opening_rejections);
        self.opening_fallbacks += u64::from(game.opening_fallback);
        let Some(result) = game.white_result else {
            return;
        };
        self.games += 1;
        self.plies += game.plies as u64;
        match result {
            GameResult::Win => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.black_wins += 1,
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let pct = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        writeln!(
            f,
            "{} positions in {:.1} s ({} positions/s) -> {}{}",
            self.positions,
            secs,
            crate::progress::per_second(self.positions, self.elapsed),
            self.output.display(),
            if self.interrupted {
                " (stopped early)"
            } else {
                ""
            }
        )?;
        writeln!(
            f,
            "games: {}, white wins {} ({:.1}%), draws {} ({:.1}%), black wins {} ({:.1}%), mean plies {:.1}",
            self.games,
            self.white_wins,
            pct(self.white_wins),
            self.draws,
            pct(self.draws),
            self.black_wins,
            pct(self.black_wins),
            self.plies as f64 / self.games.max(1) as f64
        )?;
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(end, n)| format!("{} {n}", end.name()))
            .collect();
        writeln!(f, "game ends: {}", ends.join(", "))?;
        if self.random_openings {
            writeln!(
                f,
                "random openings: {} rejected, {} games from the base position after {} rejections",
                self.opening_rejections,
                self.opening_fallbacks,
                opening::OPENING_ATTEMPTS_MAX
            )?;
        }
        match self.continuation {
            Some(c) => write!(
                f,
                "seed: {} (continuing {} bytes already in the file: games from seed {})",
                c.given, c.bytes, self.seed
            ),
            None => write!(f, "seed: {}", self.seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_gives_a_whole_rate_and_says_when_stopped_early() {
        let summary = Summary {
            output: PathBuf::from("x.bin"),
            positions: 1000,
            elapsed: Duration::from_secs(3),
            interrupted: true,
            ..Summary::default()
        };
        let text = summary.to_string();
        assert_eq!(
            text.lines().next(),
            Some("1000 positions in 3.0 s (333 positions/s) -> x.bin (stopped early)")
        );
    }
}

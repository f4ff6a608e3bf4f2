//! Win and draw adjudication by score over consecutive plies
//! (`--adjudicate-win SCORE:PLIES`, `--adjudicate-draw SCORE:PLIES:FROM`), as
//! OpenBench, Stormphrax and Viridithas end their data games: once the search
//! has agreed for long enough that a game is decided, or dead equal, playing
//! it out costs time and adds only more positions of the same kind.
//!
//! Both are off by default, so the Stockfish tools' rules (and every seeded
//! output) stay as they were. Scores are the game's own searches, one per ply,
//! alternately from each side's view; the streaks here turn them into one
//! side's view before comparing.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;
use thiserror::Error;

use super::options::EVAL_LIMIT_MAX;

/// Longest streak and latest first ply: a record's ply is a 16-bit field, so a
/// game never gets further.
pub const ADJUDICATION_PLIES_MAX: u32 = u16::MAX as u32;

/// `--adjudicate-win` text that is not `SCORE:PLIES` in range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "'{0}' is not a win adjudication: expected SCORE:PLIES with 1 <= SCORE <= {EVAL_LIMIT_MAX} \
     and 1 <= PLIES <= {ADJUDICATION_PLIES_MAX}, e.g. 1000:8"
)]
pub struct WinAdjudicationError(String);

/// `--adjudicate-draw` text that is not `SCORE:PLIES:FROM` in range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "'{0}' is not a draw adjudication: expected SCORE:PLIES:FROM with 0 <= SCORE <= {EVAL_LIMIT_MAX}, \
     1 <= PLIES <= {ADJUDICATION_PLIES_MAX} and 0 <= FROM <= {ADJUDICATION_PLIES_MAX}, e.g. 10:10:40"
)]
pub struct DrawAdjudicationError(String);

/// A game is won for a side once its searches' scores, from that side's view,
/// are at least `score` for `plies` consecutive plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinAdjudication {
    /// Internal units (a pawn is about 208).
    pub score: i32,
    pub plies: u32,
}

/// A game is drawn once `|score|` stays at most `score` for `plies`
/// consecutive plies, all at ply `from_ply` or later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Internal units.
    pub score: i32,
    pub plies: u32,
    pub from_ply: u32,
}

/// The `:`-separated unsigned numbers of `text`, exactly `N` of them.
fn fields<const N: usize>(text: &str) -> Option<[u32; N]> {
    let mut out = [0u32; N];
    let mut parts = text.split(':');
    for slot in &mut out {
        *slot = parts.next()?.trim().parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// A score bound within `min..=EVAL_LIMIT_MAX`.
fn score_in(value: u32, min: i32) -> Option<i32> {
    i32::try_from(value)
        .ok()
        .filter(|v| (min..=EVAL_LIMIT_MAX).contains(v))
}

/// A streak length or ply within `min..=ADJUDICATION_PLIES_MAX`.
fn plies_in(value: u32, min: u32) -> Option<u32> {
    (min..=ADJUDICATION_PLIES_MAX)
        .contains(&value)
        .then_some(value)
}

impl FromStr for WinAdjudication {
    type Err = WinAdjudicationError;

    /// `SCORE:PLIES`.
    fn from_str(text: &str) -> Result<WinAdjudication, WinAdjudicationError> {
        let parsed = fields::<2>(text).and_then(|[score, plies]| {
            Some(WinAdjudication {
                score: score_in(score, 1)?,
                plies: plies_in(plies, 1)?,
            })
        });
        parsed.ok_or_else(|| WinAdjudicationError(text.to_owned()))
    }
}

impl FromStr for DrawAdjudication {
    type Err = DrawAdjudicationError;

    /// `SCORE:PLIES:FROM`.
    fn from_str(text: &str) -> Result<DrawAdjudication, DrawAdjudicationError> {
        let parsed = fields::<3>(text).and_then(|[score, plies, from]| {
            Some(DrawAdjudication {
                score: score_in(score, 0)?,
                plies: plies_in(plies, 1)?,
                from_ply: plies_in(from, 0)?,
            })
        });
        parsed.ok_or_else(|| DrawAdjudicationError(text.to_owned()))
    }
}

impl fmt::Display for WinAdjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.score, self.plies)
    }
}

impl fmt::Display for DrawAdjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.score, self.plies, self.from_ply)
    }
}

/// What the streaks decided after a ply's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side has won.
    Win(Color),
    Draw,
}

/// The running streaks of one game. Each ply's search value (from the side to
/// move) is fed in order, the current ply's included, so with `PLIES` = N the
/// game ends at the N-th consecutive searched ply that meets the bound.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    win: Option<WinAdjudication>,
    draw: Option<DrawAdjudication>,
    /// Consecutive plies White's view has been at least the win bound.
    white_streak: u32,
    /// ... and Black's.
    black_streak: u32,
    /// Consecutive plies at or after `from_ply` within the draw bound.
    draw_streak: u32,
}

impl Adjudicator {
    pub fn new(win: Option<WinAdjudication>, draw: Option<DrawAdjudication>) -> Adjudicator {
        Adjudicator {
            win,
            draw,
            ..Adjudicator::default()
        }
    }

    /// Adds the search value `value` (from `turn`'s view) of the game's ply
    /// `ply`; returns the verdict once a streak is long enough (a draw before a
    /// win, though options that allow both at once are refused).
    pub fn observe(&mut self, ply: usize, turn: Color, value: i32) -> Option<Verdict> {
        let white_view = if turn == Color::White { value } else { -value };
        if let Some(draw) = self.draw {
            let counts = ply >= draw.from_ply as usize && value.abs() <= draw.score;
            self.draw_streak = if counts { self.draw_streak + 1 } else { 0 };
            if self.draw_streak >= draw.plies {
                return Some(Verdict::Draw);
            }
        }
        if let Some(win) = self.win {
            let step = |streak: u32, view: i32| if view >= win.score { streak + 1 } else { 0 };
            self.white_streak = step(self.white_streak, white_view);
            self.black_streak = step(self.black_streak, -white_view);
            if self.white_streak >= win.plies {
                return Some(Verdict::Win(Color::White));
            }
            if self.black_streak >= win.plies {
                return Some(Verdict::Win(Color::Black));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_parse_in_range_and_refuse_the_rest() {
        assert_eq!(
            "1000:8".parse(),
            Ok(WinAdjudication {
                score: 1000,
                plies: 8
            })
        );
        assert_eq!(
            "10:10:40".parse(),
            Ok(DrawAdjudication {
                score: 10,
                plies: 10,
                from_ply: 40
            })
        );
        assert_eq!(
            "0:1:0".parse::<DrawAdjudication>().map(|d| d.to_string()),
            Ok("0:1:0".to_owned())
        );
        for bad in [
            "",
            "1000",
            "0:8",
            "1000:0",
            "31999:8",
            "1000:8:1",
            "-5:8",
            "a:8",
            "1000:65536",
        ] {
            assert!(bad.parse::<WinAdjudication>().is_err(), "{bad}");
        }
        for bad in [
            "10:10",
            "10:0:40",
            "-1:10:40",
            "10:10:65536",
            "10:10:40:1",
            "x:1:1",
        ] {
            assert!(bad.parse::<DrawAdjudication>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_win_needs_the_same_side_ahead_on_consecutive_plies() {
        let win = WinAdjudication {
            score: 500,
            plies: 3,
        };
        let mut a = Adjudicator::new(Some(win), None);
        // White to move +600, Black to move -600 (White's view +600), ...
        assert_eq!(a.observe(10, Color::White, 600), None);
        assert_eq!(a.observe(11, Color::Black, -600), None);
        // ... a dip breaks the streak ...
        assert_eq!(a.observe(12, Color::White, 499), None);
        assert_eq!(a.observe(13, Color::Black, -500), None);
        assert_eq!(a.observe(14, Color::White, 700), None);
        assert_eq!(
            a.observe(15, Color::Black, -900),
            Some(Verdict::Win(Color::White))
        );
        // Black winning: positive scores with Black to move.
        let mut b = Adjudicator::new(Some(win), None);
        assert_eq!(b.observe(0, Color::Black, 800), None);
        assert_eq!(b.observe(1, Color::White, -800), None);
        assert_eq!(
            b.observe(2, Color::Black, 800),
            Some(Verdict::Win(Color::Black))
        );
    }

    #[test]
    fn a_draw_counts_only_plies_from_its_first_ply() {
        let draw = DrawAdjudication {
            score: 10,
            plies: 2,
            from_ply: 40,
        };
        let mut a = Adjudicator::new(None, Some(draw));
        assert_eq!(a.observe(38, Color::White, 0), None);
        assert_eq!(a.observe(39, Color::Black, 0), None);
        assert_eq!(a.observe(40, Color::White, -10), None);
        assert_eq!(a.observe(41, Color::Black, 11), None);
        assert_eq!(a.observe(42, Color::White, 10), None);
        assert_eq!(a.observe(43, Color::Black, -3), Some(Verdict::Draw));
    }
}

//! Verified random openings (`--random-opening-plies MIN-MAX`): the game's base
//! position (the start position or the book's) followed by N uniformly random
//! legal plies, N drawn from [MIN, MAX], kept only when a verification search
//! scores the result within `--opening-max-score`. Random plies alone reach
//! positions our own games never play; the check throws away the ones that are
//! already lost, which would only teach the net the obvious.

use std::fmt;
use std::str::FromStr;

use nnue_engine::eval::EvalKind;
use nnue_engine::search::{key, Limits, SearchContext, SearchControl, Searcher};
use shakmaty::{Chess, Position};
use thiserror::Error;

use crate::rng::GenRng;

/// Most random opening plies (a record's ply is a 16-bit field, and beyond this
/// random play is no longer an opening).
pub const OPENING_PLIES_MAX: u32 = 100;
/// Draws per game before giving up and playing from the base position itself:
/// enough that a sane bound almost never runs out, few enough that a bound no
/// opening meets costs a bounded time per game.
pub const OPENING_ATTEMPTS_MAX: u32 = 64;
/// Transposition table of the verification search, MiB. Cleared before every
/// check, so a score depends on the position alone (and on nothing the worker
/// searched before): a test recomputes it with a fresh `Searcher` of this size.
pub const OPENING_CHECK_HASH_MB: usize = 4;

/// Text that is not `MIN-MAX` (or `N`) with `MIN <= MAX <= 100`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a ply range: expected MIN-MAX with 0 <= MIN <= MAX <= {OPENING_PLIES_MAX}, e.g. 8-9")]
pub struct PlyRangeError(String);

/// An inclusive range of opening plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    pub min: u32,
    pub max: u32,
}

impl FromStr for PlyRange {
    type Err = PlyRangeError;

    /// `MIN-MAX`, or `N` for exactly N.
    fn from_str(text: &str) -> Result<PlyRange, PlyRangeError> {
        let bad = || PlyRangeError(text.to_owned());
        let (lo, hi) = text.split_once('-').unwrap_or((text, text));
        let min: u32 = lo.trim().parse().map_err(|_| bad())?;
        let max: u32 = hi.trim().parse().map_err(|_| bad())?;
        if min > max || max > OPENING_PLIES_MAX {
            return Err(bad());
        }
        Ok(PlyRange { min, max })
    }
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

/// The checked settings of `--random-opening-plies` and its verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomOpening {
    pub plies: PlyRange,
    /// Depth of the verification search.
    pub check_depth: u32,
    /// Largest |score| (internal units, side to move) an opening may have.
    pub max_score: i32,
}

/// Where a game starts.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the first search sees.
    pub position: Chess,
    /// Random plies played from the base position (the game's ply count starts here).
    pub plies: u32,
    /// Keys of the positions before `position` since the base, for repetitions.
    pub keys: Vec<u64>,
    /// Openings drawn and thrown away before this one.
    pub rejections: u32,
    /// No draw passed within [`OPENING_ATTEMPTS_MAX`]: `position` is the base.
    pub fallback: bool,
}

impl Opening {
    /// The base position itself (no random plies).
    pub fn plain(base: &Chess) -> Opening {
        Opening {
            position: base.clone(),
            plies: 0,
            keys: Vec::new(),
            rejections: 0,
            fallback: false,
        }
    }
}

/// A worker's verification search: its own one-thread searcher, so checking
/// openings leaves the game searcher's table and histories as they were.
pub struct OpeningChecker {
    settings: RandomOpening,
    searcher: Searcher,
}

impl OpeningChecker {
    /// A checker evaluating with `eval` (the games' evaluation).
    pub fn new(settings: RandomOpening, eval: &EvalKind) -> OpeningChecker {
        let mut searcher = Searcher::new(OPENING_CHECK_HASH_MB, 1);
        searcher.set_eval(eval.clone());
        OpeningChecker { settings, searcher }
    }

    /// The verification score of `pos` from its side to move: a search of the
    /// check depth from an empty table and empty histories.
    pub fn score(&mut self, pos: &Chess, control: &SearchControl) -> i32 {
        self.searcher.clear();
        let limits = Limits {
            depth: Some(self.settings.check_depth),
            ..Limits::default()
        };
        let context = SearchContext {
            control: Some(control),
            ..SearchContext::default()
        };
        self.searcher.search_with(pos, &limits, context).value
    }

    /// Draws openings from `base` with `rng` until one passes the check, at most
    /// [`OPENING_ATTEMPTS_MAX`] times; then the base position itself.
    pub fn draw(&mut self, base: &Chess, rng: &mut GenRng, control: &SearchControl) -> Opening {
        let PlyRange { min, max } = self.settings.plies;
        for rejections in 0..OPENING_ATTEMPTS_MAX {
            let plies = min + rng.below(u64::from(max - min + 1)) as u32;
            let Some((position, keys)) = random_plies(base, plies, rng) else {
                continue;
            };
            if self.score(&position, control).abs() <= self.settings.max_score {
                return Opening {
                    position,
                    plies,
                    keys,
                    rejections,
                    fallback: false,
                };
            }
        }
        Opening {
            rejections: OPENING_ATTEMPTS_MAX,
            fallback: true,
            ..Opening::plain(base)
        }
    }
}

/// `plies` uniformly random legal moves from `base`, with the keys of the
/// positions passed; `None` when the game ends on the way or at the end (no
/// legal move: such an opening has nothing to search).
fn random_plies(base: &Chess, plies: u32, rng: &mut GenRng) -> Option<(Chess, Vec<u64>)> {
    let mut pos = base.clone();
    let mut keys = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        keys.push(key(&pos));
        pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    (!pos.legal_moves().is_empty()).then_some((pos, keys))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges_parse_and_reject() {
        assert_eq!("8-9".parse(), Ok(PlyRange { min: 8, max: 9 }));
        assert_eq!("12".parse(), Ok(PlyRange { min: 12, max: 12 }));
        assert_eq!("0-100".parse(), Ok(PlyRange { min: 0, max: 100 }));
        assert_eq!("8-9".parse::<PlyRange>().unwrap().to_string(), "8-9");
        for bad in ["9-8", "0-101", "-1-3", "a-b", "", "8-", "3-4-5"] {
            assert_eq!(
                bad.parse::<PlyRange>(),
                Err(PlyRangeError(bad.to_owned())),
                "{bad}"
            );
        }
        assert_eq!(
            PlyRangeError("9-8".to_owned()).to_string(),
            "'9-8' is not a ply range: expected MIN-MAX with 0 <= MIN <= MAX <= 100, e.g. 8-9"
        );
    }

    #[test]
    fn random_plies_play_exactly_that_many_legal_moves() {
        let mut rng = GenRng::new(7);
        let (pos, keys) = random_plies(&Chess::default(), 9, &mut rng).unwrap();
        assert_eq!(keys.len(), 9);
        assert_eq!(keys[0], key(&Chess::default()));
        // Ply 9 from the start: Black to move in move 5.
        assert_eq!(pos.turn(), shakmaty::Color::Black);
        assert_eq!(pos.fullmoves().get(), 5);
        // Mated or stalemated on the way or at the end: no opening.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position::<Chess>(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert!(random_plies(&mated, 0, &mut rng).is_none());
        assert!(random_plies(&mated, 3, &mut rng).is_none());
    }
}

//! Search values: internal units, with mate scores encoded as distance from the root
//! so that shorter mates are preferred, and how they are reported over UCI.

use crate::value::PAWN_VALUE_EG;
pub use crate::value::{DRAW, EVAL_MAX, INFINITE, MATE, MATE_BOUND, MAX_PLY};

/// A score as UCI prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (internal units * 100 / 208).
    Cp(i32),
    /// Mate in this many moves: positive when the side to move mates.
    Mate(i32),
}

impl Score {
    /// Converts an internal value from the side to move's view.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v * 100 / PAWN_VALUE_EG)
        }
    }
}

/// Whether the value is exact, or only a bound from a failed aspiration search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Mate values are stored relative to the node in the transposition table (the
/// same position can be reached at different plies).
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Inverse of [`to_tt`].
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_scores() {
        assert_eq!(Score::from_value(208), Score::Cp(100));
        assert_eq!(Score::from_value(-104), Score::Cp(-50));
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(-MATE), Score::Mate(0));
        assert_eq!(Score::from_value(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(from_tt(to_tt(MATE - 5, 3), 3), MATE - 5);
    }
}

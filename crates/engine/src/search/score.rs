//! Search values: internal units, with mate scores encoded as distance from the root
//! so that shorter mates are preferred, and how they are reported over UCI.

use crate::eval::PAWN_VALUE_EG;

/// Deepest ply the search goes (also bounds the mate distance).
pub const MAX_PLY: usize = 128;
/// Value of delivering mate now; mate in n plies is `MATE - n`.
pub const MATE: i32 = 32000;
/// Bigger than any value.
pub const INFINITE: i32 = 32001;
/// Values at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// Largest static evaluation: every evaluation is clamped to +-EVAL_MAX, so a young
/// or random net can never produce a mate score, and every value fits the table's
/// 16-bit fields.
pub const EVAL_MAX: i32 = MATE_BOUND - 1;

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

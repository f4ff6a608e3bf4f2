//! Correction history: how far the search's results at positions with this pawn
//! structure have come out from their static evaluation, as a running average per
//! side to move, added to later static evaluations of the same structure.
//!
//! A net (or the classical evaluation) misjudges some pawn structures consistently:
//! a blocked centre, a passed pawn it underrates. Pruning compares the static value
//! with alpha and beta (reverse futility, null move, futility), so a systematic
//! error there prunes the wrong nodes. The search itself measures the error at
//! every node it completes; the table remembers it by pawn structure (Stockfish,
//! Stormphrax and most modern engines keep such a table).

use shakmaty::{Board, Color};

use super::params::{CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_MAX_WEIGHT, CORRECTION_SIZE};

/// The weights of the running average: a new measurement enters with weight
/// `depth + 1` (at most [`CORRECTION_MAX_WEIGHT`]) out of this.
const WEIGHT_SCALE: i32 = 256;

/// Corrections by side to move and pawn-structure hash, in 1/[`CORRECTION_GRAIN`]
/// internal units. Stored as `i16` (an entry is a weighted average of targets
/// within +-[`CORRECTION_MAX`] x [`CORRECTION_GRAIN`], which `i16` holds), so the
/// table is 64 KiB: every node reads it, and at 128 KiB its loads missed the
/// cache often enough to show in profiles. Arithmetic is done in `i32`.
pub(crate) struct Correction {
    table: Box<[[i16; CORRECTION_SIZE]; 2]>,
}

const _: () = assert!(
    CORRECTION_MAX * CORRECTION_GRAIN <= i16::MAX as i32,
    "correction entries are i16"
);

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: Box::new([[0; CORRECTION_SIZE]; 2]),
        }
    }
}

/// A hash of the pawns of both sides (where they stand, which side owns each).
#[inline]
pub(crate) fn pawn_key(board: &Board) -> u64 {
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(32);
    h ^ (h >> 29)
}

#[inline]
fn slot(key: u64) -> usize {
    (key % CORRECTION_SIZE as u64) as usize
}

impl Correction {
    /// Forgets everything (new game).
    pub(crate) fn clear(&mut self) {
        *self = Correction::default();
    }

    /// `eval` corrected for the pawn structure `key` with `color` to move.
    #[inline]
    pub(crate) fn apply(&self, color: Color, key: u64, eval: i32) -> i32 {
        eval + i32::from(self.table[color as usize][slot(key)]) / CORRECTION_GRAIN
    }

    /// A search of `depth` found `value` where the uncorrected static evaluation
    /// said `eval`: moves the structure's correction towards the difference.
    #[inline]
    pub(crate) fn update(&mut self, color: Color, key: u64, depth: i32, diff: i32) {
        let entry = &mut self.table[color as usize][slot(key)];
        let weight = (depth + 1).min(CORRECTION_MAX_WEIGHT);
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let old = i32::from(*entry);
        let average = (old * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        // Between the old value and the target, so within the i16 bound too.
        *entry = average as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn the_pawn_key_sees_pawns_only() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_out = board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let e4 = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(pawn_key(&start), pawn_key(&knight_out));
        assert_ne!(pawn_key(&start), pawn_key(&e4));
    }

    #[test]
    fn repeated_errors_move_the_correction_towards_them_and_no_further() {
        let mut c = Correction::default();
        let key = 12345;
        assert_eq!(c.apply(Color::White, key, 100), 100);
        for _ in 0..200 {
            c.update(Color::White, key, 10, 40);
        }
        let corrected = c.apply(Color::White, key, 100);
        assert!((138..=140).contains(&corrected), "{corrected}");
        // The other side to move has its own entry.
        assert_eq!(c.apply(Color::Black, key, 100), 100);
        // Errors beyond the bound count as the bound.
        for _ in 0..400 {
            c.update(Color::Black, key, 10, -10_000);
        }
        // (the running average stops within a step of its target: integer division)
        let floor = c.apply(Color::Black, key, 0);
        assert!(
            (-CORRECTION_MAX..=-CORRECTION_MAX + 1).contains(&floor),
            "{floor}"
        );
    }
}

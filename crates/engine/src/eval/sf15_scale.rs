//! What the search makes of a Stockfish 15.1 net's output: 15.1's own conversion
//! (`Eval::evaluate` in `evaluate.cpp` and `NNUE::evaluate(pos, true)`), then its
//! units mapped onto ours.
//!
//! 15.1, for the NNUE branch, with `npm` the non-pawn material of both sides in
//! middlegame values (knight 781, bishop 825, rook 1276, queen 2538):
//!
//! ```text
//! delta = 24 - npm / 9560
//! nnue  = ((1024 - delta) * psqt + (1024 + delta) * positional) / (1024 * 16)
//! scale = 1064 + 106 * npm / 5120
//! v     = nnue * scale / 1024                 (optimism 0, see below)
//! v     = v * (195 - rule50) / 211            (damping while shuffling)
//! ```
//!
//! and prints `v * 100 / 361` centipawns (`NormalizeToPawnValue`). Our search
//! prints `v * 100 / 208` (`PAWN_VALUE_EG`), so the value handed to it is
//! `v * 208 / 361`: the same centipawns as 15.1 prints for the same evaluation.
//! Left out, to keep it simple: 15.1's search-dependent optimism term (it is zero
//! at the root and small elsewhere) and its fallback to the classical evaluation
//! when the material balance is decisive (the net is used everywhere).

use nnue_core::nnue::halfka::RawEval;
use shakmaty::{Board, Role};

use crate::value::PAWN_VALUE_EG;

/// 15.1's `NormalizeToPawnValue`: its internal units per pawn in UCI output.
pub const NORMALIZE_TO_PAWN_VALUE: i64 = 361;
/// 15.1's middlegame piece values (`KnightValueMg` .. `QueenValueMg`).
const PIECE_VALUES_MG: [(Role, i64); 4] = [
    (Role::Knight, 781),
    (Role::Bishop, 825),
    (Role::Rook, 1276),
    (Role::Queen, 2538),
];
/// 15.1's `OutputScale`.
const OUTPUT_SCALE: i64 = 16;

/// Both sides' non-pawn material in 15.1's middlegame values (`non_pawn_material()`).
pub fn non_pawn_material(board: &Board) -> i64 {
    PIECE_VALUES_MG
        .iter()
        .map(|&(role, value)| board.by_role(role).count() as i64 * value)
        .sum()
}

/// 15.1's `Eval::evaluate` of the NNUE branch (optimism 0), in 15.1's units.
pub fn sf15_value(raw: RawEval, board: &Board, rule50: u32) -> i64 {
    let npm = non_pawn_material(board);
    let delta = 24 - npm / 9560;
    let (psqt, positional) = (i64::from(raw.psqt), i64::from(raw.positional));
    let nnue = ((1024 - delta) * psqt + (1024 + delta) * positional) / (1024 * OUTPUT_SCALE);
    let scale = 1064 + 106 * npm / 5120;
    let v = nnue * scale / 1024;
    v * (195 - i64::from(rule50)) / 211
}

/// [`sf15_value`] in the search's units (a pawn is [`PAWN_VALUE_EG`]).
pub fn search_value(raw: RawEval, board: &Board, rule50: u32) -> i32 {
    let v = sf15_value(raw, board, rule50) * i64::from(PAWN_VALUE_EG) / NORMALIZE_TO_PAWN_VALUE;
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    /// The start position: npm = 2 * (2*781 + 2*825 + 2*1276 + 2538) = 16604,
    /// delta = 24 - 1 = 23, scale = 1064 + 106 * 16604 / 5120 = 1064 + 343 = 1407.
    /// With psqt 0 and positional 1104 (69 internal units raw):
    /// nnue = 1047 * 1104 / 16384 = 70, v = 70 * 1407 / 1024 = 96, damped by
    /// 195 / 211 even at rule50 = 0: 88; ours 88 * 208 / 361 = 50.
    #[test]
    fn start_position_worked_by_hand() {
        let board = Chess::default().board().clone();
        assert_eq!(non_pawn_material(&board), 16604);
        let raw = RawEval {
            psqt: 0,
            positional: 1104,
        };
        assert_eq!(sf15_value(raw, &board, 0), 88);
        assert_eq!(search_value(raw, &board, 0), 50);
        assert_eq!(sf15_value(raw, &board, 100), 96 * 95 / 211);
    }
}

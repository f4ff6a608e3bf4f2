//! nnue-pytorch's win/draw/loss-versus-score skipping (its data loader's
//! `wld_filtered`, on by default there; `--no-wld-fen-skipping` in its older
//! `train.py`): a position is skipped at random with probability `1 − p`, `p`
//! being how likely its game's result is given its score, so positions whose
//! score the game's outcome contradicts (a +3 pawn position of a lost game) are
//! mostly left out.
//!
//! `p` comes from the win-rate model of nnue-pytorch's
//! `data_loader/cpp/lib/training_data_entry.h` (`win_rate_model()` and
//! `score_result_prob()`): a logistic in centipawns whose centre `a` and width
//! `b` are cubic polynomials of the game ply, fitted to fishtest games, with `b`
//! widened by half. The score is read as Stockfish's internal units (208 to a
//! pawn) and the result from the side to move's view, as a `.binpack` stores
//! them.

use crate::packed::GameResult;

/// The ply beyond which the model is held constant ("captures only up to 240
/// plies").
const PLY_CAP: u16 = 240;
/// The model's ply scale: its polynomials take `min(ply, 240) / 64`.
const PLY_SCALE: f64 = 64.0;
/// Coefficients of `a(m)`, highest power first (nnue-pytorch's `as[]`).
const CENTRE: [f64; 4] = [-3.683_893_04, 30.070_659_21, -60.528_787_23, 149.533_785_57];
/// Coefficients of `b(m)`, highest power first (nnue-pytorch's `bs[]`).
const WIDTH: [f64; 4] = [-2.018_185_7, 15.856_850_38, -29.834_520_23, 47.590_788_27];
/// nnue-pytorch's "tweak" of the fit: `b *= 1.5`, which it found trains better.
const WIDTH_TWEAK: f64 = 1.5;
/// Internal units to a pawn: the model's centipawns are `100 · score / 208`.
const UNITS_PER_PAWN: f64 = 208.0;
/// Centipawns in a pawn.
const CENTIPAWNS: f64 = 100.0;
/// The model's centipawn range: scores beyond ±2000 cp count as ±2000.
const CP_LIMIT: f64 = 2000.0;
/// 2^64, nnue-pytorch's `static_cast<double>(~0ULL)`: a probability times this
/// is the threshold a 64-bit random number is compared with.
const U64_SPAN: f64 = 18_446_744_073_709_551_616.0;

/// `((c0 · m + c1) · m + c2) · m + c3`, multiplied and added in nnue-pytorch's
/// order (no fused multiply-add), so the values match its to the last bit.
fn cubic(c: [f64; 4], m: f64) -> f64 {
    ((c[0] * m + c[1]) * m + c[2]) * m + c[3]
}

/// The model's (win, draw, loss) probabilities, from the side to move's view,
/// of a position with `score` (internal units, side to move) at `game_ply`.
pub fn win_draw_loss(score: i16, game_ply: u16) -> (f64, f64, f64) {
    let m = f64::from(game_ply.min(PLY_CAP)) / PLY_SCALE;
    let a = cubic(CENTRE, m);
    let b = cubic(WIDTH, m) * WIDTH_TWEAK;
    let x = (CENTIPAWNS * f64::from(score) / UNITS_PER_PAWN).clamp(-CP_LIMIT, CP_LIMIT);
    let win = 1.0 / (1.0 + ((a - x) / b).exp());
    let loss = 1.0 / (1.0 + ((a + x) / b).exp());
    (win, 1.0 - win - loss, loss)
}

/// How likely the model finds `result` given `score` at `game_ply`: the
/// probability with which the WLD rule keeps the position.
pub fn result_probability(score: i16, game_ply: u16, result: GameResult) -> f64 {
    let (win, draw, loss) = win_draw_loss(score, game_ply);
    match result {
        GameResult::Win => win,
        GameResult::Draw => draw,
        GameResult::Loss => loss,
    }
}

/// The 64-bit threshold below which a uniform random number skips a position
/// kept with probability `keep`: `(1 − keep) · 2^64`, as nnue-pytorch computes
/// it. Where that rounds to 2^64 (`keep` below about 1e-16) Rust saturates it
/// to `u64::MAX`, so the position is skipped; nnue-pytorch's C++ conversion is
/// undefined there (on x86-64 it yields 0, which keeps the position).
pub fn skip_threshold(keep: f64) -> u64 {
    ((1.0 - keep) * U64_SPAN) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (score, ply, result, p): nnue-pytorch's `score_result_prob()` of a
    /// `TrainingDataEntry` with that score, ply and result, printed with
    /// `%.17g` by a program built with g++ against its
    /// `data_loader/cpp/lib/training_data_entry.h` (commit 9f72946, July
    /// 2026); a Python transcription of the formula gives the same doubles,
    /// written here as Python prints them (the shortest exact form).
    const REFERENCE: [(i16, u16, GameResult, f64); 14] = [
        (0, 0, GameResult::Draw, 0.780_777_099_791_573_1),
        (0, 0, GameResult::Win, 0.109_611_450_104_213_5),
        (0, 0, GameResult::Loss, 0.109_611_450_104_213_5),
        (100, 40, GameResult::Win, 0.192_623_683_305_761_16),
        (100, 40, GameResult::Draw, 0.771_227_392_080_822_5),
        (100, 40, GameResult::Loss, 0.036_148_924_613_416_34),
        (-250, 60, GameResult::Win, 0.007_098_666_095_633_229),
        (-250, 60, GameResult::Loss, 0.520_944_234_093_805),
        (500, 120, GameResult::Win, 0.917_078_979_941_215_9),
        (500, 120, GameResult::Loss, 0.000_913_365_693_879_776_5),
        (1000, 300, GameResult::Win, 0.985_283_997_034_660_9),
        (1000, 240, GameResult::Loss, 0.000_315_947_242_893_351_5),
        (5000, 16, GameResult::Draw, 7.283_106_157_815_452e-14),
        (-208, 64, GameResult::Win, 0.010_510_037_659_675_711),
    ];

    /// Equal to within a few units in the last place (another platform's `exp`
    /// may round differently; on glibc they are bit for bit the same).
    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() <= want.abs() * 1e-14
    }

    #[test]
    fn probabilities_are_nnue_pytorchs() {
        for (score, ply, result, want) in REFERENCE {
            let got = result_probability(score, ply, result);
            assert!(
                close(got, want),
                "{score} {ply} {result:?}: {got} != {want}"
            );
        }
        // One pawn (208 units) at ply 64: (w, d, l) from the same program.
        let (w, d, l) = win_draw_loss(208, 64);
        assert!(close(w, 0.419_513_010_193_560_13), "{w}");
        assert!(close(d, 0.569_976_952_146_764_1), "{d}");
        assert!(close(l, 0.010_510_037_659_675_711), "{l}");
    }

    #[test]
    fn thresholds_are_nnue_pytorchs() {
        // The same program's `(1.0 - p) * double(~0ULL)` cast to uint64_t.
        let cases = [
            (100, 40, GameResult::Win, 14_893_464_285_232_896_000),
            (-250, 60, GameResult::Draw, 9_740_672_239_733_923_840),
            (0, 0, GameResult::Draw, 4_043_948_735_241_220_096),
            (500, 120, GameResult::Win, 1_529_622_835_355_326_464),
        ];
        for (score, ply, result, want) in cases {
            let got = skip_threshold(result_probability(score, ply, result));
            let off = got.abs_diff(want);
            // A last-place difference in p moves the threshold by at most 2^11.
            assert!(off <= 1 << 11, "{score} {ply} {result:?}: {got} != {want}");
        }
        // A mate-like score in a lost game: p = 2.2e-20, 1 − p rounds to 1;
        // the threshold saturates, so the position is always skipped.
        let impossible = result_probability(32000, 80, GameResult::Loss);
        assert!(
            close(impossible, 2.202_513_167_383_331_3e-20),
            "{impossible}"
        );
        assert_eq!(skip_threshold(impossible), u64::MAX);
        assert_eq!(skip_threshold(1.0), 0);
    }
}

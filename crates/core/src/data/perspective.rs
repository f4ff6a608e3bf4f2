//! Side-to-move versus White views of scores and results: the toolkit's
//! records see both from the side to move (as Stockfish's do), marlinformat
//! and viriformat store them from White's view, bulletformat from the side
//! to move's again.

use shakmaty::Color;

use super::codec_error::CodecError;
use crate::packed::GameResult;

/// Result byte of a White win in marlinformat and viriformat (and of a side
/// to move win in bulletformat).
pub(crate) const WDL_WIN: u8 = 2;
/// Result byte of a draw.
pub(crate) const WDL_DRAW: u8 = 1;
/// Result byte of a White loss (side to move loss in bulletformat).
pub(crate) const WDL_LOSS: u8 = 0;

/// The result byte of `result` (seen by the side to move `turn`) seen by
/// White.
pub(crate) fn white_wdl(turn: Color, result: GameResult) -> u8 {
    let white = match turn {
        Color::White => result,
        Color::Black => result.flip(),
    };
    wdl_of(white)
}

/// The result byte of a result in its own perspective.
pub(crate) fn wdl_of(result: GameResult) -> u8 {
    match result {
        GameResult::Win => WDL_WIN,
        GameResult::Draw => WDL_DRAW,
        GameResult::Loss => WDL_LOSS,
    }
}

/// The result a byte stands for, in the byte's own perspective.
pub(crate) fn result_of(wdl: u8) -> Result<GameResult, CodecError> {
    match wdl {
        WDL_WIN => Ok(GameResult::Win),
        WDL_DRAW => Ok(GameResult::Draw),
        WDL_LOSS => Ok(GameResult::Loss),
        other => Err(CodecError::BadResult(other)),
    }
}

/// The side to move's result from a White result byte.
pub(crate) fn stm_result(turn: Color, white_wdl: u8) -> Result<GameResult, CodecError> {
    let white = result_of(white_wdl)?;
    Ok(match turn {
        Color::White => white,
        Color::Black => white.flip(),
    })
}

/// Turns a score between White's and the side to move's view (the same
/// negation both ways); -32768 has no 16-bit negation and is an error.
pub(crate) fn flip_score(turn: Color, score: i16) -> Result<i16, CodecError> {
    match turn {
        Color::White => Ok(score),
        Color::Black => score.checked_neg().ok_or(CodecError::ScoreOverflow(score)),
    }
}

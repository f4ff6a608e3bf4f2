//! Validating decoders for one PackedSfenValue, at two price points.

use shakmaty::{Chess, Move};

use super::error::RecordError;
use crate::packed::{DecodedSfen, GameResult, MoveError, PackedSfenValue, SfMove};

/// How hard a reader checks each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Validation {
    /// Structural checks only ([`decode_fast`]): valid bit stream, kings,
    /// pawns, castling flags, en passant, material, result range, and a
    /// move whose origin holds a piece of the side to move. No move
    /// generation: this is what the learner uses every epoch.
    #[default]
    Fast,
    /// Everything in `Fast`, plus a shakmaty position and a best move that is
    /// legal in it ([`decode_full`]). About 10× slower; for converters and
    /// validators.
    Full,
}

/// Per-record policy shared by the decoders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecordPolicy {
    /// Accept `MOVE_NONE` (0) as the best move.
    ///
    /// Off by default: every Stockfish generator stores the search's best
    /// move, and nnue-pytorch's capture filter and the learner's move
    /// accuracy need it, so a 0 there means a damaged or foreign record.
    pub allow_move_none: bool,
}

/// One record decoded for training: pieces and side to move, no legality
/// guarantees beyond [`Validation::Fast`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingRecord {
    /// The unpacked position.
    pub position: DecodedSfen,
    /// Evaluation from the side to move's view, internal units.
    pub score: i16,
    /// Best move (plausible for the position; legal only after `Full`).
    pub mv: SfMove,
    /// The generator's ply counter.
    pub game_ply: u16,
    /// Outcome from the side to move's view.
    pub result: GameResult,
}

impl TrainingRecord {
    /// Packs the record again (padding = [`crate::packed::PADDING_BYTE`]).
    pub fn to_packed(&self) -> PackedSfenValue {
        PackedSfenValue {
            sfen: crate::packed::PackedSfen::encode(&self.position),
            score: self.score,
            mv: self.mv,
            game_ply: self.game_ply,
            game_result: self.result.to_i8(),
            padding: crate::packed::PADDING_BYTE,
        }
    }
}

/// A fully validated record: the legal position and best move as well.
#[derive(Debug, Clone)]
pub struct ValidatedRecord {
    /// The fast-path fields.
    pub record: TrainingRecord,
    /// The position, legal per shakmaty (impossible-check rule aside).
    pub chess: Chess,
    /// The best move, legal in `chess`; `None` only for an allowed `MOVE_NONE`.
    pub best_move: Option<Move>,
}

/// Structural decode (see [`Validation::Fast`]). No allocation.
pub fn decode_fast(
    value: &PackedSfenValue,
    policy: RecordPolicy,
) -> Result<TrainingRecord, RecordError> {
    let position = value.sfen.decode()?;
    let result = GameResult::from_i8(value.game_result)
        .ok_or(RecordError::ResultOutOfRange(value.game_result))?;
    let mv = value.mv;
    if mv.is_none() {
        if !policy.allow_move_none {
            return Err(MoveError::MoveNone.into());
        }
    } else if !mv.is_well_formed() {
        return Err(MoveError::Malformed(mv.raw()).into());
    } else if !mv.is_plausible(&position) {
        return Err(MoveError::Illegal {
            raw: mv.raw(),
            uci: mv.to_uci(),
        }
        .into());
    }
    Ok(TrainingRecord {
        position,
        score: value.score,
        mv,
        game_ply: value.game_ply,
        result,
    })
}

/// Full decode (see [`Validation::Full`]).
pub fn decode_full(
    value: &PackedSfenValue,
    policy: RecordPolicy,
) -> Result<ValidatedRecord, RecordError> {
    let record = decode_fast(value, policy)?;
    let chess = record.position.to_chess()?;
    let best_move = if record.mv.is_none() {
        None
    } else {
        Some(record.mv.to_move(&chess)?)
    };
    Ok(ValidatedRecord {
        record,
        chess,
        best_move,
    })
}

//! One `.plain` record as read, and its packing into a PackedSfenValue.

use std::path::Path;

use shakmaty::{fen::Fen, CastlingMode, Chess, FromSetup, PositionError};

use crate::data::error::{DataError, PlainError, RecordError};
use crate::data::record::RecordPolicy;
use crate::packed::{GameResult, MoveError, PackedSfen, PackedSfenValue, SfMove, PADDING_BYTE};

/// The five value keys of a record, in the order Stockfish writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainKey {
    /// `fen`: the position.
    Fen,
    /// `move`: the best move, in UCI notation.
    Move,
    /// `score`: the search score, side to move's view.
    Score,
    /// `ply`: the game ply of the position.
    Ply,
    /// `result`: the game result, side to move's view (1, 0, -1).
    Result,
}

impl PlainKey {
    /// Every key, in file order.
    pub const ALL: [PlainKey; 5] = [
        PlainKey::Fen,
        PlainKey::Move,
        PlainKey::Score,
        PlainKey::Ply,
        PlainKey::Result,
    ];

    /// The key as written in the file.
    pub const fn name(self) -> &'static str {
        match self {
            PlainKey::Fen => "fen",
            PlainKey::Move => "move",
            PlainKey::Score => "score",
            PlainKey::Ply => "ply",
            PlainKey::Result => "result",
        }
    }

    /// The key named `text`, if it is one.
    pub fn from_name(text: &[u8]) -> Option<PlainKey> {
        PlainKey::ALL
            .into_iter()
            .find(|k| k.name().as_bytes() == text)
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// One `.plain` record as text and numbers, before packing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlainEntry {
    /// FEN as written.
    pub fen: String,
    /// UCI move text.
    pub mv: String,
    /// Score as written.
    pub score: i64,
    /// Ply as written.
    pub ply: i64,
    /// Result as written.
    pub result: i64,
    /// Line number (from 1) of the `e` line that closed the record.
    pub line: u64,
    /// Line number of each key's line, indexed by [`PlainKey`] order.
    pub field_lines: [u64; 5],
}

impl PlainEntry {
    /// The line the value of `key` was read from.
    pub fn line_of(&self, key: PlainKey) -> u64 {
        self.field_lines[key.index()]
    }

    /// Packs the record like [`Self::to_packed`]; an error names `file` and the
    /// line of the field at fault (the FEN's for a bad position, the move's for
    /// an illegal move, ...).
    pub fn pack(
        &self,
        policy: RecordPolicy,
        file: &Path,
    ) -> Result<(PackedSfenValue, Chess), DataError> {
        self.to_packed(policy)
            .map_err(|reason| DataError::BadPlain {
                file: file.to_path_buf(),
                line: reason.field().map_or(self.line, |k| self.line_of(k)),
                reason,
            })
    }

    /// Parses the FEN and move and packs the record (padding 0xFF).
    ///
    /// Like Stockfish's FEN parser, an en-passant square that is not usable
    /// is dropped rather than rejected; the best move must be legal.
    pub fn to_packed(&self, policy: RecordPolicy) -> Result<(PackedSfenValue, Chess), PlainError> {
        let pos = self.position()?;
        let number = |key: PlainKey, value: i64| PlainError::BadNumber {
            key: key.name(),
            value: value.to_string(),
        };
        let score = i16::try_from(self.score).map_err(|_| number(PlainKey::Score, self.score))?;
        let game_ply = u16::try_from(self.ply).map_err(|_| number(PlainKey::Ply, self.ply))?;
        let result = i8::try_from(self.result)
            .ok()
            .and_then(GameResult::from_i8)
            .ok_or_else(|| number(PlainKey::Result, self.result))?;
        let value = PackedSfenValue {
            sfen: PackedSfen::from_position(&pos),
            score,
            mv: self.best_move(&pos, policy)?,
            game_ply,
            game_result: result.to_i8(),
            padding: PADDING_BYTE,
        };
        Ok((value, pos))
    }

    fn position(&self) -> Result<Chess, PlainError> {
        let bad_fen = |reason: String| PlainError::BadFen {
            fen: self.fen.clone(),
            reason,
        };
        let fen =
            Fen::from_ascii(self.fen.trim().as_bytes()).map_err(|e| bad_fen(e.to_string()))?;
        Chess::from_setup(fen.into_setup(), CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|e| bad_fen(e.to_string()))
    }

    fn best_move(&self, pos: &Chess, policy: RecordPolicy) -> Result<SfMove, PlainError> {
        let text = self.mv.trim();
        if text == "0000" {
            return if policy.allow_move_none {
                Ok(SfMove::NONE)
            } else {
                Err(RecordError::Move(MoveError::MoveNone).into())
            };
        }
        Ok(SfMove::from_uci(text, pos).map_err(RecordError::Move)?)
    }
}

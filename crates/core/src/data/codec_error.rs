//! What is wrong with one record of a marlinformat (`.mf`), viriformat
//! (`.vf`) or bulletformat (`.bf`) file, or why a record cannot be written
//! to one. The file and the record are named by the [`super::DataError`]
//! that carries it.

use shakmaty::{Color, Square};
use thiserror::Error;

use super::error::RecordError;

/// One record's problem in the 32-byte board formats and viriformat games.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CodecError {
    /// The occupancy names more squares than the 32 piece nibbles can hold.
    #[error("{0} occupied squares (at most 32 pieces fit the record)")]
    TooManyPieces(u32),
    /// A 4-bit piece code that names no piece.
    #[error("bad piece code {code:#06b} on {square}")]
    BadPieceCode { square: Square, code: u8 },
    /// Not exactly one king of a colour.
    #[error("{count} {color} kings (exactly one expected)")]
    KingCount { color: Color, count: u32 },
    /// A castling rook on a square standard castling does not use
    /// (Chess960 or DFRC), which the toolkit's records cannot hold.
    #[error(
        "castling rook on {0}: only standard chess castling (king e1/e8, rooks a/h) is supported"
    )]
    Chess960Castling(Square),
    /// The en-passant field is neither "none" (64) nor a square on the rank
    /// the side to move captures onto.
    #[error("bad en-passant field {0}")]
    BadEpField(u8),
    /// The result byte is not 0 (loss), 1 (draw) or 2 (win).
    #[error("bad result byte {0} (expected 0, 1 or 2)")]
    BadResult(u8),
    /// A halfmove clock above the 127 the toolkit's records hold.
    #[error("halfmove clock {0} exceeds 127")]
    Rule50TooLarge(u32),
    /// A fullmove number beyond 16 bits, or a ply beyond the 16-bit ply field.
    #[error("fullmove number {0} does not fit 16 bits")]
    FullmoveTooLarge(u32),
    /// A stored king square that is not where the board's king stands.
    #[error("{field} {stored} does not match the king on {actual}")]
    KingSquareMismatch {
        field: &'static str,
        stored: u8,
        actual: Square,
    },
    /// The position (or best move) fails the checks every record passes.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// A viriformat move whose bits are not a move (promotion bits without
    /// the promotion flag, origin equal to destination).
    #[error("malformed viriformat move {0:#06x}")]
    MalformedMove(u16),
    /// A viriformat move that is not legal in the game's position.
    #[error("illegal move {uci} ({raw:#06x})")]
    IllegalMove { raw: u16, uci: String },
    /// The file ends inside a record or game.
    #[error("the file ends inside the record ({available} of {needed} bytes)")]
    Truncated { needed: u64, available: u64 },
    /// The file ends after a game's moves without its four zero bytes.
    #[error("the file ends inside a game (no terminating four zero bytes)")]
    UnterminatedGame,
    /// A viriformat game needs each position's move.
    #[error("no best move (MOVE_NONE): viriformat stores the move of every position")]
    NoMove,
    /// -32768 has no negation in 16 bits, so it cannot change perspective.
    #[error("score {0} cannot be turned to White's view (no 16-bit negation)")]
    ScoreOverflow(i16),
}

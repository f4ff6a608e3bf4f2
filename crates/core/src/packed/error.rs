//! Why a PackedSfen or a 16-bit move was rejected.

use shakmaty::{Color, Square};
use thiserror::Error;

/// A PackedSfen that no Stockfish writer could have produced, or that
/// describes a position Stockfish would refuse to work with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SfenError {
    /// Piece codes 0b1011, 0b1101 and 0b1111 (type values 5..7) do not exist;
    /// kings are never Huffman-coded.
    #[error("bad piece code {code:#06b} for square {square} at bit {bit}")]
    BadPieceCode { square: Square, code: u8, bit: u32 },
    /// The fields would need more than the 256 bits of the record.
    #[error("bit stream runs past 256 bits")]
    BitOverflow,
    /// Both king fields name the same square.
    #[error("both kings on {0}")]
    KingsOnSameSquare(Square),
    /// Two pieces on one square (cannot come out of the bit stream's layout; the
    /// board constructor's check maps to it).
    #[error("two pieces on one square")]
    PiecesOverlap,
    /// The kings touch, so one of them stands in check from the other.
    #[error("kings on adjacent squares {0} and {1}")]
    KingsAdjacent(Square, Square),
    /// The side that just moved left its own king in check.
    #[error("side not to move ({0}) is in check")]
    OppositeCheck(Color),
    /// A pawn on rank 1 or 8.
    #[error("pawn on back rank at {0}")]
    PawnOnBackRank(Square),
    /// A castling flag without the king and the rook on their home squares.
    #[error("castling flag {0} set but king or rook is not on its home square")]
    ImpossibleCastling(char),
    /// The en-passant square is on the wrong rank, has no enemy pawn in front
    /// of it, or it or the square the pawn came from is occupied.
    #[error("impossible en-passant square {0}")]
    BadEpSquare(Square),
    /// More than 16 men of one colour.
    #[error("too many pieces for {0} ({1})")]
    TooManyPieces(Color, u32),
    /// More pieces of some kind than promotions could have produced.
    #[error("material impossible in a game of chess")]
    TooMuchMaterial,
}

/// A 16-bit Stockfish move that does not fit the position it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// `MOVE_NONE` (0) where a best move is required.
    #[error("no move (MOVE_NONE)")]
    MoveNone,
    /// The promotion bits are set on a move that is not a promotion.
    #[error("malformed move {0:#06x}: promotion bits on a non-promotion")]
    Malformed(u16),
    /// No legal move of the position has this encoding.
    #[error("illegal move {uci} ({raw:#06x})")]
    Illegal { raw: u16, uci: String },
    /// UCI text that does not parse or is illegal in the position.
    #[error("bad UCI move {0:?}")]
    BadUci(String),
}

//! bullet's 32-byte `ChessBoard`, seen from the side to move: when Black is
//! to move the board is mirrored top to bottom and the colours swapped, so
//! "us" is always at the bottom. All fields little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy bitboard in the side to move's view |
//! | 8..24 | one 4-bit code per occupied square in square order, low nibble first: piece type (pawn 0 … king 5) and bit 3 for the opponent's pieces |
//! | 24..26 | score, side to move's view |
//! | 26 | result, side to move's view: 0 loss, 1 draw, 2 win |
//! | 27 | our king's square (our view) |
//! | 28 | the opponent's king square in the opponent's own view (our view ^ 56) |
//! | 29..32 | extra bytes (written 0, ignored on reading) |
//!
//! The format holds no castling rights, en-passant square, clocks or move,
//! and not which colour is to move: a record read back is the side to move's
//! view with White to move.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::super::codec_error::CodecError;
use super::super::marlin::{check_kings, checked, read_array};
use super::super::perspective::{result_of, wdl_of};
use crate::packed::{CastlingFlags, DecodedSfen, GameResult};

/// Size of one bulletformat record.
pub const BULLET_BOARD_SIZE: usize = 32;

const PIECES_AT: usize = 8;
const SCORE_AT: usize = 24;
const RESULT_AT: usize = 26;
const KING_AT: usize = 27;
const THEIR_KING_AT: usize = 28;
/// The nibbles hold at most this many pieces.
const MAX_PIECES: u32 = 32;
/// Bit 3 of a piece code: the opponent's piece.
const THEIRS_BIT: u8 = 8;
/// XOR of a square index that mirrors it top to bottom.
const MIRROR: u8 = 56;
/// One bulletformat record, in the side to move's view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulletBoard {
    /// Our pieces as White, the opponent's as Black, White to move; no
    /// castling, en passant or clocks (fullmove 1).
    pub position: DecodedSfen,
    /// Score, side to move's view.
    pub score: i16,
    /// Result, side to move's view.
    pub result: GameResult,
}

impl BulletBoard {
    /// The record of a position (any side to move) with its side-to-move
    /// score and result.
    pub fn encode(
        position: &DecodedSfen,
        score: i16,
        result: GameResult,
    ) -> [u8; BULLET_BOARD_SIZE] {
        let us = position.turn;
        let view = |sq: Square| match us {
            Color::White => sq as u8,
            Color::Black => sq as u8 ^ MIRROR,
        };
        let mut codes = [None; 64];
        for (sq, piece) in position.board.clone() {
            let theirs = if piece.color == us { 0 } else { THEIRS_BIT };
            codes[usize::from(view(sq))] = Some(theirs | (piece.role as u8 - 1));
        }
        let mut out = [0u8; BULLET_BOARD_SIZE];
        let mut occupancy = 0u64;
        for (i, (sq, code)) in (0u8..)
            .zip(codes)
            .filter_map(|(s, c)| c.map(|c| (s, c)))
            .enumerate()
        {
            occupancy |= 1 << sq;
            out[PIECES_AT + i / 2] |= code << (4 * (i % 2));
        }
        out[..PIECES_AT].copy_from_slice(&occupancy.to_le_bytes());
        out[SCORE_AT..RESULT_AT].copy_from_slice(&score.to_le_bytes());
        out[RESULT_AT] = wdl_of(result);
        out[KING_AT] = view(position.king(us));
        out[THEIR_KING_AT] = view(position.king(!us)) ^ MIRROR;
        out
    }

    /// Reads and checks a record: valid piece codes, one king each, king
    /// fields that match the board, result 0..=2, and the checks every
    /// record passes (with us, White, to move).
    pub fn from_bytes(bytes: &[u8; BULLET_BOARD_SIZE]) -> Result<BulletBoard, CodecError> {
        let occupancy = Bitboard(u64::from_le_bytes(read_array(bytes, 0)));
        let board = read_pieces(occupancy, &bytes[PIECES_AT..SCORE_AT])?;
        check_kings(&board)?;
        check_king_field(
            "our king square",
            bytes[KING_AT],
            board.king_of(Color::White),
            0,
        )?;
        let theirs = board.king_of(Color::Black);
        check_king_field("their king square", bytes[THEIR_KING_AT], theirs, MIRROR)?;
        let fields = DecodedSfen {
            board,
            turn: Color::White,
            castling: CastlingFlags::NONE,
            ep_square: None,
            rule50: 0,
            fullmove: 1,
        };
        Ok(BulletBoard {
            position: checked(&fields)?,
            score: i16::from_le_bytes(read_array(bytes, SCORE_AT)),
            result: result_of(bytes[RESULT_AT])?,
        })
    }
}

/// The pieces of the nibbles, ours White and theirs Black.
fn read_pieces(occupancy: Bitboard, nibbles: &[u8]) -> Result<Board, CodecError> {
    let count = occupancy.count() as u32;
    if count > MAX_PIECES {
        return Err(CodecError::TooManyPieces(count));
    }
    let mut board = Board::empty();
    for (i, square) in occupancy.into_iter().enumerate() {
        let code = (nibbles[i / 2] >> (4 * (i % 2))) & 0xF;
        let color = if code & THEIRS_BIT != 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = *Role::ALL
            .get(usize::from(code & !THEIRS_BIT))
            .ok_or(CodecError::BadPieceCode { square, code })?;
        board.set_piece_at(square, Piece { color, role });
    }
    Ok(board)
}

/// A king field must name the king's square (XOR `mirror`).
fn check_king_field(
    field: &'static str,
    stored: u8,
    king: Option<Square>,
    mirror: u8,
) -> Result<(), CodecError> {
    let actual = king.unwrap_or(Square::A1);
    if stored != actual as u8 ^ mirror {
        return Err(CodecError::KingSquareMismatch {
            field,
            stored,
            actual,
        });
    }
    Ok(())
}

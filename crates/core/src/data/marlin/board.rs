//! The 32-byte marlinformat `PackedBoard`, field by field (all little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy bitboard (bit n = square n, a1 = 0) |
//! | 8..24 | one 4-bit code per occupied square in square order, low nibble first: piece type (pawn 0 … king 5, 6 = a rook that may still castle) and colour in bit 3 (black) |
//! | 24 | side to move in bit 7 (black), en-passant square in bits 0..7 (64: none) |
//! | 25 | halfmove clock |
//! | 26..28 | fullmove number |
//! | 28..30 | score, White's view |
//! | 30 | result, White's view: 0 loss, 1 draw, 2 win |
//! | 31 | extra byte (written 0, ignored on reading) |

use shakmaty::{Bitboard, Board, CastlingSide, Color, Piece, Role, Square};

use super::super::codec_error::CodecError;
use super::super::error::RecordError;
use crate::packed::{CastlingFlags, DecodedSfen, PackedSfen};

/// Size of one marlinformat record.
pub const MARLIN_BOARD_SIZE: usize = 32;

/// Offsets of the fields after the occupancy and the piece nibbles.
const PIECES_AT: usize = 8;
const STM_EP_AT: usize = 24;
const HALFMOVE_AT: usize = 25;
const FULLMOVE_AT: usize = 26;
const SCORE_AT: usize = 28;
const WDL_AT: usize = 30;
/// The nibbles hold at most this many pieces.
const MAX_PIECES: u32 = 32;
/// Piece code of a rook that may still castle (one above the king's 5).
const UNMOVED_ROOK: u8 = 6;
/// Bit 3 of a piece code: the piece is black.
const BLACK_BIT: u8 = 8;
/// Bit 7 of the side-to-move byte: black to move.
const BLACK_TO_MOVE: u8 = 0x80;
/// The en-passant field's value for "no en-passant square".
const NO_EP: u8 = 64;
/// The largest halfmove clock a [`DecodedSfen`] holds (7 bits).
const MAX_RULE50: u8 = 127;

/// One marlinformat record: a position with its White-view score and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarlinBoard {
    /// The position (castling from the unmoved-rook codes).
    pub position: DecodedSfen,
    /// Score from White's view.
    pub white_score: i16,
    /// Result byte from White's view (0 loss, 1 draw, 2 win; checked).
    pub white_wdl: u8,
}

impl MarlinBoard {
    /// The 32 bytes of this record. Castling flags become unmoved-rook codes
    /// (the position's flags must be consistent, as every decoded record's
    /// are); a fullmove number of 0 is written as 1, as FEN readers take it
    /// (viriformat's own reader cannot start a game from 0).
    pub fn to_bytes(&self) -> [u8; MARLIN_BOARD_SIZE] {
        let pos = &self.position;
        let mut out = [0u8; MARLIN_BOARD_SIZE];
        let occupied = pos.board.occupied();
        out[..PIECES_AT].copy_from_slice(&occupied.0.to_le_bytes());
        let castling_rooks = pos.castling.rook_squares();
        for (i, sq) in occupied.into_iter().enumerate() {
            let piece = pos
                .board
                .piece_at(sq)
                .unwrap_or(Role::Pawn.of(Color::White));
            let mut code = piece.role as u8 - 1;
            if piece.role == Role::Rook && castling_rooks.contains(sq) {
                code = UNMOVED_ROOK;
            }
            if piece.color == Color::Black {
                code |= BLACK_BIT;
            }
            out[PIECES_AT + i / 2] |= code << (4 * (i % 2));
        }
        let ep = pos.ep_square.map_or(NO_EP, |sq| sq as u8);
        out[STM_EP_AT] = ep
            | if pos.turn == Color::Black {
                BLACK_TO_MOVE
            } else {
                0
            };
        out[HALFMOVE_AT] = pos.rule50;
        out[FULLMOVE_AT..SCORE_AT].copy_from_slice(&pos.fullmove.max(1).to_le_bytes());
        out[SCORE_AT..WDL_AT].copy_from_slice(&self.white_score.to_le_bytes());
        out[WDL_AT] = self.white_wdl;
        out
    }

    /// Reads and checks a record: valid piece codes, one king each, standard
    /// castling only, a sensible en-passant field, result 0..=2, and every
    /// check a Stockfish record passes (pawns, material, the side not to
    /// move not in check). An en-passant square no pawn can capture onto is
    /// dropped, as Stockfish's reader drops it, and a fullmove number of 0
    /// reads as 1.
    pub fn from_bytes(bytes: &[u8; MARLIN_BOARD_SIZE]) -> Result<MarlinBoard, CodecError> {
        let occupancy = Bitboard(u64::from_le_bytes(read_array(bytes, 0)));
        let (board, rooks) = read_pieces(occupancy, &bytes[PIECES_AT..STM_EP_AT])?;
        check_kings(&board)?;
        let castling = castling_flags(&board, rooks)?;
        let turn = match bytes[STM_EP_AT] & BLACK_TO_MOVE {
            0 => Color::White,
            _ => Color::Black,
        };
        let ep_square = ep_field(turn, bytes[STM_EP_AT] & !BLACK_TO_MOVE)?;
        let rule50 = bytes[HALFMOVE_AT];
        if rule50 > MAX_RULE50 {
            return Err(CodecError::Rule50TooLarge(u32::from(rule50)));
        }
        let fields = DecodedSfen {
            board,
            turn,
            castling,
            ep_square,
            rule50,
            // 0 is no fullmove number; FEN readers take it as 1.
            fullmove: u16::from_le_bytes(read_array(bytes, FULLMOVE_AT)).max(1),
        };
        let white_wdl = bytes[WDL_AT];
        super::super::perspective::result_of(white_wdl)?;
        Ok(MarlinBoard {
            position: checked(&fields)?,
            white_score: i16::from_le_bytes(read_array(bytes, SCORE_AT)),
            white_wdl,
        })
    }
}

/// `N` bytes of `bytes` from `at`.
pub(crate) fn read_array<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[at..at + N]);
    out
}

/// The pieces of the nibbles, and the squares of the unmoved-rook codes.
fn read_pieces(occupancy: Bitboard, nibbles: &[u8]) -> Result<(Board, Bitboard), CodecError> {
    let count = occupancy.count() as u32;
    if count > MAX_PIECES {
        return Err(CodecError::TooManyPieces(count));
    }
    let mut board = Board::empty();
    let mut rooks = Bitboard::EMPTY;
    for (i, square) in occupancy.into_iter().enumerate() {
        let code = (nibbles[i / 2] >> (4 * (i % 2))) & 0xF;
        let color = if code & BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = match code & !BLACK_BIT {
            UNMOVED_ROOK => {
                rooks.add(square);
                Role::Rook
            }
            kind => *Role::ALL
                .get(usize::from(kind))
                .ok_or(CodecError::BadPieceCode { square, code })?,
        };
        board.set_piece_at(square, Piece { color, role });
    }
    Ok((board, rooks))
}

/// Exactly one king of each colour.
pub(crate) fn check_kings(board: &Board) -> Result<(), CodecError> {
    for color in Color::ALL {
        let count = (board.kings() & board.by_color(color)).count() as u32;
        if count != 1 {
            return Err(CodecError::KingCount { color, count });
        }
    }
    Ok(())
}

/// Castling flags from the unmoved-rook squares: each must be a corner
/// rook of standard chess beside its king on e1 or e8.
fn castling_flags(board: &Board, rooks: Bitboard) -> Result<CastlingFlags, CodecError> {
    let mut flags = CastlingFlags::NONE;
    for square in rooks {
        let color = board.color_at(square).unwrap_or(Color::White);
        let king_home = board.king_of(color) == Some(CastlingFlags::king_home(color));
        let side = [CastlingSide::KingSide, CastlingSide::QueenSide]
            .into_iter()
            .find(|&side| CastlingFlags::rook_home(color, side) == square);
        match side {
            Some(side) if king_home => flags.set(color, side),
            _ => return Err(CodecError::Chess960Castling(square)),
        }
    }
    Ok(flags)
}

/// The en-passant square of the field: 64 for none, else a square on the
/// rank the side to move captures onto (rank 6 for White, 3 for Black).
fn ep_field(turn: Color, field: u8) -> Result<Option<Square>, CodecError> {
    if field == NO_EP {
        return Ok(None);
    }
    let rank = match turn {
        Color::White => shakmaty::Rank::Sixth,
        Color::Black => shakmaty::Rank::Third,
    };
    match Square::try_from(field) {
        Ok(sq) if sq.rank() == rank => Ok(Some(sq)),
        _ => Err(CodecError::BadEpField(field)),
    }
}

/// The fields after every check a Stockfish record passes: packed and
/// unpacked again, which also drops an en-passant square no pawn attacks.
pub(crate) fn checked(fields: &DecodedSfen) -> Result<DecodedSfen, CodecError> {
    PackedSfen::encode(fields)
        .decode()
        .map_err(|e| CodecError::Record(RecordError::Sfen(e)))
}

//! Translation between the `sfbinpack` crate's `TrainingDataEntry` and our
//! 40-byte [`PackedSfenValue`], field for field as Stockfish's
//! `trainingDataEntryToPackedSfenValue` / `packedSfenValueToTrainingDataEntry`
//! do, so that `.binpack -> .bin` and `.bin -> .binpack` reproduce the
//! bytes of Stockfish's `convert`.

use sfbinpack::chess::castling_rights::CastlingRights;
use sfbinpack::chess::color::Color as BpColor;
use sfbinpack::chess::coords::Square as BpSquare;
use sfbinpack::chess::piece::Piece as BpPiece;
use sfbinpack::chess::piecetype::PieceType;
use sfbinpack::chess::position::Position;
use sfbinpack::chess::r#move::{Move as BpMove, MoveType};
use sfbinpack::TrainingDataEntry;
use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Role, Square};

use crate::packed::{
    CastlingFlags, DecodedSfen, MoveKind, PackedSfen, PackedSfenValue, SfMove, PADDING_BYTE,
};

/// Largest game ply a `.binpack` stem can hold (14 bits; the top two bits
/// of the field carry the result).
pub const MAX_BINPACK_PLY: u16 = 0x3FFF;

/// Castling flags in the bit order shared by both libraries (K, Q, k, q).
const CASTLING: [(u8, CastlingRights); 4] = [
    (CastlingFlags::WHITE_OO, CastlingRights::WHITE_KING_SIDE),
    (CastlingFlags::WHITE_OOO, CastlingRights::WHITE_QUEEN_SIDE),
    (CastlingFlags::BLACK_OO, CastlingRights::BLACK_KING_SIDE),
    (CastlingFlags::BLACK_OOO, CastlingRights::BLACK_QUEEN_SIDE),
];

/// Piece types of the binpack library in the order of shakmaty's roles.
const ROLES: [(PieceType, Role); 6] = [
    (PieceType::Pawn, Role::Pawn),
    (PieceType::Knight, Role::Knight),
    (PieceType::Bishop, Role::Bishop),
    (PieceType::Rook, Role::Rook),
    (PieceType::Queen, Role::Queen),
    (PieceType::King, Role::King),
];

/// The position fields of a binpack entry, unfiltered: the en-passant
/// square and counters exactly as the binpack library holds them, which is
/// what Stockfish's packer writes.
pub fn decoded_from_position(pos: &Position) -> DecodedSfen {
    let mut by_role = ByRole::<Bitboard>::default();
    let mut by_color = ByColor::<Bitboard>::default();
    for (bp_color, color) in [
        (BpColor::White, Color::White),
        (BpColor::Black, Color::Black),
    ] {
        for (pt, role) in ROLES {
            let bb = Bitboard(pos.pieces_bb_color(bp_color, pt).bits());
            *by_role.get_mut(role) |= bb;
            *by_color.get_mut(color) |= bb;
        }
    }
    // Two colours or roles on one square cannot come out of the library's
    // own bitboards; an empty board then fails validation downstream.
    let board = Board::try_from_bitboards(by_role, by_color).unwrap_or_else(|_| Board::empty());
    let rights = pos.castling_rights();
    let mut castling = 0u8;
    for (flag, right) in CASTLING {
        if rights.contains(right) {
            castling |= flag;
        }
    }
    let ep = pos.ep_square();
    DecodedSfen {
        board,
        turn: match pos.side_to_move() {
            BpColor::White => Color::White,
            BpColor::Black => Color::Black,
        },
        castling: CastlingFlags::from_bits(castling),
        ep_square: (ep != BpSquare::NONE).then(|| Square::new(ep.index() & 63)),
        rule50: (pos.rule50_counter() & 0x7F) as u8,
        fullmove: fullmove_of(pos),
    }
}

/// The FEN fullmove number of a binpack position (the library derives it
/// from the ply: `ply / 2 + 1`).
fn fullmove_of(pos: &Position) -> u16 {
    let stm = u16::from(pos.side_to_move() == BpColor::Black);
    pos.ply().wrapping_sub(stm) / 2 + 1
}

/// Stockfish's 16-bit move for a binpack move (castling stays king-takes-rook).
pub fn sf_move_from(mv: BpMove) -> SfMove {
    let from = Square::new(mv.from().index() & 63);
    let to = Square::new(mv.to().index() & 63);
    match mv.mtype() {
        MoveType::Normal => SfMove::new(from, to, MoveKind::Normal, None),
        MoveType::Castle => SfMove::new(from, to, MoveKind::Castling, None),
        MoveType::EnPassant => SfMove::new(from, to, MoveKind::EnPassant, None),
        MoveType::Promotion => {
            let role = ROLES
                .iter()
                .find(|(pt, _)| *pt == mv.promoted_piece().piece_type())
                .map_or(Role::Knight, |&(_, role)| role);
            SfMove::new(from, to, MoveKind::Promotion, Some(role))
        }
    }
}

/// The `.bin` record Stockfish's `convert` writes for a binpack entry
/// (padding byte 0xFF). `result` is passed through unchecked; validation
/// happens on the returned record.
pub fn packed_from_entry(entry: &TrainingDataEntry) -> PackedSfenValue {
    PackedSfenValue {
        sfen: PackedSfen::encode(&decoded_from_position(&entry.pos)),
        score: entry.score,
        mv: sf_move_from(entry.mv),
        game_ply: entry.ply,
        game_result: entry.result.clamp(i16::from(i8::MIN), i16::from(i8::MAX)) as i8,
        padding: PADDING_BYTE,
    }
}

fn bp_square(sq: Square) -> BpSquare {
    BpSquare::new(u32::from(sq))
}

fn bp_color(color: Color) -> BpColor {
    match color {
        Color::White => BpColor::White,
        Color::Black => BpColor::Black,
    }
}

fn bp_piece_type(role: Role) -> PieceType {
    ROLES
        .iter()
        .find(|(_, r)| *r == role)
        .map_or(PieceType::None, |&(pt, _)| pt)
}

/// The binpack library's position for validated fields. The fullmove
/// number goes through the library's only setter (`set_ply`), which keeps
/// it exactly.
pub fn position_from_decoded(sfen: &DecodedSfen) -> Position {
    let mut pos = Position::empty();
    for (sq, piece) in sfen.board.clone() {
        pos.place(
            BpPiece::new(bp_piece_type(piece.role), bp_color(piece.color)),
            bp_square(sq),
        );
    }
    pos.set_side_to_move(bp_color(sfen.turn));
    let mut rights = CastlingRights::NONE;
    for (flag, right) in CASTLING {
        if sfen.castling.bits() & flag != 0 {
            rights |= right;
        }
    }
    pos.set_castling_rights(rights);
    pos.set_ep_square_unchecked(sfen.ep_square.map_or(BpSquare::NONE, bp_square));
    pos.set_rule50_counter(u16::from(sfen.rule50));
    pos.set_ply(2 * (sfen.fullmove.max(1) - 1));
    pos
}

/// The binpack library's move for a well-formed Stockfish move.
pub fn bp_move_from(mv: SfMove, turn: Color) -> BpMove {
    let from = bp_square(mv.from_sq());
    let to = bp_square(mv.to_sq());
    match mv.kind() {
        MoveKind::Normal => BpMove::normal(from, to),
        MoveKind::Castling => BpMove::castle(from, to),
        MoveKind::EnPassant => BpMove::en_passant(from, to),
        MoveKind::Promotion => {
            let role = mv.promotion().unwrap_or(Role::Queen);
            BpMove::promotion(from, to, BpPiece::new(bp_piece_type(role), bp_color(turn)))
        }
    }
}

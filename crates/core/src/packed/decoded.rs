//! A PackedSfen unpacked into plain fields, without building a full
//! shakmaty position.
//!
//! This is what the learner iterates over every epoch: a `Board` (bitboards
//! by role and colour), the side to move and the counters. Turning it into a
//! legal-move-capable [`Chess`] is a separate, slower step ([`DecodedSfen::to_chess`]).

use std::fmt::Write as _;
use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position,
    PositionErrorKinds, Setup, Square,
};

use super::castling::CastlingFlags;
use super::error::SfenError;

/// The fields of a PackedSfen, already checked for structural soundness
/// (see [`super::PackedSfen::decode`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DecodedSfen {
    /// Pieces, kings included.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Castling flags (K, Q, k, q).
    pub castling: CastlingFlags,
    /// En-passant target square, kept only when Stockfish would keep it: a
    /// pawn of the side to move attacks it (pins ignored).
    pub ep_square: Option<Square>,
    /// Halfmove clock (rule50), 0..=127 (7 stored bits).
    pub rule50: u8,
    /// FEN fullmove number as stored (16 bits; old writers left the high byte 0).
    pub fullmove: u16,
}

impl DecodedSfen {
    /// Reads the fields of a legal position.
    ///
    /// The en-passant square follows Stockfish's rule (kept only if a pawn of
    /// the side to move attacks it), not shakmaty's legality rule, so the
    /// packed bytes match what Stockfish writes for the same position.
    pub fn from_position(pos: &Chess) -> DecodedSfen {
        let mut castling = CastlingFlags::NONE;
        for (color, side) in CastlingFlags::ORDER {
            if pos.castles().has(color, side) {
                castling.set(color, side);
            }
        }
        DecodedSfen {
            board: pos.board().clone(),
            turn: pos.turn(),
            castling,
            ep_square: pos.ep_square(EnPassantMode::PseudoLegal),
            rule50: (pos.halfmoves() & 127) as u8,
            fullmove: (pos.fullmoves().get() & 0xFFFF) as u16,
        }
    }

    /// King square of `color` (every decoded position has both kings).
    pub fn king(&self, color: Color) -> Square {
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// Stockfish's 0-based game ply implied by the fullmove number:
    /// `max(2 * (fm - 1), 0) + (stm == black)`, tolerant of fullmove 0.
    pub fn game_ply(&self) -> u32 {
        2 * u32::from(self.fullmove.max(1) - 1) + u32::from(self.turn == Color::Black)
    }

    /// The FEN fullmove number Stockfish prints for this record: the stored
    /// value, except that 0 (a common bad FEN value) prints as 1.
    pub fn fen_fullmove(&self) -> u32 {
        u32::from(self.fullmove.max(1))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        let king = self.king(self.turn);
        self.board
            .attacks_to(king, !self.turn, self.board.occupied())
            .any()
    }

    /// shakmaty `Setup` for these fields (castling as rook squares).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        setup.board = self.board.clone();
        setup.turn = self.turn;
        setup.castling_rights = self.castling.rook_squares();
        setup.ep_square = self.ep_square;
        setup.halfmoves = u32::from(self.rule50);
        setup.fullmoves =
            NonZeroU32::new(u32::from(self.fullmove.max(1))).unwrap_or(NonZeroU32::MIN);
        setup
    }

    /// Builds a full shakmaty position (for legal moves, check, hashing).
    ///
    /// shakmaty's "impossible check" rule is ignored: Stockfish does not
    /// apply it, and positions reached after an unusual en-passant square
    /// can trip it although Stockfish wrote them.
    pub fn to_chess(&self) -> Result<Chess, SfenError> {
        match Chess::from_setup(self.to_setup(), CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
        {
            Ok(pos) => Ok(pos),
            Err(e) => Err(map_position_error(self, e.kinds())),
        }
    }

    /// The FEN as Stockfish's `Position::fen()` prints it: castling `KQkq`
    /// or `-`, en-passant square only when kept (see [`Self::ep_square`]),
    /// halfmove clock and fullmove number.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        self.write_fen(&mut s);
        s
    }

    /// Appends [`Self::fen`] to `out` (no allocation when `out` has room).
    pub fn write_fen(&self, out: &mut String) {
        for rank in (0..8u32).rev() {
            let mut empty = 0u8;
            for file in 0..8u32 {
                let sq = Square::new(rank * 8 + file);
                match self.board.piece_at(sq) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.turn == Color::White { 'w' } else { 'b' });
        out.push(' ');
        if self.castling.bits() == 0 {
            out.push('-');
        } else {
            for (color, side) in CastlingFlags::ORDER {
                if self.castling.has(color, side) {
                    out.push(CastlingFlags::letter(color, side));
                }
            }
        }
        out.push(' ');
        match self.ep_square {
            Some(sq) => {
                let _ = write!(out, "{sq}");
            }
            None => out.push('-'),
        }
        let _ = write!(out, " {} {}", self.rule50, self.fen_fullmove());
    }
}

/// Translates shakmaty's validation flags into our error type. Only reached
/// for problems our own structural checks do not cover.
fn map_position_error(sfen: &DecodedSfen, kinds: PositionErrorKinds) -> SfenError {
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        let sq = (sfen.board.pawns() & Bitboard::BACKRANKS)
            .first()
            .unwrap_or(Square::A1);
        return SfenError::PawnOnBackRank(sq);
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        return SfenError::OppositeCheck(!sfen.turn);
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        for (color, side) in CastlingFlags::ORDER {
            if sfen.castling.has(color, side) {
                return SfenError::ImpossibleCastling(CastlingFlags::letter(color, side));
            }
        }
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        return SfenError::BadEpSquare(sfen.ep_square.unwrap_or(Square::A1));
    }
    if kinds.contains(PositionErrorKinds::MISSING_KING)
        || kinds.contains(PositionErrorKinds::TOO_MANY_KINGS)
    {
        return SfenError::KingsOnSameSquare(sfen.king(Color::White));
    }
    SfenError::TooMuchMaterial
}

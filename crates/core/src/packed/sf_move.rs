//! The 16-bit Stockfish move stored in a PackedSfenValue (formats.md 2.2).

use shakmaty::{uci::UciMove, CastlingMode, Chess, Color, File, Move, Position, Role, Square};

use super::error::MoveError;
use super::DecodedSfen;

/// Move type in bits 14–15.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Quiet move or capture.
    Normal = 0,
    /// Pawn promotion; the piece is in bits 12–13.
    Promotion = 1,
    /// En passant; `to` is the ep target square.
    EnPassant = 2,
    /// Castling, encoded as the king "taking" its own rook.
    Castling = 3,
}

/// A Stockfish `Move`: to in bits 0–5, from in 6–11, promotion piece − knight
/// in 12–13, [`MoveKind`] in 14–15.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SfMove(pub u16);

impl SfMove {
    /// `MOVE_NONE`.
    pub const NONE: SfMove = SfMove(0);
    /// `MOVE_NULL` (from = to = b1).
    pub const NULL: SfMove = SfMove(65);

    /// Assembles a move from its parts.
    pub const fn new(from: Square, to: Square, kind: MoveKind, promotion: Option<Role>) -> SfMove {
        let promo = match promotion {
            Some(Role::Bishop) => 1,
            Some(Role::Rook) => 2,
            Some(Role::Queen) => 3,
            _ => 0,
        };
        SfMove(((kind as u16) << 14) | (promo << 12) | ((from as u16) << 6) | to as u16)
    }

    /// Encodes a shakmaty move. Castling becomes king-takes-rook; a
    /// Crazyhouse drop (impossible in standard chess) becomes `MOVE_NONE`.
    pub fn from_move(m: &Move) -> SfMove {
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => match promotion {
                Some(role) => SfMove::new(from, to, MoveKind::Promotion, Some(role)),
                None => SfMove::new(from, to, MoveKind::Normal, None),
            },
            Move::EnPassant { from, to } => SfMove::new(from, to, MoveKind::EnPassant, None),
            Move::Castle { king, rook } => SfMove::new(king, rook, MoveKind::Castling, None),
            Move::Put { .. } => SfMove::NONE,
        }
    }

    /// Raw 16-bit value.
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Origin square.
    pub const fn from_sq(self) -> Square {
        Square::ALL[((self.0 >> 6) & 63) as usize]
    }

    /// Destination square (the rook's square for castling).
    pub const fn to_sq(self) -> Square {
        Square::ALL[(self.0 & 63) as usize]
    }

    /// Move type.
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// Promotion piece, for promotion moves.
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion => Some(match (self.0 >> 12) & 3 {
                0 => Role::Knight,
                1 => Role::Bishop,
                2 => Role::Rook,
                _ => Role::Queen,
            }),
            _ => None,
        }
    }

    /// Whether the move is `MOVE_NONE`.
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Destination of the king in standard chess: castling e1h1 is the king
    /// going to g1, e1a1 to c1; other moves keep [`Self::to_sq`].
    pub fn king_destination(self) -> Square {
        if self.kind() != MoveKind::Castling {
            return self.to_sq();
        }
        let (from, to) = (self.from_sq(), self.to_sq());
        let file = if to > from { File::G } else { File::C };
        Square::from_coords(file, from.rank())
    }

    /// UCI text in standard chess (castling as e1g1, promotion suffix in
    /// lower case, `0000` for `MOVE_NONE` and `MOVE_NULL`).
    pub fn to_uci(self) -> String {
        let mut s = String::with_capacity(5);
        self.write_uci(&mut s);
        s
    }

    /// Appends [`Self::to_uci`] to `out`.
    pub fn write_uci(self, out: &mut String) {
        if self.0 == 0 || self == SfMove::NULL {
            out.push_str("0000");
            return;
        }
        push_square(out, self.from_sq());
        push_square(out, self.king_destination());
        if let Some(role) = self.promotion() {
            out.push(role.char());
        }
    }

    /// Promotion bits on a non-promotion are never written by Stockfish.
    pub const fn is_well_formed(self) -> bool {
        matches!(self.kind(), MoveKind::Promotion) || (self.0 >> 12) & 3 == 0
    }

    /// Cheap plausibility test without move generation: well formed, and the
    /// origin holds a piece of the side to move (a king for castling, a pawn
    /// for promotion and en passant) while the destination holds no piece of
    /// the side to move (except the rook for castling).
    pub fn is_plausible(self, pos: &DecodedSfen) -> bool {
        if self.0 == 0 || !self.is_well_formed() {
            return false;
        }
        let (from, to) = (self.from_sq(), self.to_sq());
        let Some(piece) = pos.board.piece_at(from) else {
            return false;
        };
        if piece.color != pos.turn || from == to {
            return false;
        }
        let target = pos.board.piece_at(to);
        match self.kind() {
            MoveKind::Normal => target.is_none_or(|p| p.color != pos.turn),
            MoveKind::Promotion => {
                piece.role == Role::Pawn && target.is_none_or(|p| p.color != pos.turn)
            }
            MoveKind::EnPassant => piece.role == Role::Pawn && target.is_none(),
            MoveKind::Castling => {
                piece.role == Role::King && target == Some(Role::Rook.of(pos.turn))
            }
        }
    }

    /// Whether the move captures (nnue-pytorch's test: an enemy piece on the
    /// destination, or en passant; castling's "capture" of the own rook is not).
    /// `MOVE_NONE`, the move of every `.mf` and `.bf` record, captures
    /// nothing (its destination bits would otherwise name a1).
    pub fn is_capture(self, board: &shakmaty::Board, turn: Color) -> bool {
        if self.is_none() {
            return false;
        }
        match self.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            _ => board.color_at(self.to_sq()) == Some(!turn),
        }
    }

    /// The legal shakmaty move this encodes in `pos`.
    pub fn to_move(self, pos: &Chess) -> Result<Move, MoveError> {
        if self.0 == 0 {
            return Err(MoveError::MoveNone);
        }
        if !self.is_well_formed() {
            return Err(MoveError::Malformed(self.0));
        }
        pos.legal_moves()
            .into_iter()
            .find(|m| SfMove::from_move(m) == self)
            .ok_or_else(|| MoveError::Illegal {
                raw: self.0,
                uci: self.to_uci(),
            })
    }

    /// Parses UCI text (standard chess: e1g1 is castling) against `pos`.
    pub fn from_uci(text: &str, pos: &Chess) -> Result<SfMove, MoveError> {
        let bad = || MoveError::BadUci(text.to_owned());
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|_| bad())?;
        let m = uci.to_move(pos).map_err(|_| bad())?;
        Ok(SfMove::from_move(&m))
    }

    /// UCI text through shakmaty for a legal move (used to cross-check).
    pub fn uci_of(m: &Move) -> String {
        m.to_uci(CastlingMode::Standard).to_string()
    }
}

fn push_square(out: &mut String, sq: Square) {
    out.push(char::from(b'a' + sq.file() as u8));
    out.push(char::from(b'1' + sq.rank() as u8));
}

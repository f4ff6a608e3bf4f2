//! The four castling flags exactly as PackedSfen stores them (K, Q, k, q).

use shakmaty::{CastlingSide, Color, Square};

/// Castling rights as four independent flags.
///
/// PackedSfen stores plain flags, not rook squares, and only standard chess
/// is supported (the tools branch writes all four as 0 for Chess960), so a
/// flag always means "king on e1/e8 and rook in that corner".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingFlags(u8);

impl CastlingFlags {
    /// White king side (`K`), bit 0 of the packed field.
    pub const WHITE_OO: u8 = 1;
    /// White queen side (`Q`).
    pub const WHITE_OOO: u8 = 2;
    /// Black king side (`k`).
    pub const BLACK_OO: u8 = 4;
    /// Black queen side (`q`).
    pub const BLACK_OOO: u8 = 8;

    /// No castling rights.
    pub const NONE: CastlingFlags = CastlingFlags(0);

    /// Flags from the packed 4-bit field (K = bit 0 … q = bit 3).
    pub const fn from_bits(bits: u8) -> CastlingFlags {
        CastlingFlags(bits & 15)
    }

    /// The packed 4-bit field.
    pub const fn bits(self) -> u8 {
        self.0
    }

    const fn bit(color: Color, side: CastlingSide) -> u8 {
        match (color, side) {
            (Color::White, CastlingSide::KingSide) => Self::WHITE_OO,
            (Color::White, CastlingSide::QueenSide) => Self::WHITE_OOO,
            (Color::Black, CastlingSide::KingSide) => Self::BLACK_OO,
            (Color::Black, CastlingSide::QueenSide) => Self::BLACK_OOO,
        }
    }

    /// Whether `color` may still castle on `side`.
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Sets one flag.
    pub fn set(&mut self, color: Color, side: CastlingSide) {
        self.0 |= Self::bit(color, side);
    }

    /// The king's home square for `color` in standard chess.
    pub const fn king_home(color: Color) -> Square {
        match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        }
    }

    /// The rook's home square for `color` and `side` in standard chess.
    pub const fn rook_home(color: Color, side: CastlingSide) -> Square {
        match (color, side) {
            (Color::White, CastlingSide::KingSide) => Square::H1,
            (Color::White, CastlingSide::QueenSide) => Square::A1,
            (Color::Black, CastlingSide::KingSide) => Square::H8,
            (Color::Black, CastlingSide::QueenSide) => Square::A8,
        }
    }

    /// FEN letter of a flag.
    pub const fn letter(color: Color, side: CastlingSide) -> char {
        match (color, side) {
            (Color::White, CastlingSide::KingSide) => 'K',
            (Color::White, CastlingSide::QueenSide) => 'Q',
            (Color::Black, CastlingSide::KingSide) => 'k',
            (Color::Black, CastlingSide::QueenSide) => 'q',
        }
    }

    /// All four (color, side) pairs in packed / FEN order: K, Q, k, q.
    pub const ORDER: [(Color, CastlingSide); 4] = [
        (Color::White, CastlingSide::KingSide),
        (Color::White, CastlingSide::QueenSide),
        (Color::Black, CastlingSide::KingSide),
        (Color::Black, CastlingSide::QueenSide),
    ];

    /// The rook squares of the set flags, as shakmaty's `Setup` wants them.
    pub fn rook_squares(self) -> shakmaty::Bitboard {
        let mut bb = shakmaty::Bitboard::EMPTY;
        for (color, side) in Self::ORDER {
            if self.has(color, side) {
                bb.add(Self::rook_home(color, side));
            }
        }
        bb
    }
}

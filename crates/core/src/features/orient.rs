//! Perspectives: every feature is defined from one side's point of view.
//!
//! The other perspective sees the mirrored board with colours swapped. Stockfish 12's
//! HalfKP mirrors by rotating 180° (`sq ^ 63`); the thesis sets flip ranks
//! (`sq ^ 56`). Blocks compute their features on the *relative* board returned by
//! [`relative_board`], on which the perspective's own pieces are always White.

use shakmaty::{Board, Color, Piece, Role, Square};

/// How the board is mirrored for the Black perspective.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// Rank flip, `sq ^ 56` (thesis feature sets).
    Flip,
    /// 180° rotation, `sq ^ 63` (Stockfish 12 HalfKP).
    Rotate,
}

/// The 0-based index of a perspective: White = 0, Black = 1 (shakmaty's own
/// discriminants are the other way round, so never cast `Color` directly).
#[inline]
pub const fn perspective_index(perspective: Color) -> usize {
    match perspective {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The square as seen from `perspective`.
#[inline]
pub fn orient(sq: Square, perspective: Color, orientation: Orientation) -> Square {
    match (perspective, orientation) {
        (Color::White, _) => sq,
        (Color::Black, Orientation::Flip) => sq.flip_vertical(),
        (Color::Black, Orientation::Rotate) => sq.rotate_180(),
    }
}

/// The piece as seen from `perspective`: own pieces become White.
#[inline]
pub fn relative_piece(piece: Piece, perspective: Color) -> Piece {
    Piece {
        color: if piece.color == perspective {
            Color::White
        } else {
            Color::Black
        },
        role: piece.role,
    }
}

/// The board as seen from `perspective`: mirrored and with colours swapped for Black.
pub fn relative_board(board: &Board, perspective: Color, orientation: Orientation) -> Board {
    let mut b = board.clone();
    if perspective == Color::Black {
        match orientation {
            Orientation::Flip => b.flip_vertical(),
            Orientation::Rotate => b.rotate_180(),
        }
        b.swap_colors();
    }
    b
}

/// Piece plane 0..12 of a relative piece: `2 * (role - 1) + (0 own | 1 their)`.
/// The same plane order as Stockfish's HalfKP piece-square planes.
#[inline]
pub const fn plane(piece: Piece) -> usize {
    let role = match piece.role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    let their = match piece.color {
        Color::White => 0,
        Color::Black => 1,
    };
    2 * role + their
}

/// The relative piece of a plane index (inverse of [`plane`]).
#[inline]
pub const fn plane_piece(plane: usize) -> Piece {
    let role = match plane / 2 {
        0 => Role::Pawn,
        1 => Role::Knight,
        2 => Role::Bishop,
        3 => Role::Rook,
        4 => Role::Queen,
        _ => Role::King,
    };
    let color = if plane.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    Piece { color, role }
}

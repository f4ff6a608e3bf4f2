//! Line blocks: a feature per (line, piece plane), on when at least one piece of that
//! plane stands on that line. Lines are ranks (H, 8), files (V, 8), diagonals
//! a1–h8 direction (D1, 15) or anti-diagonals a8–h1 direction (D2, 15), always on the
//! perspective's relative (rank-flipped, colour-swapped) board.
//!
//! `index = lines * plane(piece) + line(sq)`: H and V have 12 × 8 = 96 features,
//! D1 and D2 12 × 15 = 180.

use shakmaty::{Board, Color, Square};

use super::block::{FeatureBlock, SeenSet, MAX_PIECES};
use super::orient::{plane, relative_board, Orientation};

/// Which family of lines a [`Lines`] block uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// Ranks ("horizontal"), block H.
    Rank,
    /// Files ("vertical"), block V.
    File,
    /// Diagonals parallel to a1–h8, block D1: `7 + file - rank`.
    Diagonal,
    /// Anti-diagonals parallel to a8–h1, block D2: `file + rank`.
    AntiDiagonal,
}

impl LineKind {
    /// Number of lines of this kind.
    pub const fn count(self) -> usize {
        match self {
            LineKind::Rank | LineKind::File => 8,
            LineKind::Diagonal | LineKind::AntiDiagonal => 15,
        }
    }

    /// The line through `sq`.
    pub fn line(self, sq: Square) -> usize {
        let (file, rank) = (sq.file().to_usize(), sq.rank().to_usize());
        match self {
            LineKind::Rank => rank,
            LineKind::File => file,
            LineKind::Diagonal => 7 + file - rank,
            LineKind::AntiDiagonal => file + rank,
        }
    }
}

/// One of H, V, D1, D2.
#[derive(Copy, Clone, Debug)]
pub struct Lines(pub LineKind);

impl FeatureBlock for Lines {
    fn name(&self) -> String {
        match self.0 {
            LineKind::Rank => "H",
            LineKind::File => "V",
            LineKind::Diagonal => "D1",
            LineKind::AntiDiagonal => "D2",
        }
        .to_string()
    }

    fn size(&self) -> usize {
        12 * self.0.count()
    }

    /// At most one feature per piece.
    fn max_active(&self) -> usize {
        MAX_PIECES.min(self.size())
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        let mut seen = SeenSet::new(self.size());
        for (sq, piece) in &rel {
            seen.push(self.0.count() * plane(piece) + self.0.line(sq), out);
        }
    }
}

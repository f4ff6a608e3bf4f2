//! Line blocks: a feature per (line, piece plane), on when at least one piece of that
//! plane stands on that line. Lines are ranks (H, 8), files (V, 8), diagonals
//! a1–h8 direction (D1, 15) or anti-diagonals a8–h1 direction (D2, 15), always on the
//! perspective's relative (rank-flipped, colour-swapped) board.
//!
//! `index = lines * plane(piece) + line(sq)`: H and V have 12 × 8 = 96 features,
//! D1 and D2 12 × 15 = 180.

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Square};

use super::block::{FeatureBlock, SeenSet, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;
use super::orient::{orient, plane, relative_board, relative_piece, Orientation};

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

    /// The squares of line `line` (on the board the line is defined on).
    pub fn squares(self, line: usize) -> Bitboard {
        match self {
            LineKind::Rank => Bitboard::from_rank(Rank::new(line as u32)),
            LineKind::File => Bitboard::from_file(File::new(line as u32)),
            LineKind::Diagonal | LineKind::AntiDiagonal => (0..8usize)
                .filter_map(|file| {
                    let rank = match self {
                        LineKind::Diagonal => (7 + file).checked_sub(line)?,
                        _ => line.checked_sub(file)?,
                    };
                    (rank < 8).then(|| {
                        Square::from_coords(File::new(file as u32), Rank::new(rank as u32))
                    })
                })
                .collect(),
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

    /// Only a (piece, line) that the move left or entered can change, and it is on
    /// when that piece still stands somewhere on that line: one bitboard test per
    /// board instead of the default's two complete lists (the update is what the
    /// search pays for a line block at every node).
    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        mv.change.for_each_touched(
            |piece, sq| {
                (
                    piece,
                    self.0.line(orient(sq, mv.perspective, Orientation::Flip)),
                )
            },
            |(piece, line)| self.line_change(mv, piece, line, delta),
        );
    }
}

impl Lines {
    /// Appends feature (piece, line) to `delta` when the move turned it off or on.
    fn line_change(
        &self,
        mv: &MoveContext<'_>,
        piece: Piece,
        line: usize,
        delta: &mut FeatureDelta,
    ) {
        let relative = self.0.squares(line);
        let squares = match mv.perspective {
            Color::White => relative,
            Color::Black => relative.flip_vertical(),
        };
        let before = (mv.before.by_piece(piece) & squares).any();
        let after = (mv.after.by_piece(piece) & squares).any();
        let index = (self.0.count() * plane(relative_piece(piece, mv.perspective)) + line) as u32;
        match (before, after) {
            (true, false) => delta.removed.push(index),
            (false, true) => delta.added.push(index),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `squares(line)` is exactly the squares whose `line()` is that line, for every
    /// kind and line (the local update tests presence on these masks).
    #[test]
    fn squares_of_a_line_are_the_squares_on_it() {
        for kind in [
            LineKind::Rank,
            LineKind::File,
            LineKind::Diagonal,
            LineKind::AntiDiagonal,
        ] {
            for line in 0..kind.count() {
                let expected: Bitboard = Square::ALL
                    .into_iter()
                    .filter(|&sq| kind.line(sq) == line)
                    .collect();
                assert_eq!(kind.squares(line), expected, "{kind:?} line {line}");
            }
        }
        assert_eq!(LineKind::Diagonal.squares(7).count(), 8); // a1-h8
        assert_eq!(
            LineKind::AntiDiagonal.squares(0),
            Bitboard::from(Square::A1)
        );
    }
}

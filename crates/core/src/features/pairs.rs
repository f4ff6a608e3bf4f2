//! Pair blocks: a feature per (line, first piece plane, second piece plane) for every
//! two pieces that are neighbours along a rank (PH) or a file (PV) — nothing but
//! empty squares between them. 8 lines × 12 × 12 planes = 1152 features each.
//!
//! On the perspective's relative board, PH pairs run from the a-file towards the
//! h-file and PV pairs from the perspective's own back rank forward:
//! `index = 144 * line + 12 * plane(first) + plane(second)`, which is the thesis'
//! `line·144 + role1·24 + c1·12 + role2·2 + c2` (plane = `2 * role + c`).
//!
//! Names: our `PV` (pairs along a file) is the thesis text's PV and its code's `ph`;
//! our `PH` (pairs along a rank) is the text's PH and the code's `pv`. Two pairs of
//! the same kinds on one line are one feature (the thesis counts them and treats
//! the feature as on while the count is above zero: the same input).

use shakmaty::{Bitboard, Board, Color, File, Rank, Square};

use super::block::{FeatureBlock, SeenSet, MAX_PIECES};
use super::orient::{plane, relative_board, Orientation};

/// Along which lines a [`Pairs`] block looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PairKind {
    /// Neighbours along ranks, block PH.
    Horizontal,
    /// Neighbours along files, block PV.
    Vertical,
}

/// One of PH, PV.
#[derive(Copy, Clone, Debug)]
pub struct Pairs(pub PairKind);

impl FeatureBlock for Pairs {
    fn name(&self) -> String {
        match self.0 {
            PairKind::Horizontal => "PH",
            PairKind::Vertical => "PV",
        }
        .to_string()
    }

    fn size(&self) -> usize {
        8 * 12 * 12
    }

    /// At most one pair per piece (each piece starts at most one pair).
    fn max_active(&self) -> usize {
        MAX_PIECES
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        let mut seen = SeenSet::new(self.size());
        for line in 0..8u32 {
            let mask = match self.0 {
                PairKind::Horizontal => Bitboard::from_rank(Rank::new(line)),
                PairKind::Vertical => Bitboard::from_file(File::new(line)),
            };
            // Squares of one rank or file iterate in increasing index order, which is
            // a→h along a rank and 1→8 along a file.
            let mut previous: Option<Square> = None;
            for sq in rel.occupied() & mask {
                let first = previous.and_then(|p| rel.piece_at(p));
                if let (Some(first), Some(second)) = (first, rel.piece_at(sq)) {
                    seen.push(144 * line as usize + 12 * plane(first) + plane(second), out);
                }
                previous = Some(sq);
            }
        }
    }
}

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

use super::block::{diff_sorted, FeatureBlock, SeenSet, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;
use super::orient::{orient, plane, relative_board, relative_piece, Orientation};

/// The most pairs on one line of eight squares.
const MAX_LINE_PAIRS: usize = 7;

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

    /// Only the lines through the squares the move left or entered can change: their
    /// pairs before and after the move are diffed, a few squares each, instead of the
    /// default's two complete lists (the update is what the search pays for a pair
    /// block at every node).
    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        mv.change.for_each_touched(
            |_, sq| self.line_of(orient(sq, mv.perspective, Orientation::Flip)),
            |line| self.line_change(mv, line, delta),
        );
    }
}

impl Pairs {
    /// Appends the pair features of relative line `line` that the move turned off or on.
    fn line_change(&self, mv: &MoveContext<'_>, line: usize, delta: &mut FeatureDelta) {
        let mut old = [0u32; MAX_LINE_PAIRS];
        let mut new = [0u32; MAX_LINE_PAIRS];
        let n_old = self.line_pairs(mv.before, mv.perspective, line, &mut old);
        let n_new = self.line_pairs(mv.after, mv.perspective, line, &mut new);
        diff_sorted(
            &mut old[..n_old],
            &mut new[..n_new],
            &mut delta.removed,
            &mut delta.added,
        );
    }

    /// The line of a relative square: its rank for PH, its file for PV.
    fn line_of(&self, sq: Square) -> usize {
        match self.0 {
            PairKind::Horizontal => sq.rank().to_usize(),
            PairKind::Vertical => sq.file().to_usize(),
        }
    }

    /// Writes the distinct pair features of relative line `line` of `board` seen by
    /// `perspective` into `out`; returns how many. The same pairs as [`Self::active`]
    /// finds on that line, read from the board as it is.
    fn line_pairs(
        &self,
        board: &Board,
        perspective: Color,
        line: usize,
        out: &mut [u32; MAX_LINE_PAIRS],
    ) -> usize {
        let black = perspective == Color::Black;
        let squares = match self.0 {
            PairKind::Horizontal => {
                Bitboard::from_rank(Rank::new((if black { 7 - line } else { line }) as u32))
            }
            PairKind::Vertical => Bitboard::from_file(File::new(line as u32)),
        } & board.occupied();
        // Relative order: a→h along a rank, the perspective's own side first along a file.
        let reversed = black && self.0 == PairKind::Vertical;
        let ordered: &mut dyn Iterator<Item = Square> = if reversed {
            &mut squares.into_iter().rev()
        } else {
            &mut squares.into_iter()
        };
        let mut n = 0;
        let mut previous = None;
        for sq in ordered {
            let piece = board.piece_at(sq).map(|p| relative_piece(p, perspective));
            if let (Some(first), Some(second)) = (previous, piece) {
                let index = (144 * line + 12 * plane(first) + plane(second)) as u32;
                if !out[..n].contains(&index) {
                    out[n] = index;
                    n += 1;
                }
            }
            previous = piece;
        }
        n
    }
}

//! All: one feature per (piece plane, square), kings included: 12 × 64 = 768.
//!
//! `index = 64 * plane(piece) + orient(sq)`, Black's view flipped (`sq ^ 56`).

use shakmaty::{Board, Color, Piece, Square};

use super::block::{FeatureBlock, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;
use super::orient::{orient, plane, relative_piece, Orientation};

/// The thesis's "All" block.
#[derive(Copy, Clone, Debug, Default)]
pub struct All;

impl All {
    /// The index of `piece` on `sq` (absolute) for `perspective`.
    #[inline]
    pub fn index(perspective: Color, piece: Piece, sq: Square) -> u32 {
        let rel = relative_piece(piece, perspective);
        (64 * plane(rel) + orient(sq, perspective, Orientation::Flip).to_usize()) as u32
    }
}

impl FeatureBlock for All {
    fn name(&self) -> String {
        "All".to_string()
    }

    fn size(&self) -> usize {
        768
    }

    fn max_active(&self) -> usize {
        MAX_PIECES
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        for (sq, piece) in board {
            out.push(All::index(perspective, piece, sq));
        }
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let perspective = mv.perspective;
        for d in mv.change.pieces() {
            if let Some(from) = d.from {
                delta.removed.push(All::index(perspective, d.piece, from));
            }
            if let Some(to) = d.to {
                delta.added.push(All::index(perspective, d.piece, to));
            }
        }
    }
}

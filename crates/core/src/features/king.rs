//! K: the own king's square (64 features, flipped for Black). On its own it is a
//! tiny block; its use is as the left factor of a product: `K*All` = King-All.

use shakmaty::{Board, Color};

use super::block::FeatureBlock;
use super::context::MoveContext;
use super::orient::{orient, Orientation};

/// Own king square.
#[derive(Copy, Clone, Debug, Default)]
pub struct King;

impl FeatureBlock for King {
    fn name(&self) -> String {
        "K".to_string()
    }

    fn size(&self) -> usize {
        64
    }

    fn max_active(&self) -> usize {
        1
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        if let Some(king) = board.king_of(perspective) {
            out.push(orient(king, perspective, Orientation::Flip).to_u32());
        }
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        mv.change.king_moved(mv.perspective)
    }
}

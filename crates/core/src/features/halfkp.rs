//! HalfKP, exactly as Stockfish 12: own king square × (10 non-king piece planes of 64
//! squares + 1 unused), 64 × 641 = 41024 features, Black's view rotated (`sq ^ 63`).
//!
//! `index = orient(sq) + 1 + 64 * plane(piece) + 641 * orient(own king)`
//! (formats.md 5.1). Kings are not features; the own king moving changes every
//! feature, so it triggers a refresh.

use shakmaty::{Board, Color, Piece, Role, Square};

use super::block::{FeatureBlock, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;
use super::orient::{orient, plane, relative_piece, Orientation};

/// Planes per king square: 10 piece planes of 64 squares plus Stockfish's unused
/// `PS_NONE` slot at offset 0.
pub const HALFKP_PLANES: usize = 641;

/// Stockfish 12 HalfKP.
#[derive(Copy, Clone, Debug, Default)]
pub struct HalfKp;

impl HalfKp {
    /// The index of a non-king `piece` on `sq` for `perspective` whose king is on `king`
    /// (absolute squares).
    #[inline]
    pub fn index(perspective: Color, king: Square, piece: Piece, sq: Square) -> u32 {
        let rel = relative_piece(piece, perspective);
        let sq = orient(sq, perspective, Orientation::Rotate).to_usize();
        let king = orient(king, perspective, Orientation::Rotate).to_usize();
        (sq + 1 + 64 * plane(rel) + HALFKP_PLANES * king) as u32
    }
}

impl FeatureBlock for HalfKp {
    fn name(&self) -> String {
        "HalfKP".to_string()
    }

    fn size(&self) -> usize {
        64 * HALFKP_PLANES
    }

    /// Every non-king piece: 30.
    fn max_active(&self) -> usize {
        MAX_PIECES - 2
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let Some(king) = board.king_of(perspective) else {
            return;
        };
        for sq in board.occupied() & !board.kings() {
            if let Some(piece) = board.piece_at(sq) {
                out.push(HalfKp::index(perspective, king, piece, sq));
            }
        }
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        mv.change.king_moved(mv.perspective)
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let perspective = mv.perspective;
        let Some(king) = mv.after.king_of(perspective) else {
            return;
        };
        for d in mv.change.pieces() {
            if d.piece.role == Role::King {
                continue;
            }
            if let Some(from) = d.from {
                delta
                    .removed
                    .push(HalfKp::index(perspective, king, d.piece, from));
            }
            if let Some(to) = d.to {
                delta
                    .added
                    .push(HalfKp::index(perspective, king, d.piece, to));
            }
        }
    }
}

//! Transformer rows of a position for the HalfKAv2_hm float model: the 22,528
//! real features of each perspective (the core's [`HalfKaV2Hm`], 15.1's indices)
//! and, for each, one of the factoriser's 768 virtual features: the same piece on
//! the same oriented square whatever the king bucket (nnue-pytorch's "A" factor of
//! HalfKAv2_hm^). The real features put both kings on one plane; the virtual
//! ones keep the opponent's king apart (a 12th plane), since the own king's
//! square is already given by the bucket. At export each real row gets its
//! virtual row added ([`virtual_row`] of its index alone), so the file is a
//! plain 15.1 net.

use nnue_core::features::halfka_v2_hm::{HalfKaV2Hm, BUCKET_STRIDE, HALFKA_SIZE};
use nnue_core::features::FeatureBlock;
use nnue_core::nnue::halfka::Shape;
use shakmaty::{Board, Color};

/// Squares per plane.
const SQUARES: usize = 64;
/// The real plane both kings share.
const KING_PLANE: usize = 10;
/// Virtual features: 12 planes of 64 squares (the 11 real planes, the
/// opponent's king on a plane of its own).
pub const VIRTUAL_ROWS: usize = 12 * SQUARES;

/// The own king's oriented square in king bucket `bucket`: the bucket is
/// `4 * (7 - relative rank) + mirrored file`, and orientation puts the king on
/// files e-h, so the file is `7 - mirrored file`.
fn own_king_square(bucket: usize) -> usize {
    let rank = 7 - bucket / 4;
    let file = 7 - bucket % 4;
    8 * rank + file
}

/// The virtual row (counted from [`HALFKA_SIZE`]) of real feature `feature`.
pub fn virtual_row(feature: u32) -> u32 {
    let feature = feature as usize;
    let (bucket, plane_square) = (feature / BUCKET_STRIDE, feature % BUCKET_STRIDE);
    let plane = plane_square / SQUARES;
    let square = plane_square % SQUARES;
    let their_king = plane == KING_PLANE && square != own_king_square(bucket);
    let row = plane_square + if their_king { SQUARES } else { 0 };
    (HALFKA_SIZE + row) as u32
}

/// Extracts rows of both perspectives, side to move first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HalfKaRows {
    /// Whether the virtual rows are added.
    pub factorize: bool,
}

impl HalfKaRows {
    /// Transformer rows: the real features, then the virtual ones if factorised.
    pub fn rows(&self) -> usize {
        HALFKA_SIZE + if self.factorize { VIRTUAL_ROWS } else { 0 }
    }

    /// The rows of `board` seen by `perspective` (cleared first).
    pub fn perspective(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        out.clear();
        HalfKaV2Hm.active(board, perspective, out);
        if self.factorize {
            let real = out.len();
            for k in 0..real {
                let v = virtual_row(out[k]);
                out.push(v);
            }
        }
    }

    /// The layer stack and PSQT bucket of `board` (15.1's `(pieces - 1) / 4`).
    pub fn stack(board: &Board) -> usize {
        Shape::stack_of(board.occupied().count())
    }
}

/// The rows and stack of a position, side to move first: what
/// [`crate::halfka::HalfKaModel::forward`] takes, built the same way for
/// training, validation and the tests.
pub struct Sample {
    pub us: Vec<u32>,
    pub them: Vec<u32>,
    pub stack: usize,
}

impl Sample {
    /// The sample of `board` with `turn` to move under `rows`.
    pub fn of(rows: HalfKaRows, board: &Board, turn: Color) -> Sample {
        let (mut us, mut them) = (Vec::with_capacity(64), Vec::with_capacity(64));
        rows.perspective(board, turn, &mut us);
        rows.perspective(board, !turn, &mut them);
        Sample {
            us,
            them,
            stack: HalfKaRows::stack(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Piece, Role, Square};

    /// White's king on e1 is in bucket 31 on oriented e1; the black king on e8 is
    /// on the same real plane but its own virtual plane. Worked out from the
    /// bucket formula in `halfka_v2_hm.rs`.
    #[test]
    fn kings_split_on_the_virtual_planes() {
        let king = |color| Piece {
            color,
            role: Role::King,
        };
        let own = HalfKaV2Hm::index(Color::White, Square::E1, king(Color::White), Square::E1);
        let theirs = HalfKaV2Hm::index(Color::White, Square::E1, king(Color::Black), Square::E8);
        assert_eq!(own, 4 + 640 + 31 * 704);
        assert_eq!(virtual_row(own), (HALFKA_SIZE + 640 + 4) as u32);
        assert_eq!(virtual_row(theirs), (HALFKA_SIZE + 704 + 60) as u32);
        // A king on a1 is mirrored to h1 in bucket 28.
        let a1 = HalfKaV2Hm::index(Color::White, Square::A1, king(Color::White), Square::A1);
        assert_eq!(virtual_row(a1), (HALFKA_SIZE + 640 + 7) as u32);
        // Black's own king on e8 is on oriented e1 in bucket 31.
        let black = HalfKaV2Hm::index(Color::Black, Square::E8, king(Color::Black), Square::E8);
        assert_eq!(virtual_row(black), (HALFKA_SIZE + 640 + 4) as u32);
    }

    #[test]
    fn every_real_feature_has_one_virtual_row_in_range() {
        for f in 0..HALFKA_SIZE as u32 {
            let v = virtual_row(f) as usize;
            assert!((HALFKA_SIZE..HALFKA_SIZE + VIRTUAL_ROWS).contains(&v));
            assert_eq!((v - HALFKA_SIZE) % SQUARES, f as usize % SQUARES);
        }
    }
}

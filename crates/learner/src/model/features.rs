//! Active feature rows of a position for the float model: the core's feature set
//! plus, with the factoriser, each real feature's virtual row.

use nnue_core::features::FeatureSet;
use nnue_core::nnue::buckets::material_bucket;
use shakmaty::{Board, Color};

use super::shape::{Factorizer, ModelShape};

/// What turns an `All` feature of one perspective into the same piece's
/// feature of the other: `64 * plane + square`, where the other side sees the
/// piece's colour swapped (bit 0 of the plane, bit 6 of the index) and the
/// board flipped (the rank, bits 3-5).
const ALL_OTHER_SIDE: u32 = 64 | 56;

/// Turns boards into transformer rows, side to move first.
#[derive(Debug)]
pub struct Extractor {
    set: FeatureSet,
    /// The set is `All` alone: the other side's rows follow from the side to
    /// move's ([`ALL_OTHER_SIDE`]), in the same order, without walking the
    /// board again.
    all_only: bool,
    inputs: usize,
    factorizer: Option<Factorizer>,
    /// Material output buckets of the shape (1: none).
    output_buckets: usize,
}

impl Extractor {
    /// The extractor of `shape`'s feature set.
    pub fn new(shape: &ModelShape) -> Extractor {
        // The shape was built from a parsed set, so this cannot fail.
        let set = FeatureSet::parse(&shape.arch.feature_set)
            .unwrap_or_else(|e| unreachable!("checked feature set: {e}"));
        Extractor {
            all_only: set.name() == "All",
            set,
            inputs: shape.inputs(),
            factorizer: shape.factorizer,
            output_buckets: shape.arch.output_buckets,
        }
    }

    /// Room a buffer needs for one perspective's rows.
    pub fn capacity(&self) -> usize {
        let virtual_rows = if self.factorizer.is_some() {
            self.set.max_active()
        } else {
            0
        };
        self.set.buffer_capacity() + virtual_rows
    }

    /// The most rows one perspective can have.
    pub fn max_rows(&self) -> usize {
        self.set.max_active() * if self.factorizer.is_some() { 2 } else { 1 }
    }

    /// The output bucket that evaluates `board` (0 without buckets).
    pub fn bucket(&self, board: &Board) -> u8 {
        // At most 32 buckets (`nnue_core::nnue::buckets::valid_count`).
        material_bucket(board, self.output_buckets) as u8
    }

    /// Rows of both perspectives, side to move (`turn`) first. Buffers are cleared.
    pub fn rows(&self, board: &Board, turn: Color, stm: &mut Vec<u32>, nstm: &mut Vec<u32>) {
        if self.all_only {
            stm.clear();
            self.set.active(board, turn, stm);
            nstm.clear();
            nstm.extend(stm.iter().map(|&r| r ^ ALL_OTHER_SIDE));
        } else {
            self.set.active_both(board, turn, stm, nstm);
        }
        if let Some(f) = self.factorizer {
            for list in [stm, nstm] {
                let real = list.len();
                for k in 0..real {
                    let v = f.virtual_row(self.inputs, list[k]);
                    list.push(v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use nnue_core::features::FeatureSet;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Color, Position};

    use super::ALL_OTHER_SIDE;

    #[test]
    fn all_rows_of_the_other_side_follow_from_the_side_to_moves() {
        let set = FeatureSet::parse("All").unwrap();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for turn in [Color::White, Color::Black] {
                let (mut stm, mut nstm) = (Vec::new(), Vec::new());
                set.active_both(pos.board(), turn, &mut stm, &mut nstm);
                let derived: Vec<u32> = stm.iter().map(|&r| r ^ ALL_OTHER_SIDE).collect();
                assert_eq!(derived, nstm, "{fen}, {turn:?} to move");
            }
        }
    }
}

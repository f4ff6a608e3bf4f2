//! Active feature rows of a position for the float model: the core's feature set
//! plus, with the factoriser, each real feature's virtual row.

use nnue_core::features::FeatureSet;
use nnue_core::nnue::buckets::material_bucket;
use shakmaty::{Board, Color};

use super::shape::{Factorizer, ModelShape};

/// Turns boards into transformer rows, side to move first.
#[derive(Debug)]
pub struct Extractor {
    set: FeatureSet,
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
        self.set.active_both(board, turn, stm, nstm);
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

//! A whole HalfKAv2_hm net (15.1's `FeatureTransformer` and eight `Network`s) and
//! its evaluation, `NNUE::evaluate(pos, false)`:
//!
//! ```text
//! stack      = (pieces - 1) / 4
//! psqt       = (psqt_acc[us][stack] - psqt_acc[them][stack]) / 2
//! positional = layer_stack[stack](transform(acc[us], acc[them]))
//! value      = (psqt + positional) / 16          (C++ division: toward zero)
//! ```

use shakmaty::{Board, Chess, Color, Position};

use super::shape::{Shape, OUTPUT_SCALE, STACKS};
use super::stack::LayerStack;
use super::transformer::{Psqt, Transformer};
use crate::nnue::aligned::Aligned;
use crate::nnue::simd::Kernel;

/// Stockfish 15.1's network: transformer and layer stacks.
#[derive(Clone, Debug, PartialEq)]
pub struct HalfKaNetwork {
    /// The description bytes as stored (kept so the net saves back byte for byte).
    pub description: Vec<u8>,
    /// The feature transformer.
    pub transformer: Transformer,
    /// The eight layer stacks, by piece count.
    pub stacks: Vec<LayerStack>,
}

/// The two parts of an evaluation in raw units (`OutputScale` per internal unit):
/// the search scales them differently (15.1's `adjusted` evaluation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawEval {
    /// Half the PSQT difference of the stack's bucket.
    pub psqt: i32,
    /// The layer stack's output.
    pub positional: i32,
}

impl RawEval {
    /// `NNUE::evaluate(pos, false)`: `(psqt + positional) / OutputScale`, internal units.
    pub fn value(self) -> i32 {
        self.psqt.wrapping_add(self.positional) / OUTPUT_SCALE
    }
}

impl HalfKaNetwork {
    /// The net's sizes.
    pub fn shape(&self) -> Shape {
        self.transformer.shape
    }

    /// The description as text (lossy for non-UTF-8 bytes).
    pub fn description_text(&self) -> String {
        String::from_utf8_lossy(&self.description).into_owned()
    }

    /// A one-line summary for `info string` messages.
    pub fn summary(&self) -> String {
        format!(
            "HalfKAv2_hm {}x2-{}-{}-1, {} PSQT buckets and layer stacks",
            self.shape().width,
            super::shape::L1 + 1,
            super::shape::L2,
            STACKS
        )
    }

    /// The evaluation from accumulators already computed: `us` and `them` are the
    /// side to move's and the other side's; `transformed` is `width` bytes of scratch.
    #[allow(clippy::too_many_arguments)]
    pub fn output(
        &self,
        kernel: Kernel,
        us: &[i16],
        them: &[i16],
        us_psqt: &Psqt,
        them_psqt: &Psqt,
        stack: usize,
        transformed: &mut [u8],
    ) -> RawEval {
        let stack = stack.min(STACKS - 1);
        let psqt = us_psqt[stack].wrapping_sub(them_psqt[stack]) / 2;
        self.transformer.transform(kernel, us, them, transformed);
        let positional = self.stacks[stack].propagate(kernel, transformed);
        RawEval { psqt, positional }
    }

    /// A full refresh of both perspectives and the evaluation of `board` with
    /// `turn` to move.
    pub fn evaluate_board(&self, kernel: Kernel, board: &Board, turn: Color) -> RawEval {
        let width = self.shape().width;
        let mut features = Vec::with_capacity(32);
        let mut acc = [Aligned::new(width), Aligned::new(width)];
        let mut psqt = [[0; STACKS]; 2];
        for (i, perspective) in [turn, !turn].into_iter().enumerate() {
            let t = &self.transformer;
            t.refresh(
                kernel,
                board,
                perspective,
                &mut features,
                &mut acc[i],
                &mut psqt[i],
            );
        }
        let stack = Shape::stack_of(board.occupied().count());
        let mut transformed = Aligned::new(width);
        self.output(
            kernel,
            &acc[0],
            &acc[1],
            &psqt[0],
            &psqt[1],
            stack,
            &mut transformed,
        )
    }

    /// [`Self::evaluate_board`] of `pos` with the fastest kernel: 15.1's raw value.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        self.evaluate_board(Kernel::detect(), pos.board(), pos.turn())
            .value()
    }
}

//! The feature transformer of a HalfKAv2_hm net: int16 accumulators (biases plus
//! the active features' weight rows, wrapping as 15.1's int16 adds do) and int32
//! PSQT accumulators (one value per bucket, no bias), as 15.1's
//! `FeatureTransformer` keeps them.

use shakmaty::{Board, Color};

use super::shape::{Shape, STACKS};
use crate::features::halfka_v2_hm::HalfKaV2Hm;
use crate::features::FeatureBlock;
use crate::nnue::aligned::Aligned;
use crate::nnue::simd::Kernel;

/// One perspective's PSQT accumulator: a value per bucket.
pub type Psqt = [i32; STACKS];

/// The transformer's parameters, in 15.1's file order and layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Transformer {
    /// The sizes.
    pub shape: Shape,
    /// One per accumulator lane (`width`).
    pub biases: Aligned<i16>,
    /// Feature-major: row `f` is `weights[f * width..(f + 1) * width]`.
    pub weights: Aligned<i16>,
    /// Feature-major: row `f` is `psqt[f * 8..(f + 1) * 8]`.
    pub psqt: Vec<i32>,
}

impl Transformer {
    /// `dst = src - rows(removed) + rows(added)`, accumulator and PSQT alike.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &self,
        kernel: Kernel,
        dst: &mut [i16],
        src: &[i16],
        dst_psqt: &mut Psqt,
        src_psqt: &Psqt,
        removed: &[u32],
        added: &[u32],
    ) {
        kernel.update(dst, src, &self.weights, removed, added);
        *dst_psqt = *src_psqt;
        self.apply_psqt(dst_psqt, removed, added);
    }

    /// Subtracts the PSQT rows of `removed` and adds those of `added` (wrapping).
    pub fn apply_psqt(&self, psqt: &mut Psqt, removed: &[u32], added: &[u32]) {
        let row = |f: u32| {
            let start = f as usize * STACKS;
            self.psqt.get(start..start + STACKS).unwrap_or(&[])
        };
        for &f in removed {
            for (p, &w) in psqt.iter_mut().zip(row(f)) {
                *p = p.wrapping_sub(w);
            }
        }
        for &f in added {
            for (p, &w) in psqt.iter_mut().zip(row(f)) {
                *p = p.wrapping_add(w);
            }
        }
    }

    /// A full refresh of `perspective`'s accumulators for `board`; `features` is
    /// scratch space.
    pub fn refresh(
        &self,
        kernel: Kernel,
        board: &Board,
        perspective: Color,
        features: &mut Vec<u32>,
        acc: &mut [i16],
        psqt: &mut Psqt,
    ) {
        features.clear();
        HalfKaV2Hm.active(board, perspective, features);
        self.update(kernel, acc, &self.biases, psqt, &[0; STACKS], &[], features);
    }

    /// The transformed input of the layer stacks (15.1's `transform`): for each
    /// perspective, side to move first, `clamp(a[j], 0, 127) * clamp(a[j + w/2],
    /// 0, 127) / 128` for `j < w/2`; `out` is `width` bytes.
    pub fn transform(&self, kernel: Kernel, us: &[i16], them: &[i16], out: &mut [u8]) {
        let half = self.shape.width / 2;
        let (first, second) = out.split_at_mut(half);
        kernel.pairwise_mul(us, first);
        kernel.pairwise_mul(them, second);
    }
}

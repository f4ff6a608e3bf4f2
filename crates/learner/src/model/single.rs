//! The backward pass of a net whose transformer feeds the output directly
//! (`--hidden=`, e.g. 768->512x2->1) in one pass over the accumulators.
//!
//! The general path writes the clipped inputs, runs the output layer's weight
//! gradient, the input gradient (a zeroed buffer, one scaled row added, then
//! the blocked elements cleared), copies it back over the accumulators and adds
//! both halves to the bias gradient: five passes over `2 * half` floats per
//! sample. Here each element is read once, with the same operations in the
//! same order per element, so the results are bit-identical.
//!
//! The accumulators' gradient is not written out either: element `j` of it is
//! `0 + dy · w[j]` where ClippedReLU passes a gradient and 0 elsewhere, so the
//! sample's `dy` and one byte per element ([`PASS`] or 0) say all of it — a
//! quarter of the memory, which the sparse transformer gradient reads once per
//! active feature ([`crate::train::sparse`]).

use super::kernels::{crelu, crelu_passes};

/// Mask byte of an element whose gradient ClippedReLU passes (0: blocked).
pub const PASS: u8 = 0xFF;

/// Where the mask bytes of a batch live. Samples come in chunks of `chunk`
/// (the dense pass's tasks, each writing its own contiguous region), and inside
/// a chunk column block by column block (`block` elements of each entry, the
/// last block narrower), entry after entry. The sparse gradient's task for one
/// column block then reads one contiguous run per chunk, a few hundred pages in
/// all, which the TLB holds; laid out entry by entry, every 64-byte read would
/// land on a different page of a 16 MiB buffer and wait for a page walk.
#[derive(Copy, Clone, Debug)]
pub struct MaskLayout {
    pub half: usize,
    pub samples: usize,
    pub chunk: usize,
    pub block: usize,
}

impl MaskLayout {
    /// Offset of element `col` of entry `e` (`2 * sample + perspective`), where
    /// `col` starts a column block; the block's elements follow it.
    #[inline(always)]
    pub fn offset(&self, e: usize, col: usize) -> usize {
        let first = e / 2 - (e / 2) % self.chunk;
        let len = self.chunk.min(self.samples - first);
        let width = self.block.min(self.half - col);
        first * 2 * self.half + 2 * len * col + (e - 2 * first) * width
    }

    /// Copies one sample's masks (`[us, them]`, `2 * half` bytes) to their
    /// places in `region`, the region of the chunk that holds sample `i`.
    #[inline(always)]
    pub fn scatter(&self, i: usize, mask: &[u8], region: &mut [u8]) {
        let base = (i - i % self.chunk) * 2 * self.half;
        for (p, side) in mask.chunks_exact(self.half).enumerate() {
            for col in (0..self.half).step_by(self.block) {
                let width = self.block.min(self.half - col);
                let at = self.offset(2 * i + p, col) - base;
                region[at..at + width].copy_from_slice(&side[col..col + width]);
            }
        }
    }
}

/// Element `j`'s gradient from the mask byte, `dy` and the output weight:
/// `0 + dy · w` or 0, as the backward pass computes it.
#[inline(always)]
pub fn element_grad(mask: u8, dy: f32, w: f32) -> f32 {
    if mask != 0 {
        0.0 + dy * w
    } else {
        0.0
    }
}

/// [`element_grad`] up to the sign of a zero, in two instructions (a multiply
/// and a bitwise and with the sign-extended mask byte): `dy · w` or `+0`.
/// Where `dy · w` is `-0`, [`element_grad`] gives `+0`; a sum that starts at
/// `+0` ends with the same bits either way (`x + ±0 = x` for `x ≠ 0`, and
/// `+0 + ±0 = +0`), which is all the transformer gradient uses it for.
#[inline(always)]
pub fn element_grad_bits(mask: u8, dy: f32, w: f32) -> f32 {
    let all = i32::from(mask as i8) as u32;
    f32::from_bits((dy * w).to_bits() & all)
}
/// For one sample whose accumulators are `acc` (`[us, them]`, pre-activation)
/// and output gradient `dy`, with output weights `w` (`2 * half`):
/// - `gw[j] += dy · crelu(acc[j])` (the output weights' gradient),
/// - `mask[j]`: [`PASS`] where ClippedReLU passes a gradient, else 0,
/// - `gb[j] += acc_grad[j]; gb[j] += acc_grad[half + j]` (the transformer
///   bias), with `acc_grad` = [`element_grad`].
#[inline(always)]
pub fn backward(acc: &[f32], w: &[f32], dy: f32, gw: &mut [f32], gb: &mut [f32], mask: &mut [u8]) {
    let half = gb.len();
    let (us, them) = acc.split_at(half);
    let (w_us, w_them) = w.split_at(half);
    let (gw_us, gw_them) = gw.split_at_mut(half);
    let (m_us, m_them) = mask.split_at_mut(half);
    let lanes = us
        .iter()
        .zip(them)
        .zip(w_us.iter().zip(w_them))
        .zip(gw_us.iter_mut().zip(gw_them.iter_mut()))
        .zip(gb.iter_mut().zip(m_us.iter_mut().zip(m_them.iter_mut())));
    for ((((&a, &b), (&wa, &wb)), (ga, gbw)), (bias, (ma, mb))) in lanes {
        *ga += dy * crelu(a);
        *gbw += dy * crelu(b);
        *ma = if crelu_passes(a) { PASS } else { 0 };
        *mb = if crelu_passes(b) { PASS } else { 0 };
        *bias += element_grad(*ma, dy, wa);
        *bias += element_grad(*mb, dy, wb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_layout_places_every_byte_once() {
        for (half, samples) in [(8, 5), (72, 7), (128, 3)] {
            let layout = MaskLayout {
                half,
                samples,
                chunk: 2,
                block: 64,
            };
            let mut seen = vec![false; samples * 2 * half];
            for e in 0..2 * samples {
                for col in (0..half).step_by(64) {
                    for j in col..(col + 64).min(half) {
                        let at = layout.offset(e, col) + j - col;
                        assert!(!seen[at], "half {half}: byte {at} twice");
                        seen[at] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
    use crate::model::kernels::{add, axpy};

    #[test]
    fn matches_the_general_passes() {
        let half = 24;
        let acc: Vec<f32> = (0..2 * half)
            .map(|i| (i as f32 * 0.37).sin() * 1.3)
            .collect();
        let w: Vec<f32> = (0..2 * half)
            .map(|i| (i as f32 * 0.11).cos() * 0.7)
            .collect();
        let dy = 0.0123f32;
        let mut gw = vec![0.5f32; 2 * half];
        let mut gb = vec![-0.25f32; half];
        // General path: clipped inputs, weight gradient, input gradient, bias.
        let x: Vec<f32> = acc.iter().map(|&a| crelu(a)).collect();
        let mut gw_ref = gw.clone();
        axpy(&mut gw_ref, dy, &x);
        let mut dx = vec![0.0f32; 2 * half];
        axpy(&mut dx, dy, &w);
        for (d, &a) in dx.iter_mut().zip(&acc) {
            if !crelu_passes(a) {
                *d = 0.0;
            }
        }
        let mut gb_ref = gb.clone();
        add(&mut gb_ref, &dx[..half]);
        add(&mut gb_ref, &dx[half..]);

        let mut mask = vec![0u8; 2 * half];
        backward(&acc, &w, dy, &mut gw, &mut gb, &mut mask);
        let grads: Vec<f32> = mask
            .iter()
            .zip(&w)
            .map(|(&m, &w)| element_grad(m, dy, w))
            .collect();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&grads), bits(&dx));
        for ((&m, &w), &g) in mask.iter().zip(&w).zip(&grads) {
            assert_eq!(element_grad_bits(m, dy, w), g);
        }
        assert_eq!(bits(&gw), bits(&gw_ref));
        assert_eq!(bits(&gb), bits(&gb_ref));
    }
}

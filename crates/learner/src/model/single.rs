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
//! sample's `dy` and one bit per element say all of it — a 32nd of the memory,
//! which the sparse transformer gradient reads once per active feature
//! ([`crate::train::masked`]).

use super::kernels::{crelu, crelu_passes};

/// Mask byte of an element whose gradient ClippedReLU passes (0: blocked).
pub const PASS: u8 = 0xFF;

/// Columns of one mask word: bit `k` of a word is column `col + k`'s mask.
pub const WORD_BITS: usize = 64;

/// Where the mask words of a batch live. Each entry (`2 * sample +
/// perspective`) has one word per [`WORD_BITS`] columns (the last word
/// narrower when `half` is not a multiple). Samples come in chunks of
/// `2^chunk_log2` (the dense pass's tasks, each writing its own contiguous
/// region), and inside a chunk word column by word column, entry after entry:
/// the gradient's task for one column word then reads one contiguous run per
/// chunk. The last chunk is padded to full size, so a word's index is a few
/// shifts and masks of the entry.
#[derive(Copy, Clone, Debug)]
pub struct MaskLayout {
    pub half: usize,
    pub samples: usize,
    /// Samples per chunk, as a power of two.
    pub chunk_log2: u32,
}

impl MaskLayout {
    /// Words of one entry.
    #[inline(always)]
    pub fn words(&self) -> usize {
        self.half.div_ceil(WORD_BITS)
    }

    /// Samples per chunk.
    #[inline(always)]
    pub fn chunk(&self) -> usize {
        1 << self.chunk_log2
    }

    /// Words of one chunk (of the whole batch: a multiple of it).
    pub fn chunk_words(&self) -> usize {
        2 * self.chunk() * self.words()
    }

    /// Words of the whole batch, the last chunk padded.
    pub fn total_words(&self) -> usize {
        self.samples.div_ceil(self.chunk()) * self.chunk_words()
    }

    /// How far word `c + 1` of an entry is from its word `c`.
    #[inline(always)]
    pub fn word_stride(&self) -> usize {
        2 * self.chunk()
    }

    /// Index of word `c` (columns `c * WORD_BITS..`) of entry `e`.
    #[inline(always)]
    pub fn index(&self, e: usize, c: usize) -> usize {
        // Entries per chunk: 2^shift.
        let shift = self.chunk_log2 + 1;
        (((e >> shift) * self.words() + c) << shift) | (e & ((1 << shift) - 1))
    }

    /// Packs one sample's mask bytes (`[us, them]`, `2 * half` bytes, [`PASS`]
    /// or 0) into its words in `region`, the region of the chunk that holds
    /// sample `i`.
    #[inline(always)]
    pub fn scatter(&self, i: usize, mask: &[u8], region: &mut [u64]) {
        let base = self.index(2 * (i - i % self.chunk()), 0);
        for (p, side) in mask.chunks_exact(self.half).enumerate() {
            for (c, bytes) in side.chunks(WORD_BITS).enumerate() {
                region[self.index(2 * i + p, c) - base] = pack_bits(bytes);
            }
        }
    }
}

/// Bit `k` set where `bytes[k]` is [`PASS`] (at most [`WORD_BITS`] bytes, each
/// [`PASS`] or 0): eight bytes at a time, each byte's low bit gathered into the
/// top byte of one multiplication (bit `8k` times bit `7(8 - k)` lands on bit
/// `56 + k`; no two products meet, so no carries).
#[inline(always)]
pub fn pack_bits(bytes: &[u8]) -> u64 {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let gather = |eight: [u8; 8]| (u64::from_le_bytes(eight) & LOW_BITS).wrapping_mul(GATHER) >> 56;
    let mut word = 0u64;
    let groups = bytes.chunks_exact(8);
    let tail = groups.remainder();
    let full = groups.len();
    for (k, group) in groups.enumerate() {
        let eight: [u8; 8] = group.try_into().unwrap_or_else(|_| unreachable!("8 bytes"));
        word |= gather(eight) << (8 * k);
    }
    if !tail.is_empty() {
        let mut eight = [0u8; 8];
        eight[..tail.len()].copy_from_slice(tail);
        word |= gather(eight) << (8 * full);
    }
    word
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
    fn mask_layout_places_every_word_once() {
        for (half, samples) in [(8, 5), (72, 7), (128, 3), (200, 9)] {
            let layout = MaskLayout {
                half,
                samples,
                chunk_log2: 2,
            };
            let mut seen = vec![false; layout.total_words()];
            for e in 0..2 * samples {
                for c in 0..layout.words() {
                    let at = layout.index(e, c);
                    assert!(!seen[at], "half {half}: word {at} twice");
                    if c > 0 {
                        assert_eq!(at - layout.index(e, c - 1), layout.word_stride());
                    }
                    seen[at] = true;
                }
            }
            // Only the last chunk's padding is unused.
            let used = 2 * samples * layout.words();
            assert_eq!(seen.iter().filter(|&&s| s).count(), used);
        }
    }

    #[test]
    fn pack_bits_sets_the_passing_bytes() {
        for len in [1, 7, 8, 13, 64] {
            let bytes: Vec<u8> = (0..len)
                .map(|k| if (k * 7 + len) % 3 == 0 { PASS } else { 0 })
                .collect();
            let word = pack_bits(&bytes);
            for (k, &b) in bytes.iter().enumerate() {
                assert_eq!(word >> k & 1 == 1, b == PASS, "len {len}, bit {k}");
            }
            if len < 64 {
                assert_eq!(word >> len, 0, "len {len}: bits past the end");
            }
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
        assert_eq!(bits(&gw), bits(&gw_ref));
        assert_eq!(bits(&gb), bits(&gb_ref));
    }
}

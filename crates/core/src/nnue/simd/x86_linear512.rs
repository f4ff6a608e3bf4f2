//! The AVX-512 twin of [`super::x86_linear::update_narrow_dot_avx2`] for
//! ClippedReLU nets: the int8-row accumulator update and the output layer's dot
//! product in one pass, 512-bit registers (half the instructions of the AVX2
//! kernel), the dot product by VNNI's `vpdpbusd` (unsigned 8-bit inputs times
//! signed 8-bit weights, summed into 32-bit lanes without saturation: the same
//! exact sum). Taken for widths that are whole tiles ([`fits`]); others, and
//! SCReLU nets, keep the AVX2 kernel.

use std::arch::x86_64::*;

use super::narrow_tile::{by_row_counts, narrow_tile};

/// Int16 values in one 512-bit register.
const LANES: usize = 32;
/// Registers an update keeps in flight: 256 accumulator values.
const TILE: usize = 8;

/// Whether a width of `n` values is whole tiles of this kernel.
#[inline]
pub(super) fn fits(n: usize) -> bool {
    n > 0 && n.is_multiple_of(TILE * LANES)
}

/// `dst = src - Σ rows of removed + Σ rows of added` (wrapping int16, int8
/// rows widened) and `Σ clamp(dst[i], 0, 127) · weights[i]` (wrapping i32).
/// The usual moves (one row off and one on; a capture, a promotion or
/// castling) get a copy compiled for their row counts.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VNNI; [`fits`]`(dst.len())`,
/// `src.len() >= dst.len()`, `weights.len() >= dst.len()` and every row index
/// is inside `table` (row `f` is `table[f * n..(f + 1) * n]` with `n = dst.len()`).
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub unsafe fn update_narrow_dot_avx512(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: &[u32],
    added: &[u32],
    weights: &[i8],
) -> i32 {
    // SAFETY (every arm): forwarded from the caller, with the same rows.
    unsafe { by_row_counts!(fused; dst, src, table, removed, added, weights) }
}

/// [`update_narrow_dot_avx512`] for row lists of any type: arrays give copies
/// with the row loops unrolled, slices the general one.
///
/// # Safety
/// As for [`update_narrow_dot_avx512`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn fused<R: AsRef<[u32]>, A: AsRef<[u32]>>(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: R,
    added: A,
    weights: &[i8],
) -> i32 {
    let (removed, added) = (removed.as_ref(), added.as_ref());
    let n = dst.len();
    // `_mm512_packs_epi16(a, b)` packs each 128-bit lane on its own, leaving the
    // 64-bit groups in the order a0 b0 a1 b1 a2 b2 a3 b3; the weights' groups
    // are put in that order, so each input meets its own weight.
    let order = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
    // Two sums, so consecutive dot steps do not wait on each other.
    let mut sums = [_mm512_setzero_si512(); 2];
    let mut start = 0;
    while start + TILE * LANES <= n {
        let mut regs = [_mm512_setzero_si512(); TILE];
        // SAFETY: every access is below `start + TILE * LANES <= n` within
        // `src`, `dst`, `weights` or a row of `table`, as the caller guarantees.
        unsafe {
            narrow_tile!(regs = src + table[removed, added] -> dst at start;
                lanes: LANES, load: _mm512_loadu_si512, widen: widen, sub: _mm512_sub_epi16,
                add: _mm512_add_epi16, store: _mm512_storeu_si512);
            for (k, pair) in regs.chunks_exact(2).enumerate() {
                let w = _mm512_loadu_si512(weights.as_ptr().add(start + 2 * k * LANES).cast());
                // Saturating packs caps at 127, the max with zero removes
                // negatives: exactly clamp(v, 0, 127), read as unsigned bytes.
                let x =
                    _mm512_max_epi8(_mm512_packs_epi16(pair[0], pair[1]), _mm512_setzero_si512());
                let w = _mm512_permutexvar_epi64(order, w);
                sums[k % 2] = _mm512_dpbusd_epi32(sums[k % 2], x, w);
            }
        }
        start += TILE * LANES;
    }
    _mm512_reduce_add_epi32(_mm512_add_epi32(sums[0], sums[1]))
}

/// Thirty-two int8 values from `p`, sign-extended to int16.
///
/// # Safety
/// The CPU must support AVX-512 BW; `p` must be readable for 32 bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn widen(p: *const i8) -> __m512i {
    // SAFETY: forwarded from the caller.
    _mm512_cvtepi8_epi16(unsafe { _mm256_loadu_si256(p.cast()) })
}

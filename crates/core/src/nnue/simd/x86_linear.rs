//! AVX2 kernels of the nets without a hidden layer and of int8 transformer rows:
//! [`clamped_dot_avx2`] (ClippedReLU folded into the output layer's dot product)
//! and [`update_narrow_avx2`] (accumulator update from rows stored as int8).
//!
//! AVX-512 CPUs run these AVX2 versions too, except the fused update and dot
//! product of ClippedReLU nets, whose 512-bit twin is `x86_linear512.rs` (the
//! search's evaluation: 4 % more bench nodes per second on a Zen 4 VM).

use std::arch::x86_64::*;

use super::narrow_tile::{by_row_counts, narrow_tile};

/// Int16 values in one 256-bit register.
const LANES: usize = 16;
/// Accumulator values (and int8 weights) one dot-product step takes: two
/// registers of int16 packed into one of int8.
const DOT_STEP: usize = 2 * LANES;
/// `_mm256_packs_epi16(a, b)` leaves 64-bit groups in the order a0 b0 a1 b1 (its
/// 128-bit halves are packed separately); this `vpermq` selector puts the
/// weights' groups in that same order, so each input meets its own weight.
const PACKS_ORDER: i32 = 0b11_01_10_00;
/// Registers an int8-row update keeps in flight: 128 accumulator values.
const NARROW_TILE: usize = 8;

/// `Σ clamp(acc[i], 0, 127) · w[i]` for 32 values as eight i32 partial sums.
///
/// # Safety
/// The CPU must support AVX2; `acc` must be readable for 32 i16 and `w` for 32 i8.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn dot_step(acc: *const i16, w: *const i8) -> __m256i {
    // SAFETY: the caller guarantees 32 readable values behind both pointers.
    let (a, b, w) = unsafe {
        (
            _mm256_loadu_si256(acc.cast()),
            _mm256_loadu_si256(acc.add(LANES).cast()),
            _mm256_loadu_si256(w.cast()),
        )
    };
    // Saturating packs caps at 127, the max with zero removes negatives: exactly
    // clamp(v, 0, 127). `maddubs` cannot saturate (127 · 128 · 2 < 32767) and
    // `madd` with ones widens its pairs to i32 exactly.
    let x = _mm256_max_epi8(_mm256_packs_epi16(a, b), _mm256_setzero_si256());
    let w = _mm256_permute4x64_epi64(w, PACKS_ORDER);
    _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1))
}

/// AVX2 [`super::Kernel::clamped_dot`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn clamped_dot_avx2(acc: &[i16], weights: &[i8]) -> i32 {
    let n = acc.len().min(weights.len());
    let (a, w) = (acc.as_ptr(), weights.as_ptr());
    // Two independent sums, so consecutive steps do not wait on each other.
    let mut even = _mm256_setzero_si256();
    let mut odd = _mm256_setzero_si256();
    let mut i = 0;
    while i + 2 * DOT_STEP <= n {
        // SAFETY: `i + 64 <= n`, and both slices hold at least `n` values.
        unsafe {
            even = _mm256_add_epi32(even, dot_step(a.add(i), w.add(i)));
            odd = _mm256_add_epi32(odd, dot_step(a.add(i + DOT_STEP), w.add(i + DOT_STEP)));
        }
        i += 2 * DOT_STEP;
    }
    if i + DOT_STEP <= n {
        // SAFETY: `i + 32 <= n`, as above.
        even = _mm256_add_epi32(even, unsafe { dot_step(a.add(i), w.add(i)) });
        i += DOT_STEP;
    }
    let tail = super::scalar::clamped_dot(&acc[i..n], &weights[i..n]);
    hsum(_mm256_add_epi32(even, odd)).wrapping_add(tail)
}

/// `Σ clamp(x[i], 0, 127) · w[i]` for the 32 values of two registers (`lo` the
/// first 16) as eight i32 partial sums: [`dot_step`] on values in registers.
///
/// # Safety
/// The CPU must support AVX2; `w` must be readable for 32 i8.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn dot_registers(lo: __m256i, hi: __m256i, w: *const i8) -> __m256i {
    // SAFETY: forwarded from the caller.
    let w = unsafe { _mm256_loadu_si256(w.cast()) };
    let x = _mm256_max_epi8(_mm256_packs_epi16(lo, hi), _mm256_setzero_si256());
    let w = _mm256_permute4x64_epi64(w, PACKS_ORDER);
    _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1))
}

/// Sum of the eight i32 lanes (wrapping).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn hsum(v: __m256i) -> i32 {
    let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
    let total = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
    _mm_cvtsi128_si32(total)
}

/// AVX2 [`super::Kernel::update_narrow_dot`] (and, `SQUARED`,
/// [`super::Kernel::update_narrow_screlu_dot`]): the update of
/// [`update_narrow_avx2`], and while each tile of new values is still in
/// registers, its part of the output layer's dot product (so the accumulator is
/// never read back). The usual moves (one row off and one on; a capture, a
/// promotion or castling) get a copy compiled for their row counts, with no loop
/// over the rows.
///
/// # Safety
/// As for [`update_narrow_avx2`], and `weights.len() >= dst.len()`.
#[target_feature(enable = "avx2")]
pub unsafe fn update_narrow_dot_avx2<const SQUARED: bool>(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: &[u32],
    added: &[u32],
    weights: &[i8],
) -> i32 {
    // SAFETY (every arm): forwarded from the caller, with the same rows.
    unsafe {
        by_row_counts!(fused_update_dot::<SQUARED, _, _>; dst, src, table, removed, added, weights)
    }
}

/// [`update_narrow_dot_avx2`] for row lists of any type: arrays give copies with
/// the row loops unrolled, slices the general one.
///
/// # Safety
/// As for [`update_narrow_dot_avx2`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn fused_update_dot<const SQUARED: bool, R: AsRef<[u32]>, A: AsRef<[u32]>>(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: R,
    added: A,
    weights: &[i8],
) -> i32 {
    let (removed, added) = (removed.as_ref(), added.as_ref());
    let n = dst.len();
    let mut sums = [_mm256_setzero_si256(); 2];
    let mut start = 0;
    while start + NARROW_TILE * LANES <= n {
        // SAFETY: every access is below `start + NARROW_TILE * LANES <= n` within
        // `src`, `dst`, `weights` or a row of `table`, as the caller guarantees.
        unsafe {
            let regs = update_tile(dst, src, table, start, removed, added);
            for (k, pair) in regs.chunks_exact(2).enumerate() {
                let w = weights.as_ptr().add(start + k * DOT_STEP);
                let dot = if SQUARED {
                    super::x86_screlu::dot_registers(pair[0], pair[1], w)
                } else {
                    dot_registers(pair[0], pair[1], w)
                };
                sums[k % 2] = _mm256_add_epi32(sums[k % 2], dot);
            }
        }
        start += NARROW_TILE * LANES;
    }
    let tiled = start;
    // The values no whole tile covers (none for widths that are multiples of
    // 128): update them one by one, then read them back for the dot product.
    // SAFETY: forwarded from the caller.
    unsafe { super::x86::update_tail(dst, src, table, removed, added, tiled) };
    let (tail, tail_weights) = (&dst[tiled..], &weights[tiled..n]);
    // SAFETY: AVX2 is present (this function's contract).
    let rest = unsafe {
        if SQUARED {
            super::x86_screlu::screlu_dot_avx2(tail, tail_weights)
        } else {
            clamped_dot_avx2(tail, tail_weights)
        }
    };
    hsum(_mm256_add_epi32(sums[0], sums[1])).wrapping_add(rest)
}

/// One tile of an int8-row update: the [`NARROW_TILE`] registers of `src` from
/// `start`, every removed row subtracted and every added row added (widened to
/// int16), stored to `dst` and returned, so a fused caller can use them while
/// they are still in registers.
///
/// # Safety
/// The CPU must support AVX2; `start + NARROW_TILE * LANES <= dst.len() <=
/// src.len()`, and every row index is inside `table` (row `f` is
/// `table[f * n..(f + 1) * n]` with `n = dst.len()`).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn update_tile(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    start: usize,
    removed: &[u32],
    added: &[u32],
) -> [__m256i; NARROW_TILE] {
    let mut regs = [_mm256_setzero_si256(); NARROW_TILE];
    // SAFETY: every access is below `start + NARROW_TILE * LANES <= dst.len()` within
    // `src`, `dst` or a row of `table`, as the caller guarantees.
    unsafe {
        narrow_tile!(regs = src + table[removed, added] -> dst at start;
            lanes: LANES, load: _mm256_loadu_si256, widen: widen, sub: _mm256_sub_epi16,
            add: _mm256_add_epi16, store: _mm256_storeu_si256);
    }
    regs
}

/// Sixteen int8 values from `p`, sign-extended to int16.
///
/// # Safety
/// The CPU must support AVX2; `p` must be readable for 16 bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen(p: *const i8) -> __m256i {
    // SAFETY: forwarded from the caller.
    _mm256_cvtepi8_epi16(unsafe { _mm_loadu_si128(p.cast()) })
}

/// AVX2 [`super::Kernel::update_narrow`]: tiles of [`NARROW_TILE`] registers stay
/// in registers while every removed and added row is widened and applied.
///
/// # Safety
/// The CPU must support AVX2; `src.len() >= dst.len()` and every row index is
/// inside `table` (row `f` is `table[f * n..(f + 1) * n]` with `n = dst.len()`).
#[target_feature(enable = "avx2")]
pub unsafe fn update_narrow_avx2(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: &[u32],
    added: &[u32],
) {
    let n = dst.len();
    let mut start = 0;
    while start + NARROW_TILE * LANES <= n {
        // SAFETY: every access is below `start + NARROW_TILE * LANES <= n` within
        // `src`, `dst` or a row of `table`, as the caller guarantees.
        unsafe {
            update_tile(dst, src, table, start, removed, added);
        }
        start += NARROW_TILE * LANES;
    }
    while start + LANES <= n {
        // SAFETY: as above for one register.
        unsafe {
            let mut reg = _mm256_loadu_si256(src.as_ptr().add(start).cast());
            for &f in removed {
                reg = _mm256_sub_epi16(reg, widen(table.as_ptr().add(f as usize * n + start)));
            }
            for &f in added {
                reg = _mm256_add_epi16(reg, widen(table.as_ptr().add(f as usize * n + start)));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(start).cast(), reg);
        }
        start += LANES;
    }
    // SAFETY: forwarded from the caller.
    unsafe { super::x86::update_tail(dst, src, table, removed, added, start) };
}

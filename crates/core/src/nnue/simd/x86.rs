//! x86-64 kernels. Each checks the slice lengths it relies on up front and falls
//! back to the scalar kernel when they do not hold, so no input makes them read
//! or write out of bounds. Loads and stores are unaligned (`loadu`/`storeu`): the
//! buffers are plain `Vec`s and modern cores pay nothing for it.

use std::arch::x86_64::*;

use super::scalar;

/// Lanes of a 256-bit register of i16.
const L256: usize = 16;
/// Lanes of a 128-bit register of i16.
const L128: usize = 8;

fn rows_cover(rows: &[&[i16]], n: usize) -> bool {
    rows.iter().all(|r| r.len() >= n)
}

/// AVX2 [`super::Kernel::update`]: tiles of four registers (64 values) stay in
/// registers while every removed and added row is applied.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn update_avx2(dst: &mut [i16], src: &[i16], removed: &[&[i16]], added: &[&[i16]]) {
    let n = dst.len();
    if src.len() < n || !rows_cover(removed, n) || !rows_cover(added, n) {
        return scalar::update(dst, src, removed, added);
    }
    // SAFETY: the caller guarantees AVX2.
    unsafe { update_avx2_from(dst, src, removed, added, 0) }
}

/// [`update_avx2`] from index `start` on; lengths are already checked.
#[target_feature(enable = "avx2")]
unsafe fn update_avx2_from(
    dst: &mut [i16],
    src: &[i16],
    removed: &[&[i16]],
    added: &[&[i16]],
    mut start: usize,
) {
    let n = dst.len();
    const TILE: usize = 4;
    while start + TILE * L256 <= n {
        // SAFETY: every access is below `start + TILE * L256 <= n`, checked above
        // for every slice involved.
        unsafe {
            let mut regs = [_mm256_setzero_si256(); TILE];
            for (k, reg) in regs.iter_mut().enumerate() {
                *reg = _mm256_loadu_si256(src.as_ptr().add(start + k * L256).cast());
            }
            for row in removed {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm256_loadu_si256(row.as_ptr().add(start + k * L256).cast());
                    *reg = _mm256_sub_epi16(*reg, w);
                }
            }
            for row in added {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm256_loadu_si256(row.as_ptr().add(start + k * L256).cast());
                    *reg = _mm256_add_epi16(*reg, w);
                }
            }
            for (k, reg) in regs.iter().enumerate() {
                _mm256_storeu_si256(dst.as_mut_ptr().add(start + k * L256).cast(), *reg);
            }
        }
        start += TILE * L256;
    }
    update_tail(dst, src, removed, added, start);
}

/// Scalar update of `start..` (the part no full SIMD tile covers).
fn update_tail(dst: &mut [i16], src: &[i16], removed: &[&[i16]], added: &[&[i16]], start: usize) {
    let tail = |r: &[i16]| -> Vec<i16> { r.get(start..).unwrap_or(&[]).to_vec() };
    if start >= dst.len() {
        return;
    }
    let removed_tail: Vec<Vec<i16>> = removed.iter().map(|r| tail(r)).collect();
    let added_tail: Vec<Vec<i16>> = added.iter().map(|r| tail(r)).collect();
    let removed_refs: Vec<&[i16]> = removed_tail.iter().map(Vec::as_slice).collect();
    let added_refs: Vec<&[i16]> = added_tail.iter().map(Vec::as_slice).collect();
    if let (Some(d), Some(s)) = (dst.get_mut(start..), src.get(start..)) {
        scalar::update(d, s, &removed_refs, &added_refs);
    }
}

/// SSE2 [`super::Kernel::update`].
pub fn update_sse2(dst: &mut [i16], src: &[i16], removed: &[&[i16]], added: &[&[i16]]) {
    let n = dst.len();
    if src.len() < n || !rows_cover(removed, n) || !rows_cover(added, n) {
        return scalar::update(dst, src, removed, added);
    }
    const TILE: usize = 8;
    let mut start = 0;
    while start + TILE * L128 <= n {
        // SAFETY: bounds as in `update_avx2`; SSE2 is part of x86-64.
        unsafe {
            let mut regs = [_mm_setzero_si128(); TILE];
            for (k, reg) in regs.iter_mut().enumerate() {
                *reg = _mm_loadu_si128(src.as_ptr().add(start + k * L128).cast());
            }
            for row in removed {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm_loadu_si128(row.as_ptr().add(start + k * L128).cast());
                    *reg = _mm_sub_epi16(*reg, w);
                }
            }
            for row in added {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm_loadu_si128(row.as_ptr().add(start + k * L128).cast());
                    *reg = _mm_add_epi16(*reg, w);
                }
            }
            for (k, reg) in regs.iter().enumerate() {
                _mm_storeu_si128(dst.as_mut_ptr().add(start + k * L128).cast(), *reg);
            }
        }
        start += TILE * L128;
    }
    update_tail(dst, src, removed, added, start);
}

/// AVX2 [`super::Kernel::clamp_to_u8`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn clamp_avx2(acc: &[i16], out: &mut [u8]) {
    let n = acc.len().min(out.len());
    let mut i = 0;
    while i + 2 * L256 <= n {
        // SAFETY: `i + 32 <= n` bounds both the 32 i16 read and the 32 u8 written.
        unsafe {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let b = _mm256_loadu_si256(acc.as_ptr().add(i + L256).cast());
            // Saturating pack to i8 caps at 127; packs interleaves 128-bit lanes,
            // the permute restores order; max with 0 removes negatives.
            let packed = _mm256_packs_epi16(a, b);
            let ordered = _mm256_permute4x64_epi64(packed, 0b11_01_10_00);
            let clamped = _mm256_max_epi8(ordered, _mm256_setzero_si256());
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), clamped);
        }
        i += 2 * L256;
    }
    if let (Some(a), Some(o)) = (acc.get(i..n), out.get_mut(i..n)) {
        scalar::clamp_to_u8(a, o);
    }
}

/// SSE2 [`super::Kernel::clamp_to_u8`].
pub fn clamp_sse2(acc: &[i16], out: &mut [u8]) {
    let n = acc.len().min(out.len());
    let mut i = 0;
    while i + 2 * L128 <= n {
        // SAFETY: `i + 16 <= n` bounds the 16 i16 read and the 16 u8 written.
        unsafe {
            let zero = _mm_setzero_si128();
            let cap = _mm_set1_epi16(127);
            let a = _mm_loadu_si128(acc.as_ptr().add(i).cast());
            let b = _mm_loadu_si128(acc.as_ptr().add(i + L128).cast());
            let a = _mm_min_epi16(_mm_max_epi16(a, zero), cap);
            let b = _mm_min_epi16(_mm_max_epi16(b, zero), cap);
            _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), _mm_packus_epi16(a, b));
        }
        i += 2 * L128;
    }
    if let (Some(a), Some(o)) = (acc.get(i..n), out.get_mut(i..n)) {
        scalar::clamp_to_u8(a, o);
    }
}

/// Horizontal sum of eight i32.
#[target_feature(enable = "avx2")]
fn hsum_avx2(v: __m256i) -> i32 {
    let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    hsum_sse2(s)
}

/// Horizontal sum of four i32.
fn hsum_sse2(v: __m128i) -> i32 {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let s = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}

fn affine_shapes_ok(input: &[u8], weights: &[i8], bias: &[i32], out: &[i32], chunk: usize) -> bool {
    input.len().is_multiple_of(chunk)
        && bias.len() >= out.len()
        && weights.len() >= out.len().saturating_mul(input.len())
}

/// Sums each of four registers of eight i32 and adds `bias[0..4]`: the four
/// results in order.
#[target_feature(enable = "avx2")]
fn hsum4_avx2(s: [__m256i; 4], bias: __m128i) -> __m128i {
    let s01 = _mm256_hadd_epi32(s[0], s[1]);
    let s23 = _mm256_hadd_epi32(s[2], s[3]);
    let s = _mm256_hadd_epi32(s01, s23);
    let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    _mm_add_epi32(s, bias)
}

/// AVX2 [`super::Kernel::affine`]: four output rows at a time share each input
/// load; `maddubs` multiplies u8 inputs by i8 weights into i16 pairs, `madd` with
/// ones widens to i32.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn affine_avx2(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    if !affine_shapes_ok(input, weights, bias, out, 32) {
        return scalar::affine(input, weights, bias, out);
    }
    let width = input.len();
    let ones = _mm256_set1_epi16(1);
    let rows = out.len();
    let full = rows / 4 * 4;
    let x_ptr = input.as_ptr();
    for o in (0..full).step_by(4) {
        let mut sums = [_mm256_setzero_si256(); 4];
        // SAFETY: rows `o..o + 4` are below `rows`, each has `width` weights
        // (checked), and every chunk ends at or before `width`.
        unsafe {
            let w_ptr = weights.as_ptr().add(o * width);
            for c in (0..width).step_by(32) {
                let x = _mm256_loadu_si256(x_ptr.add(c).cast());
                for (k, sum) in sums.iter_mut().enumerate() {
                    let w = _mm256_loadu_si256(w_ptr.add(k * width + c).cast());
                    let products = _mm256_maddubs_epi16(x, w);
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(products, ones));
                }
            }
            let b = _mm_loadu_si128(bias.as_ptr().add(o).cast());
            _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), hsum4_avx2(sums, b));
        }
    }
    for o in full..rows {
        let mut sum = _mm256_setzero_si256();
        // SAFETY: as above for the single row `o`.
        unsafe {
            for c in (0..width).step_by(32) {
                let x = _mm256_loadu_si256(x_ptr.add(c).cast());
                let w = _mm256_loadu_si256(weights.as_ptr().add(o * width + c).cast());
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
            }
        }
        out[o] = bias[o].wrapping_add(hsum_avx2(sum));
    }
}

/// AVX-512 VNNI [`super::Kernel::affine`]: `vpdpbusd` accumulates four u8·i8
/// products per i32 lane exactly (no intermediate saturation), 64 inputs per
/// instruction when the row width allows, else 32.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VL and VNNI.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni,avx2")]
pub unsafe fn affine_vnni(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    if !affine_shapes_ok(input, weights, bias, out, 32) {
        return scalar::affine(input, weights, bias, out);
    }
    let width = input.len();
    let rows = out.len();
    let x_ptr = input.as_ptr();
    if width.is_multiple_of(64) {
        let full = rows / 4 * 4;
        for o in (0..full).step_by(4) {
            let mut sums = [_mm512_setzero_si512(); 4];
            // SAFETY: as in `affine_avx2`, with 64-byte chunks (`width % 64 == 0`).
            unsafe {
                let w_ptr = weights.as_ptr().add(o * width);
                for c in (0..width).step_by(64) {
                    let x = _mm512_loadu_si512(x_ptr.add(c).cast());
                    for (k, sum) in sums.iter_mut().enumerate() {
                        let w = _mm512_loadu_si512(w_ptr.add(k * width + c).cast());
                        *sum = _mm512_dpbusd_epi32(*sum, x, w);
                    }
                }
                // Fold 512 -> 256 bits, then the AVX2 four-way horizontal sum.
                let halves = sums.map(|s| {
                    _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1))
                });
                let b = _mm_loadu_si128(bias.as_ptr().add(o).cast());
                _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), hsum4_avx2(halves, b));
            }
        }
        for o in full..rows {
            // SAFETY: as above for the single row `o`.
            let sum = unsafe {
                let mut sum = _mm512_setzero_si512();
                for c in (0..width).step_by(64) {
                    let x = _mm512_loadu_si512(x_ptr.add(c).cast());
                    let w = _mm512_loadu_si512(weights.as_ptr().add(o * width + c).cast());
                    sum = _mm512_dpbusd_epi32(sum, x, w);
                }
                _mm512_reduce_add_epi32(sum)
            };
            out[o] = bias[o].wrapping_add(sum);
        }
    } else {
        let full = rows / 4 * 4;
        for o in (0..full).step_by(4) {
            let mut sums = [_mm256_setzero_si256(); 4];
            // SAFETY: 32-byte chunks of rows `o..o + 4`, each of `width` (a multiple
            // of 32) weights, all checked by `affine_shapes_ok`.
            unsafe {
                let w_ptr = weights.as_ptr().add(o * width);
                for c in (0..width).step_by(32) {
                    let x = _mm256_loadu_si256(x_ptr.add(c).cast());
                    for (k, sum) in sums.iter_mut().enumerate() {
                        let w = _mm256_loadu_si256(w_ptr.add(k * width + c).cast());
                        *sum = _mm256_dpbusd_epi32(*sum, x, w);
                    }
                }
                let b = _mm_loadu_si128(bias.as_ptr().add(o).cast());
                _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), hsum4_avx2(sums, b));
            }
        }
        for o in full..rows {
            // SAFETY: as above for the single row `o`.
            let sum = unsafe {
                let mut sum = _mm256_setzero_si256();
                for c in (0..width).step_by(32) {
                    let x = _mm256_loadu_si256(x_ptr.add(c).cast());
                    let w = _mm256_loadu_si256(weights.as_ptr().add(o * width + c).cast());
                    sum = _mm256_dpbusd_epi32(sum, x, w);
                }
                sum
            };
            out[o] = bias[o].wrapping_add(hsum_avx2(sum));
        }
    }
}

/// AVX-512 [`super::Kernel::update`]: 32 values per register, tiles of four.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn update_avx512(dst: &mut [i16], src: &[i16], removed: &[&[i16]], added: &[&[i16]]) {
    let n = dst.len();
    if src.len() < n || !rows_cover(removed, n) || !rows_cover(added, n) {
        return scalar::update(dst, src, removed, added);
    }
    const TILE: usize = 4;
    const L512: usize = 32;
    let mut start = 0;
    while start + TILE * L512 <= n {
        // SAFETY: every access is below `start + TILE * L512 <= n`.
        unsafe {
            let mut regs = [_mm512_setzero_si512(); TILE];
            for (k, reg) in regs.iter_mut().enumerate() {
                *reg = _mm512_loadu_si512(src.as_ptr().add(start + k * L512).cast());
            }
            for row in removed {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm512_loadu_si512(row.as_ptr().add(start + k * L512).cast());
                    *reg = _mm512_sub_epi16(*reg, w);
                }
            }
            for row in added {
                for (k, reg) in regs.iter_mut().enumerate() {
                    let w = _mm512_loadu_si512(row.as_ptr().add(start + k * L512).cast());
                    *reg = _mm512_add_epi16(*reg, w);
                }
            }
            for (k, reg) in regs.iter().enumerate() {
                _mm512_storeu_si512(dst.as_mut_ptr().add(start + k * L512).cast(), *reg);
            }
        }
        start += TILE * L512;
    }
    if start < n {
        // SAFETY: AVX-512 implies AVX2; the AVX2 kernel handles the rest.
        unsafe { update_avx2_from(dst, src, removed, added, start) };
    }
}

/// SSE2 [`super::Kernel::affine`]: widen u8 and i8 to i16, then `madd`.
pub fn affine_sse2(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    if !affine_shapes_ok(input, weights, bias, out, 16) {
        return scalar::affine(input, weights, bias, out);
    }
    let width = input.len();
    for (o, dst) in out.iter_mut().enumerate() {
        // SAFETY: row `o` has `width` weights (checked), chunks stay below `width`.
        let sum = unsafe {
            let zero = _mm_setzero_si128();
            let mut sum = _mm_setzero_si128();
            for c in (0..width).step_by(16) {
                let x = _mm_loadu_si128(input.as_ptr().add(c).cast());
                let w = _mm_loadu_si128(weights.as_ptr().add(o * width + c).cast());
                let x_lo = _mm_unpacklo_epi8(x, zero);
                let x_hi = _mm_unpackhi_epi8(x, zero);
                let w_lo = _mm_srai_epi16(_mm_unpacklo_epi8(w, w), 8);
                let w_hi = _mm_srai_epi16(_mm_unpackhi_epi8(w, w), 8);
                sum = _mm_add_epi32(sum, _mm_madd_epi16(x_lo, w_lo));
                sum = _mm_add_epi32(sum, _mm_madd_epi16(x_hi, w_hi));
            }
            sum
        };
        *dst = bias
            .get(o)
            .copied()
            .unwrap_or(0)
            .wrapping_add(hsum_sse2(sum));
    }
}

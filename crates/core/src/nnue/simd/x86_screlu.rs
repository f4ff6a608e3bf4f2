//! The AVX2 kernel of SCReLU nets without a hidden layer: [`screlu_dot_avx2`],
//! `Σ clamp(a, 0, 127)² · w` in i32, bit-identical to
//! [`super::scalar::screlu_dot`], and [`dot_registers`], its step on values
//! still in registers (the fused update of [`super::x86_linear`]).
//!
//! A square times a weight (up to `127² · 128`) does not fit in int16, but
//! `c · w` does (`|c · w| ≤ 127 · 128 = 16256`): the kernel multiplies the
//! clamped value by its weight in int16 (`mullo`, exact), then by the clamped
//! value again with `madd`, which widens each pair of products to one i32
//! (at most `2 · 16256 · 127`, no saturation). The lane sums wrap like the
//! scalar sum, so both agree modulo 2³² and therefore exactly.

use std::arch::x86_64::*;

/// Int16 values in one 256-bit register.
const LANES: usize = 16;

/// `Σ clamp(acc[i], 0, 127)² · w[i]` for 16 values as eight i32 partial sums.
///
/// # Safety
/// The CPU must support AVX2; `acc` must be readable for 16 i16 and `w` for 16 i8.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step(acc: *const i16, w: *const i8) -> __m256i {
    // SAFETY: the caller guarantees 16 readable values behind both pointers.
    unsafe { square_dot(_mm256_loadu_si256(acc.cast()), w) }
}

/// [`step`] on 16 values in a register.
///
/// # Safety
/// The CPU must support AVX2; `w` must be readable for 16 i8.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn square_dot(a: __m256i, w: *const i8) -> __m256i {
    // SAFETY: forwarded from the caller.
    let w = unsafe { _mm_loadu_si128(w.cast()) };
    let c = _mm256_min_epi16(
        _mm256_max_epi16(a, _mm256_setzero_si256()),
        _mm256_set1_epi16(127),
    );
    let cw = _mm256_mullo_epi16(c, _mm256_cvtepi8_epi16(w));
    _mm256_madd_epi16(cw, c)
}

/// `Σ clamp(x[i], 0, 127)² · w[i]` for the 32 values of two registers (`lo`
/// the first 16) as eight i32 partial sums.
///
/// # Safety
/// The CPU must support AVX2; `w` must be readable for 32 i8.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn dot_registers(lo: __m256i, hi: __m256i, w: *const i8) -> __m256i {
    // SAFETY: forwarded from the caller.
    unsafe { _mm256_add_epi32(square_dot(lo, w), square_dot(hi, w.add(LANES))) }
}

/// AVX2 [`super::Kernel::screlu_dot`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn screlu_dot_avx2(acc: &[i16], weights: &[i8]) -> i32 {
    let n = acc.len().min(weights.len());
    let (a, w) = (acc.as_ptr(), weights.as_ptr());
    // Two independent sums, so consecutive steps do not wait on each other.
    let mut even = _mm256_setzero_si256();
    let mut odd = _mm256_setzero_si256();
    let mut i = 0;
    while i + 2 * LANES <= n {
        // SAFETY: `i + 32 <= n`, and both slices hold at least `n` values.
        unsafe {
            even = _mm256_add_epi32(even, step(a.add(i), w.add(i)));
            odd = _mm256_add_epi32(odd, step(a.add(i + LANES), w.add(i + LANES)));
        }
        i += 2 * LANES;
    }
    if i + LANES <= n {
        // SAFETY: `i + 16 <= n`, as above.
        even = _mm256_add_epi32(even, unsafe { step(a.add(i), w.add(i)) });
        i += LANES;
    }
    let tail = super::scalar::screlu_dot(&acc[i..n], &weights[i..n]);
    super::x86_linear::hsum(_mm256_add_epi32(even, odd)).wrapping_add(tail)
}

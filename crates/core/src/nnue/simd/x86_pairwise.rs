//! The AVX2 kernel of Stockfish 15.1's transformer output: [`pairwise_mul_avx2`],
//! bit-identical to [`super::scalar::pairwise_mul`].
//!
//! Both factors are clamped to 0..=127, so their product (at most 16129) fits an
//! int16 exactly (`mullo`) and, being non-negative, `>> 7` is the division by 128;
//! the results (at most 126) pack to bytes without saturating. `packus` works per
//! 128-bit lane, so the packed quadwords are put back in order with one permute,
//! as 15.1's `vec_msb_pack_16` does.

use std::arch::x86_64::*;

/// Int16 values in one 256-bit register.
const LANES: usize = 16;

/// `out[j] = clamp(a[j], 0, 127) * clamp(a[j + n/2], 0, 127) / 128` for `j < n/2`
/// (`n = acc.len()`), 32 outputs per step, the scalar kernel for the rest.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn pairwise_mul_avx2(acc: &[i16], out: &mut [u8]) {
    let half = acc.len() / 2;
    let n = half.min(out.len());
    let (first, second) = acc.split_at(half);
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi16(127);
    let steps = n / (2 * LANES);
    for s in 0..steps {
        let j = s * 2 * LANES;
        // SAFETY: j + 32 <= n <= half, so 32 values are readable in both halves
        // and 32 bytes writable in `out`.
        unsafe {
            let clamp = |p: *const i16| {
                _mm256_max_epi16(_mm256_min_epi16(_mm256_loadu_si256(p.cast()), one), zero)
            };
            let a0 = clamp(first.as_ptr().add(j));
            let a1 = clamp(first.as_ptr().add(j + LANES));
            let b0 = clamp(second.as_ptr().add(j));
            let b1 = clamp(second.as_ptr().add(j + LANES));
            let p0 = _mm256_srli_epi16(_mm256_mullo_epi16(a0, b0), 7);
            let p1 = _mm256_srli_epi16(_mm256_mullo_epi16(a1, b1), 7);
            let packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(p0, p1), 0b11_01_10_00);
            _mm256_storeu_si256(out.as_mut_ptr().add(j).cast(), packed);
        }
    }
    let done = steps * 2 * LANES;
    for j in done..n {
        let a = i32::from(first[j]).clamp(0, 127);
        let b = i32::from(second[j]).clamp(0, 127);
        out[j] = (a * b / 128) as u8;
    }
}

//! x86-64 kernels. Each checks the slice lengths it relies on up front and falls
//! back to the scalar kernel when they do not hold, so no input makes them read
//! or write out of bounds. Loads and stores use the unaligned forms (`loadu`/`storeu`)
//! so that any slice is accepted; the network's buffers are 64-byte aligned
//! (`Aligned`), so in practice every access is aligned and costs nothing extra.

use std::arch::x86_64::*;

use super::scalar;

/// Lanes of a 512-bit register of i16.
const L512: usize = 32;
/// Lanes of a 256-bit register of i16.
const L256: usize = 16;
/// Lanes of a 128-bit register of i16.
const L128: usize = 8;

/// Scalar update of elements `start..n` (what no full SIMD tile covers), from
/// int16 rows or, widened, int8 ones: the tail of every x86 update kernel.
///
/// # Safety
/// As for the SIMD update kernels: `src.len() >= dst.len()` and every row index
/// is inside `table`.
pub(super) unsafe fn update_tail<T: Copy>(
    dst: &mut [i16],
    src: &[i16],
    table: &[T],
    removed: &[u32],
    added: &[u32],
    start: usize,
) where
    i16: From<T>,
{
    let n = dst.len();
    for i in start..n {
        // SAFETY: `i < n <= src.len()` and `f * n + i < (f + 1) * n <= table.len()`.
        unsafe {
            let mut v = *src.get_unchecked(i);
            for &f in removed {
                v = v.wrapping_sub(i16::from(*table.get_unchecked(f as usize * n + i)));
            }
            for &f in added {
                v = v.wrapping_add(i16::from(*table.get_unchecked(f as usize * n + i)));
            }
            *dst.get_unchecked_mut(i) = v;
        }
    }
}

/// Generates a tiled update kernel: tiles of `TILE` registers stay in registers
/// while every removed and added row is applied, then one store.
macro_rules! tiled_update {
    ($(#[$meta:meta])* $name:ident, $feature:literal, $lanes:expr, $zero:ident, $load:ident, $store:ident, $sub:ident, $add:ident, $tile:expr) => {
        $(#[$meta])*
        /// # Safety
        /// The CPU must support the kernel's instruction set; `src.len() >=
        /// dst.len()` and every row index is inside `table` (row `f` is
        /// `table[f * n..(f + 1) * n]` with `n = dst.len()`).
        #[target_feature(enable = $feature)]
        pub unsafe fn $name(dst: &mut [i16], src: &[i16], table: &[i16], removed: &[u32], added: &[u32]) {
            let n = dst.len();
            const TILE: usize = $tile;
            let mut start = 0;
            while start + TILE * $lanes <= n {
                // SAFETY: every access is below `start + TILE * lanes <= n` within
                // `src`, `dst` or a row of `table`, as the caller guarantees.
                unsafe {
                    let mut regs = [$zero(); TILE];
                    for (k, reg) in regs.iter_mut().enumerate() {
                        *reg = $load(src.as_ptr().add(start + k * $lanes).cast());
                    }
                    for &f in removed {
                        let row = table.as_ptr().add(f as usize * n + start);
                        for (k, reg) in regs.iter_mut().enumerate() {
                            *reg = $sub(*reg, $load(row.add(k * $lanes).cast()));
                        }
                    }
                    for &f in added {
                        let row = table.as_ptr().add(f as usize * n + start);
                        for (k, reg) in regs.iter_mut().enumerate() {
                            *reg = $add(*reg, $load(row.add(k * $lanes).cast()));
                        }
                    }
                    for (k, reg) in regs.iter().enumerate() {
                        $store(dst.as_mut_ptr().add(start + k * $lanes).cast(), *reg);
                    }
                }
                start += TILE * $lanes;
            }
            // Single registers, then scalar for the last few values.
            while start + $lanes <= n {
                // SAFETY: as above for one register.
                unsafe {
                    let mut reg = $load(src.as_ptr().add(start).cast());
                    for &f in removed {
                        reg = $sub(reg, $load(table.as_ptr().add(f as usize * n + start).cast()));
                    }
                    for &f in added {
                        reg = $add(reg, $load(table.as_ptr().add(f as usize * n + start).cast()));
                    }
                    $store(dst.as_mut_ptr().add(start).cast(), reg);
                }
                start += $lanes;
            }
            // SAFETY: forwarded from the caller.
            unsafe { update_tail(dst, src, table, removed, added, start) };
        }
    };
}

tiled_update!(
    /// AVX-512 [`super::Kernel::update`]: 32 values per register.
    update_avx512, "avx512f,avx512bw", L512, _mm512_setzero_si512, _mm512_loadu_si512,
    _mm512_storeu_si512, _mm512_sub_epi16, _mm512_add_epi16, 4
);
tiled_update!(
    /// AVX2 [`super::Kernel::update`]: 16 values per register.
    update_avx2, "avx2", L256, _mm256_setzero_si256, _mm256_loadu_si256, _mm256_storeu_si256,
    _mm256_sub_epi16, _mm256_add_epi16, 4
);
tiled_update!(
    /// SSE2 [`super::Kernel::update`]: 8 values per register.
    update_sse2, "sse2", L128, _mm_setzero_si128, _mm_loadu_si128, _mm_storeu_si128,
    _mm_sub_epi16, _mm_add_epi16, 8
);

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

/// The row loops of the AVX2 and VNNI affine kernels, written once for any
/// register width: blocks of four output rows share each input load, then the
/// rows left over one by one. `$dot(sum, x, w)` adds the u8·i8 products of one
/// chunk of `$chunk` inputs to `sum`; `$fold` narrows a block's sums to 256 bits
/// for [`hsum4_avx2`] and `$reduce` sums one register. A macro, not a generic
/// function: each width's intrinsics are distinct functions on distinct types,
/// and every expansion is the plain loop written out, as fast as before.
///
/// The caller must be a function enabling the instruction sets the intrinsics
/// need, and must have checked `affine_shapes_ok` with `$chunk` dividing the row
/// width.
macro_rules! affine_rows {
    ($input:ident, $weights:ident, $bias:ident, $out:ident; chunk: $chunk:expr,
     zero: $zero:ident, load: $load:ident, dot: $dot:expr, fold: $fold:expr,
     reduce: $reduce:expr) => {{
        let width = $input.len();
        let rows = $out.len();
        let x_ptr = $input.as_ptr();
        let full = rows / 4 * 4;
        for o in (0..full).step_by(4) {
            let mut sums = [$zero(); 4];
            // SAFETY: rows `o..o + 4` are below `rows`, each has `width` weights
            // (checked), and every chunk ends at or before `width`.
            unsafe {
                let w_ptr = $weights.as_ptr().add(o * width);
                for c in (0..width).step_by($chunk) {
                    let x = $load(x_ptr.add(c).cast());
                    for (k, sum) in sums.iter_mut().enumerate() {
                        let w = $load(w_ptr.add(k * width + c).cast());
                        *sum = $dot(*sum, x, w);
                    }
                }
                let b = _mm_loadu_si128($bias.as_ptr().add(o).cast());
                let four = hsum4_avx2(sums.map($fold), b);
                _mm_storeu_si128($out.as_mut_ptr().add(o).cast(), four);
            }
        }
        for o in full..rows {
            // SAFETY: as above for the single row `o`.
            let sum = unsafe {
                let mut sum = $zero();
                for c in (0..width).step_by($chunk) {
                    let x = $load(x_ptr.add(c).cast());
                    let w = $load($weights.as_ptr().add(o * width + c).cast());
                    sum = $dot(sum, x, w);
                }
                $reduce(sum)
            };
            $out[o] = $bias[o].wrapping_add(sum);
        }
    }};
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
    let ones = _mm256_set1_epi16(1);
    let dot =
        |sum, x, w| _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), ones));
    affine_rows!(
        input, weights, bias, out;
        chunk: 32, zero: _mm256_setzero_si256, load: _mm256_loadu_si256,
        dot: dot, fold: |s| s, reduce: hsum_avx2
    );
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
    if input.len().is_multiple_of(64) {
        // Fold 512 -> 256 bits, then the AVX2 four-way horizontal sum.
        let fold = |s| _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
        affine_rows!(
            input, weights, bias, out;
            chunk: 64, zero: _mm512_setzero_si512, load: _mm512_loadu_si512,
            dot: _mm512_dpbusd_epi32, fold: fold, reduce: _mm512_reduce_add_epi32
        );
    } else {
        affine_rows!(
            input, weights, bias, out;
            chunk: 32, zero: _mm256_setzero_si256, load: _mm256_loadu_si256,
            dot: _mm256_dpbusd_epi32, fold: |s| s, reduce: hsum_avx2
        );
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

/// AVX2 [`super::Kernel::clipped_relu`]: shift, then two saturating packs give
/// `clamp(v >> 6, -128, 127)`, a max with zero the lower bound; the dword permute
/// undoes the packs' 128-bit lane interleaving.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn clipped_relu_avx2(input: &[i32], out: &mut [u8]) {
    let n = input.len().min(out.len());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: `i + 32 <= n` bounds the 32 i32 read and the 32 u8 written.
        unsafe {
            let p = input.as_ptr().add(i);
            let s0 = _mm256_srai_epi32(_mm256_loadu_si256(p.cast()), 6);
            let s1 = _mm256_srai_epi32(_mm256_loadu_si256(p.add(8).cast()), 6);
            let s2 = _mm256_srai_epi32(_mm256_loadu_si256(p.add(16).cast()), 6);
            let s3 = _mm256_srai_epi32(_mm256_loadu_si256(p.add(24).cast()), 6);
            let words = _mm256_packs_epi16(_mm256_packs_epi32(s0, s1), _mm256_packs_epi32(s2, s3));
            let clamped = _mm256_max_epi8(words, _mm256_setzero_si256());
            let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
            let ordered = _mm256_permutevar8x32_epi32(clamped, order);
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), ordered);
        }
        i += 32;
    }
    if let (Some(a), Some(o)) = (input.get(i..n), out.get_mut(i..n)) {
        scalar::clipped_relu(a, o);
    }
}

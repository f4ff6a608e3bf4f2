//! The f32 loops every layer is made of, written so the compiler vectorises them:
//! `axpy` runs over contiguous rows, and `dot` keeps [`LANES`] independent partial
//! sums (a single running sum would forbid reordering the additions).
//!
//! The summation order is fixed by the code, never by the thread count, which is
//! what makes training results independent of `--threads`.

use nnue_core::nnue::Activation;

/// Partial sums kept by [`dot`].
pub const LANES: usize = 8;

/// Floats of a sum kept in registers while rows are added to it: eight AVX2
/// registers (four AVX-512 ones). Each row then costs one load per register and
/// no store, where adding row after row into memory costs two loads and a store.
pub const BLOCK: usize = 64;

/// Environment variable that caps the instructions the hot loops use (`plain`,
/// `avx2`): the plain build and the SIMD builds must train bit-identical nets,
/// and this is how the tests (and anyone) compare them.
pub const SIMD_ENV: &str = "NNUE_LEARN_SIMD";

/// `y += a * x`.
#[inline(always)]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// `y += x`.
#[inline(always)]
pub fn add(y: &mut [f32], x: &[f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += x;
    }
}

/// `y += (x[0] + x[1]) + (x[2] + x[3])`.
#[inline(always)]
pub fn add4(y: &mut [f32], x: [&[f32]; 4]) {
    let n = y.len();
    let [a, b, c, d] = x.map(|v| &v[..n]);
    for i in 0..n {
        y[i] += (a[i] + b[i]) + (c[i] + d[i]);
    }
}

/// `out = bias + Σ table[r]` over `rows` (rows of `bias.len()` floats): each
/// element summed in the order of `rows`, the same additions as [`add`] row
/// after row, but [`BLOCK`] floats at a time held in registers.
#[inline(always)]
pub fn sum_rows(bias: &[f32], table: &[f32], rows: &[u32], out: &mut [f32]) {
    let width = bias.len();
    let blocked = width - width % BLOCK;
    for start in (0..blocked).step_by(BLOCK) {
        let mut sums = [0.0f32; BLOCK];
        sums.copy_from_slice(&bias[start..start + BLOCK]);
        for &r in rows {
            let from = r as usize * width + start;
            for (s, &w) in sums.iter_mut().zip(&table[from..from + BLOCK]) {
                *s += w;
            }
        }
        out[start..start + BLOCK].copy_from_slice(&sums);
    }
    if blocked < width {
        let tail = &mut out[blocked..width];
        tail.copy_from_slice(&bias[blocked..]);
        for &r in rows {
            let from = r as usize * width;
            add(tail, &table[from + blocked..from + width]);
        }
    }
}

/// `Σ crelu(a[i]) · b[i]`: [`dot`] of the clipped values, the same additions in
/// the same order, without writing the clipped values out first.
#[inline(always)]
pub fn crelu_dot(a: &[f32], b: &[f32]) -> f32 {
    mapped_dot(a, b, crelu)
}

/// Bytes of a cache line.
const CACHE_LINE: usize = 64;

/// Asks the CPU to bring `data` into cache ahead of use: for loops whose next
/// reads are known but scattered, so neither the hardware prefetcher nor
/// out-of-order execution hides the memory latency. A hint only: it changes no
/// value.
#[inline(always)]
pub fn prefetch<T>(data: &[T]) {
    #[cfg(target_arch = "x86_64")]
    for line in data.chunks((CACHE_LINE / size_of::<T>()).max(1)) {
        // SAFETY: PREFETCHT0 (SSE, part of x86-64) never faults and reads
        // nothing architecturally; the address is inside a live slice anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr().cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

/// `Σ a[i] · b[i]` over the common length, in a fixed order.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    mapped_dot(a, b, |x| x)
}

/// `Σ f(a[i]) · b[i]` over the common length: `LANES` partial sums, then the
/// tail, always in this order, so every build and CPU adds the same way.
#[inline(always)]
fn mapped_dot(a: &[f32], b: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for k in 0..LANES {
            acc[k] += f(x[k]) * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail += f(*x) * y;
    }
    acc.iter().sum::<f32>() + tail
}

/// ClippedReLU of the float model: `clamp(x, 0, 1)` (1.0 is the integer net's 127).
#[inline(always)]
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Whether a gradient passes ClippedReLU at pre-activation `x` (not clamped).
#[inline(always)]
pub fn crelu_passes(x: f32) -> bool {
    x > 0.0 && x < 1.0
}

/// SCReLU of the float model: `clamp(x, 0, 1)²` (the integer net's
/// `clamp(a, 0, 127)² / 127`, see `nnue_core::nnue::activation`).
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = crelu(x);
    c * c
}

/// The transformer's activation `activation` of pre-activation `x`.
#[inline(always)]
pub fn activate(activation: Activation, x: f32) -> f32 {
    match activation {
        Activation::ClippedRelu => crelu(x),
        Activation::SquaredClippedRelu => screlu(x),
    }
}

/// The slope of `activation` at `x` where a gradient passes ClippedReLU
/// ([`crelu_passes`]): 1 for ClippedReLU, `2x` for SCReLU. Both are flat
/// outside `(0, 1)`, where the caller writes 0.
#[inline(always)]
pub fn passing_slope(activation: Activation, x: f32) -> f32 {
    match activation {
        Activation::ClippedRelu => 1.0,
        Activation::SquaredClippedRelu => 2.0 * x,
    }
}

/// The widest vector instructions the hot loops are compiled for on this CPU.
/// Each loop exists plain, with AVX2 and with AVX-512; all sum in the same
/// order (the lanes of [`dot`] are explicit), so results are bit-identical.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Simd {
    Avx512,
    Avx2,
    Plain,
}

impl Simd {
    /// The CPU's widest, capped by [`SIMD_ENV`]; decided once per process.
    #[inline]
    pub fn detect() -> Simd {
        static LEVEL: std::sync::OnceLock<Simd> = std::sync::OnceLock::new();
        *LEVEL.get_or_init(|| {
            let cap = match std::env::var(SIMD_ENV).as_deref() {
                Ok("plain") => Simd::Plain,
                Ok("avx2") => Simd::Avx2,
                _ => Simd::Avx512,
            };
            Simd::cpu().min_with(cap)
        })
    }

    /// The widest level this CPU supports.
    fn cpu() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Plain
    }

    /// The narrower of two levels.
    fn min_with(self, other: Simd) -> Simd {
        let rank = |s: Simd| match s {
            Simd::Plain => 0,
            Simd::Avx2 => 1,
            Simd::Avx512 => 2,
        };
        if rank(other) < rank(self) {
            other
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values with fractions that make the order of additions visible.
    fn values(n: usize, seed: u32) -> Vec<f32> {
        (0..n)
            .map(|i| {
                let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8;
                (x % 20_000) as f32 / 7_919.0 - 1.1
            })
            .collect()
    }

    #[test]
    fn sum_rows_matches_adding_row_after_row() {
        for width in [8, 64, 72, 512] {
            let bias = values(width, 1);
            let table = values(40 * width, 2);
            let rows = [3u32, 0, 39, 17, 17, 5];
            let mut expected = bias.clone();
            for &r in &rows {
                add(
                    &mut expected,
                    &table[r as usize * width..(r as usize + 1) * width],
                );
            }
            let mut out = vec![0.0; width];
            sum_rows(&bias, &table, &rows, &mut out);
            assert_eq!(
                out.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                expected.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn crelu_dot_matches_dot_of_clipped_values() {
        for n in [8, 13, 1024] {
            let a = values(n, 3);
            let b = values(n, 4);
            let clipped: Vec<f32> = a.iter().map(|&x| crelu(x)).collect();
            assert_eq!(crelu_dot(&a, &b).to_bits(), dot(&clipped, &b).to_bits());
        }
    }
}

//! The f32 loops every layer is made of, written so the compiler vectorises them:
//! `axpy` runs over contiguous rows, and `dot` keeps [`LANES`] independent partial
//! sums (a single running sum would forbid reordering the additions).
//!
//! The summation order is fixed by the code, never by the thread count, which is
//! what makes training results independent of `--threads`.

/// Partial sums kept by [`dot`].
pub const LANES: usize = 8;

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

/// `Σ a[i] · b[i]` over the common length, in a fixed order.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for k in 0..LANES {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail += x * y;
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
    /// Detected once per call site; detection is a cached CPUID lookup.
    #[inline]
    pub fn detect() -> Simd {
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
}

//! The four integer kernels of the forward pass, in a scalar version and x86
//! SIMD versions (SSE2, AVX2, AVX-512 VNNI) chosen once at run time with
//! `is_x86_feature_detected!`, so a plain `cargo build --release` runs the best
//! code the CPU has.
//!
//! Every SIMD kernel gives bit-identical results to its scalar twin: int16
//! accumulator arithmetic wraps in both, and the int8 dot products cannot saturate
//! because transformed inputs are at most 127 (`127 * 128 * 2 < 32767` for AVX2's
//! pairwise `maddubs`). Tests run every kernel against the scalar one.

#[cfg(target_arch = "x86_64")]
mod narrow_tile;
pub mod scalar;
#[cfg(target_arch = "x86_64")]
pub mod x86;
#[cfg(target_arch = "x86_64")]
pub mod x86_linear;
#[cfg(target_arch = "x86_64")]
pub mod x86_linear512;
#[cfg(target_arch = "x86_64")]
pub mod x86_pairwise;
#[cfg(target_arch = "x86_64")]
pub mod x86_screlu;

/// Which implementation of the kernels to run, slowest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kernel {
    /// Plain Rust, any target.
    Scalar,
    /// x86-64 SSE2 (always present on x86-64).
    Sse2,
    /// x86-64 AVX2.
    Avx2,
    /// x86-64 AVX-512 (F, BW, VL) with VNNI: `vpdpbusd` does the u8·i8 dot
    /// products of the affine layers in one exact instruction.
    Avx512Vnni,
}

impl Kernel {
    /// The fastest kernel this CPU supports (detected once, then cached).
    pub fn detect() -> Kernel {
        static DETECTED: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512vnni")
                {
                    return Kernel::Avx512Vnni;
                }
                if std::is_x86_feature_detected!("avx2") {
                    return Kernel::Avx2;
                }
                Kernel::Sse2
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                Kernel::Scalar
            }
        })
    }

    /// Every kernel this CPU can run (for tests and benchmarks).
    pub fn available() -> Vec<Kernel> {
        [
            Kernel::Scalar,
            Kernel::Sse2,
            Kernel::Avx2,
            Kernel::Avx512Vnni,
        ]
        .into_iter()
        .filter(|&k| k <= Kernel::detect())
        .collect()
    }

    /// A kernel the CPU can actually run: one it lacks degrades to the best it has.
    #[inline]
    fn usable(self) -> Kernel {
        self.min(Kernel::detect())
    }

    /// `dst = src - Σ table rows of removed + Σ table rows of added` (wrapping
    /// int16), where row `f` of the feature-major `table` is
    /// `table[f * n..(f + 1) * n]` and `n = dst.len()`.
    pub fn update(
        self,
        dst: &mut [i16],
        src: &[i16],
        table: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        let n = dst.len();
        let valid = src.len() >= n && rows_exist(table, n, removed, added);
        if !valid {
            return scalar::update(dst, src, table, removed, added);
        }
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` only returns a kernel whose features the CPU has, and
            // the lengths and row indices were checked above.
            Kernel::Avx512Vnni => unsafe { x86::update_avx512(dst, src, table, removed, added) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx2 => unsafe { x86::update_avx2(dst, src, table, removed, added) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (SSE2 is part of x86-64).
            Kernel::Sse2 => unsafe { x86::update_sse2(dst, src, table, removed, added) },
            _ => scalar::update(dst, src, table, removed, added),
        }
    }

    /// [`Kernel::update`] from a table of int8 rows (a net whose transformer
    /// weights all fit in int8 keeps such a copy: half the bytes to read per row,
    /// the same values). Rows are sign-extended to int16 before they are applied.
    #[inline]
    pub fn update_narrow(
        self,
        dst: &mut [i16],
        src: &[i16],
        table: &[i8],
        removed: &[u32],
        added: &[u32],
    ) {
        let n = dst.len();
        let valid = src.len() >= n && rows_exist(table, n, removed, added);
        if !valid {
            return scalar::update_narrow(dst, src, table, removed, added);
        }
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` only returns a kernel whose features the CPU has
            // (AVX-512 implies AVX2), and the lengths and row indices were checked
            // above.
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe {
                x86_linear::update_narrow_avx2(dst, src, table, removed, added)
            },
            _ => scalar::update_narrow(dst, src, table, removed, added),
        }
    }

    /// [`Kernel::update_narrow`] into `dst`, then [`Kernel::clamped_dot`] of `dst`
    /// with `weights`, in one pass: the new values are multiplied while still in
    /// registers. One call per perspective is a whole incremental evaluation of a
    /// net without hidden layers.
    #[inline]
    pub fn update_narrow_dot(
        self,
        dst: &mut [i16],
        src: &[i16],
        table: &[i8],
        removed: &[u32],
        added: &[u32],
        weights: &[i8],
    ) -> i32 {
        self.update_narrow_fused::<false>(dst, src, table, removed, added, weights)
    }

    /// [`Kernel::update_narrow`] into `dst`, then [`Kernel::screlu_dot`] of
    /// `dst` with `weights`, in one pass: [`Kernel::update_narrow_dot`] for an
    /// SCReLU net.
    #[inline]
    pub fn update_narrow_screlu_dot(
        self,
        dst: &mut [i16],
        src: &[i16],
        table: &[i8],
        removed: &[u32],
        added: &[u32],
        weights: &[i8],
    ) -> i32 {
        self.update_narrow_fused::<true>(dst, src, table, removed, added, weights)
    }

    /// The one dispatch of both fused updates ([`Kernel::update_narrow_screlu_dot`]
    /// when `SQUARED`): a const parameter, so each caller gets its own copy with
    /// the activation fixed at compile time and nothing is decided per call.
    #[inline]
    fn update_narrow_fused<const SQUARED: bool>(
        self,
        dst: &mut [i16],
        src: &[i16],
        table: &[i8],
        removed: &[u32],
        added: &[u32],
        weights: &[i8],
    ) -> i32 {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Vnni
                if !SQUARED
                    && x86_linear512::fits(dst.len())
                    && src.len() >= dst.len()
                    && weights.len() >= dst.len()
                    && rows_exist(table, dst.len(), removed, added) =>
            // SAFETY: `usable` only returns AVX-512 VNNI where the CPU has it
            // (F, BW, VL, VNNI); the guard checked the width, lengths and rows.
            unsafe {
                x86_linear512::update_narrow_dot_avx512(dst, src, table, removed, added, weights)
            },
            // Inputs the AVX2 kernel cannot take go to the scalar one, which
            // accepts anything.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Avx512Vnni
                if src.len() >= dst.len()
                    && weights.len() >= dst.len()
                    && rows_exist(table, dst.len(), removed, added) =>
            // SAFETY: `usable` only returns a kernel whose features the CPU has
            // (AVX-512 implies AVX2); the guard checked the lengths and row indices.
            unsafe {
                x86_linear::update_narrow_dot_avx2::<SQUARED>(
                    dst, src, table, removed, added, weights,
                )
            },
            _ if SQUARED => {
                scalar::update_narrow_screlu_dot(dst, src, table, removed, added, weights)
            }
            _ => scalar::update_narrow_dot(dst, src, table, removed, added, weights),
        }
    }

    /// `Σ_i clamp(acc[i], 0, 127) * weights[i]` (wrapping i32) over the shorter of
    /// the two: ClippedReLU and a dot product in one pass, the whole forward pass
    /// of a net without hidden layers (one call per accumulator).
    #[inline]
    pub fn clamped_dot(self, acc: &[i16], weights: &[i8]) -> i32 {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (AVX-512 implies AVX2); the kernel bounds its own
            // accesses by both slice lengths.
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe {
                x86_linear::clamped_dot_avx2(acc, weights)
            },
            _ => scalar::clamped_dot(acc, weights),
        }
    }

    /// `Σ_i clamp(acc[i], 0, 127)² * weights[i]` (wrapping i32) over the shorter
    /// of the two: SCReLU and the output layer's dot product in one pass (see
    /// [`crate::nnue::activation`] for the scale). SSE2 runs the scalar version.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i8]) -> i32 {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` only returns a kernel whose features the CPU has
            // (AVX-512 implies AVX2); the kernel bounds its own accesses by both
            // slice lengths.
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe {
                x86_screlu::screlu_dot_avx2(acc, weights)
            },
            _ => scalar::screlu_dot(acc, weights),
        }
    }

    /// `out[i] = clamp(acc[i], 0, 127)² / 127`: an SCReLU transformer's output
    /// as a hidden layer reads it. Scalar on every kernel (it runs once per
    /// evaluation of a net with hidden layers, beside their far larger affine
    /// products).
    pub fn screlu_to_u8(self, acc: &[i16], out: &mut [u8]) {
        scalar::screlu_to_u8(acc, out);
    }

    /// `out[i] = clamp(acc[i], 0, 127)`.
    pub fn clamp_to_u8(self, acc: &[i16], out: &mut [u8]) {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (AVX-512 implies AVX2).
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe { x86::clamp_avx2(acc, out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => x86::clamp_sse2(acc, out),
            _ => scalar::clamp_to_u8(acc, out),
        }
    }

    /// `out[o] = bias[o] + Σ_i weights[o * input.len() + i] * input[i]`.
    /// `input.len()` is the padded row length (a multiple of 32).
    pub fn affine(self, input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx512Vnni => unsafe { x86::affine_vnni(input, weights, bias, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx2 => unsafe { x86::affine_avx2(input, weights, bias, out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => x86::affine_sse2(input, weights, bias, out),
            _ => scalar::affine(input, weights, bias, out),
        }
    }

    /// `out[j] = clamp(acc[j], 0, 127) * clamp(acc[j + n/2], 0, 127) / 128` for
    /// `j < n/2`, `n = acc.len()`: Stockfish 15.1's transformer output (one
    /// perspective's half of the layer stacks' input).
    pub fn pairwise_mul(self, acc: &[i16], out: &mut [u8]) {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (AVX-512 implies AVX2).
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe {
                x86_pairwise::pairwise_mul_avx2(acc, out)
            },
            _ => scalar::pairwise_mul(acc, out),
        }
    }

    /// `out[i] = clamp(input[i] >> 6, 0, 127)`.
    pub fn clipped_relu(self, input: &[i32], out: &mut [u8]) {
        match self.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above (AVX-512 implies AVX2).
            Kernel::Avx2 | Kernel::Avx512Vnni => unsafe { x86::clipped_relu_avx2(input, out) },
            _ => scalar::clipped_relu(input, out),
        }
    }
}

/// Whether every row of `removed` and `added` lies inside the feature-major
/// `table` of rows `width` long: the check that lets the SIMD kernels read rows
/// without bounds checks (the scalar kernels treat a missing row as zero).
#[inline]
fn rows_exist<T>(table: &[T], width: usize, removed: &[u32], added: &[u32]) -> bool {
    removed
        .iter()
        .chain(added)
        .all(|&f| scalar::row(table, f, width).is_some())
}

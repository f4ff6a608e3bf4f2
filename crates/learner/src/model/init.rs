//! Reproducible initial parameters.
//!
//! Transformer biases start at 0.5 so the ClippedReLU begins in its linear range,
//! and weights are uniform in ±0.5/√(max active features), which keeps the
//! accumulator mostly within (0, 1). Dense layers use ±1/√fan-in (the usual
//! fan-in scaling); all values come from a counter-based SplitMix64 stream per
//! tensor, so the same seed gives the same net on any machine and thread count.

use nnue_core::nnue::random::splitmix64_finalize;

/// Golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A uniform value in `[-1, 1)` for position `i` of stream `stream`.
pub fn uniform(seed: u64, stream: u64, i: u64) -> f32 {
    let base = splitmix64_finalize(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let z = splitmix64_finalize(base.wrapping_add((i + 1).wrapping_mul(GOLDEN)));
    // 24 random bits, as many as an f32 mantissa holds.
    ((z >> 40) as f32 / (1u64 << 23) as f32) - 1.0
}

/// `n` values of stream `stream` in `±scale`.
pub fn uniform_vec(seed: u64, stream: u64, n: usize, scale: f32) -> Vec<f32> {
    (0..n as u64)
        .map(|i| scale * uniform(seed, stream, i))
        .collect()
}

/// Initial transformer bias.
pub const FT_BIAS_INIT: f32 = 0.5;

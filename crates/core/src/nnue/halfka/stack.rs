//! One layer stack of a HalfKAv2_hm net and its forward pass, as 15.1's
//! `Network::propagate` computes it:
//!
//! * `fc_0`: `width -> 16` (int8 weights, int32 sums);
//! * outputs 0..15 go on twice: squared (`SqrClippedReLU`: `min(127, x² >> 19)`,
//!   i.e. `(x² >> 12) / 128`) and clipped (`ClippedReLU`: `clamp(x >> 6, 0, 127)`),
//!   concatenated squared first into the 30 (padded 32) inputs of `fc_1`;
//! * `fc_1`: `30 -> 32`, clipped, then `fc_2`: `32 -> 1`;
//! * output 16 of `fc_0` skips ahead: `fc_0[15] * 9600 / 8128` (1.0, which is
//!   `127 << 6` in `fc_0`'s units, becomes `600 * OutputScale`) is added to `fc_2`.

use super::shape::{padded, L1, L2, OUTPUT_SCALE, WEIGHT_SCALE_BITS};
use crate::nnue::aligned::Aligned;
use crate::nnue::simd::Kernel;

/// The first layer's outputs: `L1` fed on plus the skip connection.
const FC0_OUT: usize = L1 + 1;
/// `fc_1`'s padded input width.
const FC1_IN: usize = padded(2 * L1);
/// `fc_2`'s padded input width.
const FC2_IN: usize = padded(L2);
/// The skip connection's numerator: 15.1's `600 * OutputScale`.
const SKIP_SCALE: i32 = 600 * OUTPUT_SCALE;
/// The skip connection's denominator: 15.1's `127 * (1 << WeightScaleBits)`.
const SKIP_UNIT: i32 = 127 << WEIGHT_SCALE_BITS;
/// `SqrClippedReLU`'s shift: `2 * WeightScaleBits` and the division by 128.
const SQR_SHIFT: u32 = 2 * WEIGHT_SCALE_BITS + 7;

/// One affine layer: biases and row-major weights with rows padded to 32 inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Affine {
    /// One per output.
    pub biases: Vec<i32>,
    /// `outputs × padded(inputs)`, row-major, as the file stores them.
    pub weights: Aligned<i8>,
}

impl Affine {
    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.biases.len()
    }

    /// `out = biases + weights · input` (exact int32; `input` is a padded row).
    fn forward(&self, kernel: Kernel, input: &[u8], out: &mut [i32]) {
        kernel.affine(input, &self.weights, &self.biases, out);
    }
}

/// The three affine layers of one stack.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerStack {
    /// `width -> 16`.
    pub fc0: Affine,
    /// `30 (32) -> 32`.
    pub fc1: Affine,
    /// `32 -> 1`.
    pub fc2: Affine,
}

/// `SqrClippedReLU` of one `fc_0` output.
#[inline]
fn sqr_clipped_relu(x: i32) -> u8 {
    let square = i64::from(x) * i64::from(x);
    (square >> SQR_SHIFT).min(127) as u8
}

/// `ClippedReLU` of one `fc_0` output.
#[inline]
fn clipped_relu(x: i32) -> u8 {
    (x >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8
}

impl LayerStack {
    /// The positional output (15.1's `propagate`) of the transformed features
    /// `input` (`width` bytes), in raw units (`OutputScale` per internal unit).
    pub fn propagate(&self, kernel: Kernel, input: &[u8]) -> i32 {
        let mut fc0 = [0i32; FC0_OUT];
        self.fc0.forward(kernel, input, &mut fc0);
        let mut fc1_in = [0u8; FC1_IN];
        for (i, &x) in fc0[..L1].iter().enumerate() {
            fc1_in[i] = sqr_clipped_relu(x);
            fc1_in[L1 + i] = clipped_relu(x);
        }
        let mut fc1 = [0i32; L2];
        self.fc1.forward(kernel, &fc1_in, &mut fc1);
        let mut fc2_in = [0u8; FC2_IN];
        kernel.clipped_relu(&fc1, &mut fc2_in[..L2]);
        let mut fc2 = [0i32; 1];
        self.fc2.forward(kernel, &fc2_in, &mut fc2);
        let skip = fc0[L1].wrapping_mul(SKIP_SCALE) / SKIP_UNIT;
        fc2[0].wrapping_add(skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 15.1's scalar formulas: `(x * x >> 12) / 128` capped at 127, and
    /// `clamp(x >> 6, 0, 127)` (arithmetic shift, so -1 >> 6 = -1 -> 0).
    #[test]
    fn activations_follow_the_15_1_scalar_formulas() {
        for x in [
            -70_000, -32_768, -1000, -1, 0, 63, 64, 724, 725, 8191, 8192, 40_000,
        ] {
            let sqr = ((i64::from(x) * i64::from(x)) >> 12) / 128;
            assert_eq!(i64::from(sqr_clipped_relu(x)), sqr.clamp(0, 127), "x = {x}");
            assert_eq!(i32::from(clipped_relu(x)), (x >> 6).clamp(0, 127));
        }
        assert_eq!(sqr_clipped_relu(724), 0); // 724² = 524176 < 2^19
        assert_eq!(sqr_clipped_relu(725), 1); // 725² = 525625 >= 2^19
    }
}

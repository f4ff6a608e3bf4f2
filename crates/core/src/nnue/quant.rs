//! Float ↔ int mapping of the parameters (formats.md 4.4), as the nodchip trainer and
//! nnue-pytorch's serializer use it, so a float model of ours and theirs map to the
//! same integers:
//!
//! | parameter | scale | int type |
//! |---|---|---|
//! | transformer weights and biases | 127 | i16 |
//! | hidden weights | 64 (2^6, the ClippedReLU shift) | i8 |
//! | hidden biases | 8128 = 64 · 127 | i32 |
//! | output weights | 9600 / 127 ≈ 75.59 | i8 |
//! | output bias | 9600 = 600 · 16 | i32 |
//!
//! With these, a float network's output × 600 is in internal units (`× 9600 / 16`).
//! Quantizing rounds half away from zero and saturates at the type's range; since
//! |hidden weight| ≤ 127/64 ≈ 1.98 in float, trainers should clip to that.

use super::arch::Architecture;
use super::error::NetworkError;
use super::network::Network;

/// Scale of transformer weights and biases.
pub const FT_SCALE: f32 = 127.0;
/// Scale of hidden-layer weights.
pub const HIDDEN_WEIGHT_SCALE: f32 = 64.0;
/// Scale of hidden-layer biases.
pub const HIDDEN_BIAS_SCALE: f32 = 64.0 * 127.0;
/// Scale of output-layer weights.
pub const OUTPUT_WEIGHT_SCALE: f32 = 9600.0 / 127.0;
/// Scale of the output bias.
pub const OUTPUT_BIAS_SCALE: f32 = 9600.0;

/// Which parameter a value is, for choosing its scale.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    Transformer,
    HiddenWeight,
    HiddenBias,
    OutputWeight,
    OutputBias,
}

impl ParameterKind {
    /// The factor float values are multiplied by.
    pub const fn scale(self) -> f32 {
        match self {
            ParameterKind::Transformer => FT_SCALE,
            ParameterKind::HiddenWeight => HIDDEN_WEIGHT_SCALE,
            ParameterKind::HiddenBias => HIDDEN_BIAS_SCALE,
            ParameterKind::OutputWeight => OUTPUT_WEIGHT_SCALE,
            ParameterKind::OutputBias => OUTPUT_BIAS_SCALE,
        }
    }

    /// `round(x · scale)` saturated to `[min, max]` (NaN maps to 0).
    fn quantize(self, x: f32, min: i64, max: i64) -> i64 {
        let v = (f64::from(x) * f64::from(self.scale())).round();
        if v.is_nan() {
            0
        } else {
            (v as i64).clamp(min, max)
        }
    }

    /// Quantizes an i16 parameter (transformer).
    pub fn to_i16(self, x: f32) -> i16 {
        self.quantize(x, i64::from(i16::MIN), i64::from(i16::MAX)) as i16
    }

    /// Quantizes an i8 parameter (weights of affine layers).
    pub fn to_i8(self, x: f32) -> i8 {
        self.quantize(x, i64::from(i8::MIN), i64::from(i8::MAX)) as i8
    }

    /// Quantizes an i32 parameter (biases of affine layers).
    pub fn to_i32(self, x: f32) -> i32 {
        self.quantize(x, i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The float value of a quantized parameter.
    pub fn to_float(self, q: i64) -> f32 {
        (q as f64 / f64::from(self.scale())) as f32
    }
}

/// Float parameters of one affine layer: biases and row-major `[outputs][inputs]`
/// weights.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatAffine {
    pub biases: Vec<f32>,
    pub weights: Vec<f32>,
}

impl Network {
    /// Quantizes a float network (the learner's export path). Layers are hidden
    /// first, output last; shapes are checked against `arch`.
    pub fn from_float(
        arch: Architecture,
        ft_biases: &[f32],
        ft_weights: &[f32],
        layers: &[FloatAffine],
    ) -> Result<Network, NetworkError> {
        let last = layers.len().saturating_sub(1);
        let ft_b = ft_biases
            .iter()
            .map(|&x| ParameterKind::Transformer.to_i16(x))
            .collect();
        let ft_w = ft_weights
            .iter()
            .map(|&x| ParameterKind::Transformer.to_i16(x))
            .collect();
        let quantized = layers
            .iter()
            .enumerate()
            .map(|(k, layer)| {
                let (wk, bk) = if k == last {
                    (ParameterKind::OutputWeight, ParameterKind::OutputBias)
                } else {
                    (ParameterKind::HiddenWeight, ParameterKind::HiddenBias)
                };
                (
                    layer.biases.iter().map(|&x| bk.to_i32(x)).collect(),
                    layer.weights.iter().map(|&x| wk.to_i8(x)).collect(),
                )
            })
            .collect();
        Network::from_parameters(arch, ft_b, ft_w, quantized)
    }
}

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
    /// Feature transformer weights and biases (int16).
    Transformer,
    /// Hidden affine layer weights (int8).
    HiddenWeight,
    /// Hidden affine layer biases (int32).
    HiddenBias,
    /// Output layer weights (int8).
    OutputWeight,
    /// Output layer bias (int32).
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
        self.quantize_checked(x, min, max).0
    }

    /// [`Self::quantize`] and whether the value had to be clamped (or was NaN).
    fn quantize_checked(self, x: f32, min: i64, max: i64) -> (i64, bool) {
        let v = (f64::from(x) * f64::from(self.scale())).round();
        if v.is_nan() {
            (0, true)
        } else {
            let q = (v as i64).clamp(min, max);
            (q, v < min as f64 || v > max as f64)
        }
    }

    /// `(weights, biases)` of affine layer `k` of `layers` (the last one is the
    /// output layer).
    pub const fn of_layer(k: usize, layers: usize) -> (ParameterKind, ParameterKind) {
        if k + 1 == layers {
            (ParameterKind::OutputWeight, ParameterKind::OutputBias)
        } else {
            (ParameterKind::HiddenWeight, ParameterKind::HiddenBias)
        }
    }

    /// The range of the integer type this kind is stored in.
    fn int_range(self) -> (i64, i64) {
        match self {
            ParameterKind::Transformer => (i16::MIN.into(), i16::MAX.into()),
            ParameterKind::HiddenWeight | ParameterKind::OutputWeight => {
                (i8::MIN.into(), i8::MAX.into())
            }
            ParameterKind::HiddenBias | ParameterKind::OutputBias => {
                (i32::MIN.into(), i32::MAX.into())
            }
        }
    }

    /// The largest float value that quantizes without clamping for this kind's
    /// integer type (what trainers clip weights to).
    pub fn float_limit(self) -> f32 {
        (self.int_range().1 as f64 / f64::from(self.scale())) as f32
    }

    /// `x` as the file will hold it: quantized in this kind's integer type (with
    /// saturation) and back in float. What quantization-aware training runs.
    pub fn rounded(self, x: f32) -> f32 {
        let (min, max) = self.int_range();
        self.to_float(self.quantize(x, min, max))
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
    /// One bias per output.
    pub biases: Vec<f32>,
    /// `outputs * inputs` weights, one row per output.
    pub weights: Vec<f32>,
}

/// How many parameters quantization had to clamp (out of range or NaN), so a
/// trainer can tell a faithful export from a damaged one.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct QuantizationReport {
    /// Transformer weights and biases.
    pub transformer: usize,
    /// Weights and biases of the hidden and output layers.
    pub layers: usize,
}

impl QuantizationReport {
    /// All clamped parameters.
    pub fn clamped(&self) -> usize {
        self.transformer + self.layers
    }
}

/// Integer types a parameter is stored in.
trait Quantized: Sized {
    const MIN: i64;
    const MAX: i64;
    /// `q` is within `MIN..=MAX`.
    fn from_clamped(q: i64) -> Self;
}

macro_rules! quantized {
    ($($t:ty),*) => {$(
        impl Quantized for $t {
            const MIN: i64 = <$t>::MIN as i64;
            const MAX: i64 = <$t>::MAX as i64;
            fn from_clamped(q: i64) -> Self {
                q as $t
            }
        }
    )*};
}
quantized!(i8, i16, i32);

/// Quantizes `values` of `kind`, counting clamps into `clamped`.
fn quantize_all<T: Quantized>(values: &[f32], kind: ParameterKind, clamped: &mut usize) -> Vec<T> {
    values
        .iter()
        .map(|&x| {
            let (q, hit) = kind.quantize_checked(x, T::MIN, T::MAX);
            *clamped += usize::from(hit);
            T::from_clamped(q)
        })
        .collect()
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
        Network::from_float_report(arch, ft_biases, ft_weights, layers).map(|(net, _)| net)
    }

    /// [`Network::from_float`] that also reports how many parameters were clamped.
    pub fn from_float_report(
        arch: Architecture,
        ft_biases: &[f32],
        ft_weights: &[f32],
        layers: &[FloatAffine],
    ) -> Result<(Network, QuantizationReport), NetworkError> {
        let mut report = QuantizationReport::default();
        let ft_b = quantize_all(
            ft_biases,
            ParameterKind::Transformer,
            &mut report.transformer,
        );
        let ft_w = quantize_all(
            ft_weights,
            ParameterKind::Transformer,
            &mut report.transformer,
        );
        let quantized = layers
            .iter()
            .enumerate()
            .map(|(k, layer)| {
                let (wk, bk) = ParameterKind::of_layer(k, layers.len());
                (
                    quantize_all(&layer.biases, bk, &mut report.layers),
                    quantize_all(&layer.weights, wk, &mut report.layers),
                )
            })
            .collect();
        let net = Network::from_parameters(arch, ft_b, ft_w, quantized)?;
        Ok((net, report))
    }
}

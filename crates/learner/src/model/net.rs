//! The float network: a sparse feature transformer shared by both perspectives
//! and its activation (ClippedReLU or SCReLU), then dense layers with ClippedReLU, mirroring the quantized net exactly
//! (formats.md 4.4): the side to move's half comes first, and a float output `y`
//! is `600 · y` internal units.

use nnue_core::nnue::quant::OUTPUT_BIAS_SCALE;
use nnue_core::nnue::{FloatAffine, Network, QuantizationReport, FV_SCALE};

use super::dense::Dense;
use super::init::{uniform_vec, FT_BIAS_INIT};
use super::kernels::{activate, add, crelu, sum_rows};
use super::shape::ModelShape;
use crate::error::LearnError;

/// Internal units per unit of float output (9600 / 16).
pub const NET_TO_INTERNAL: f32 = OUTPUT_BIAS_SCALE / FV_SCALE as f32;

/// Parameters of the float model.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub shape: ModelShape,
    /// `rows * half` transformer weights, row-major by feature.
    pub ft_w: Vec<f32>,
    /// `half` transformer biases.
    pub ft_b: Vec<f32>,
    /// Hidden layers then the output layer.
    pub dense: Vec<Dense>,
}

/// Every intermediate value of one forward pass.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// `[acc(stm), acc(nstm)]`, `2 * half` values before ClippedReLU.
    pub acc: Vec<f32>,
    /// Each dense layer's output before ClippedReLU.
    pub layers: Vec<Vec<f32>>,
    /// The output bucket of the last forward pass.
    pub bucket: usize,
    /// The activated input of each dense layer (`inputs[0]`: the transformer's
    /// activation of `acc`, later ones ClippedReLU).
    pub inputs: Vec<Vec<f32>>,
}

impl Trace {
    /// Buffers for `model`.
    pub fn new(model: &Model) -> Trace {
        Trace {
            acc: vec![0.0; 2 * model.shape.half()],
            layers: model.dense.iter().map(|d| vec![0.0; d.outputs]).collect(),
            inputs: model.dense.iter().map(|d| vec![0.0; d.inputs]).collect(),
            bucket: 0,
        }
    }

    /// The float output: the output layer's value of [`Self::bucket`].
    pub fn output(&self) -> f32 {
        self.layers
            .last()
            .and_then(|l| l.get(self.bucket))
            .copied()
            .unwrap_or(0.0)
    }
}

impl Model {
    /// A freshly initialised model (see [`super::init`]).
    pub fn new(shape: ModelShape, seed: u64, max_active: usize) -> Model {
        let half = shape.half();
        let ft_scale = 0.5 / (max_active.max(1) as f32).sqrt();
        let ft_w = uniform_vec(seed, 0, shape.rows() * half, ft_scale);
        let ft_b = vec![FT_BIAS_INIT; half];
        let dense = shape
            .arch
            .affine_layers()
            .into_iter()
            .enumerate()
            .map(|(k, (inputs, outputs))| {
                let scale = 1.0 / (inputs as f32).sqrt();
                let stream = 2 * k as u64 + 1;
                Dense {
                    inputs,
                    outputs,
                    wt: uniform_vec(seed, stream, inputs * outputs, scale),
                    b: uniform_vec(seed, stream + 1, outputs, scale),
                }
            })
            .collect();
        Model {
            shape,
            ft_w,
            ft_b,
            dense,
        }
    }

    /// `acc = b + Σ rows`.
    #[inline(always)]
    pub fn accumulate(&self, rows: &[u32], acc: &mut [f32]) {
        sum_rows(&self.ft_b, &self.ft_w, rows, acc);
    }

    /// The forward pass of one position whose output bucket is `bucket` (see
    /// [`super::Extractor::bucket`]), every layer kept in `trace`.
    pub fn forward(&self, stm: &[u32], nstm: &[u32], bucket: u8, trace: &mut Trace) -> f32 {
        trace.bucket = usize::from(bucket);
        let half = self.shape.half();
        let (us, them) = trace.acc.split_at_mut(half);
        self.accumulate(stm, us);
        self.accumulate(nstm, them);
        let activation = self.shape.arch.activation;
        for (x, &a) in trace.inputs[0].iter_mut().zip(&trace.acc) {
            *x = activate(activation, a);
        }
        let last = self.dense.len() - 1;
        for (k, layer) in self.dense.iter().enumerate() {
            layer.forward(&trace.inputs[k], &mut trace.layers[k]);
            if k < last {
                let (done, next) = trace.inputs.split_at_mut(k + 1);
                let _ = done;
                for (x, &h) in next[0].iter_mut().zip(&trace.layers[k]) {
                    *x = crelu(h);
                }
            }
        }
        trace.output()
    }

    /// The transformer weights of the exported net: with the factoriser, every real
    /// row plus its virtual row.
    pub fn merged_ft_weights(&self) -> Vec<f32> {
        let half = self.shape.half();
        let inputs = self.shape.inputs();
        let mut w = self.ft_w[..inputs * half].to_vec();
        if let Some(f) = self.shape.factorizer {
            for (r, row) in w.chunks_exact_mut(half).enumerate() {
                let v = f.virtual_row(inputs, r as u32) as usize;
                add(row, &self.ft_w[v * half..(v + 1) * half]);
            }
        }
        w
    }

    /// Quantizes the model into a `.nnue` network, reporting clamped parameters.
    pub fn export(&self) -> Result<(Network, QuantizationReport), LearnError> {
        let layers: Vec<FloatAffine> = self
            .dense
            .iter()
            .map(|d| FloatAffine {
                biases: d.b.clone(),
                weights: d.weights_row_major(),
            })
            .collect();
        let (net, report) = Network::from_float_report(
            self.shape.arch.clone(),
            &self.ft_b,
            &self.merged_ft_weights(),
            &layers,
        )?;
        Ok((net, report))
    }

    /// Euclidean norm of all parameters.
    pub fn weight_norm(&self) -> f64 {
        let sq = |v: &[f32]| v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>();
        let dense: f64 = self.dense.iter().map(|d| sq(&d.wt) + sq(&d.b)).sum();
        (sq(&self.ft_w) + sq(&self.ft_b) + dense).sqrt()
    }
}

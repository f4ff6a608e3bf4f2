//! The quantized network: parameters plus the integer forward pass.

use shakmaty::{Board, Color};

use super::activation::{Activation, QA};
use super::aligned::Aligned;
use super::arch::{padded, Architecture, Hashes};
use super::error::NetworkError;
use super::simd::Kernel;
use crate::features::FeatureSet;

/// One affine layer: int32 biases, int8 weights row-major `[outputs][padded(inputs)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineLayer {
    /// Input count (before padding to the SIMD width).
    pub inputs: usize,
    /// Output count: one bias and one weight row each.
    pub outputs: usize,
    /// One int32 bias per output.
    pub biases: Vec<i32>,
    /// `outputs * padded(inputs)` values; padding columns are kept as read so a
    /// file round-trips byte for byte (they multiply zero inputs).
    pub weights: Aligned<i8>,
}

impl AffineLayer {
    /// Width of a weight row in the file and in memory.
    pub fn row_len(&self) -> usize {
        padded(self.inputs)
    }
}

/// An immutable quantized network. Share it between threads as `Arc<Network>`.
#[derive(Debug)]
pub struct Network {
    pub(crate) arch: Architecture,
    pub(crate) description: String,
    /// The description exactly as stored (Stockfish does not check it, so a
    /// foreign file may hold any bytes; they are written back unchanged).
    pub(crate) description_bytes: Vec<u8>,
    pub(crate) features: FeatureSet,
    pub(crate) hashes: Hashes,
    /// `half_dims` int16 biases.
    pub(crate) ft_biases: Aligned<i16>,
    /// `inputs * half_dims` int16 weights, feature-major.
    pub(crate) ft_weights: Aligned<i16>,
    /// The same weights as int8 when every one of them fits (trained and random
    /// nets' do): updates read half the bytes, and a 768-feature table of 512
    /// columns (384 KiB) stays in a core's L2 cache.
    pub(crate) ft_narrow: Option<Aligned<i8>>,
    /// Hidden layers then the output layer.
    pub(crate) layers: Vec<AffineLayer>,
}

/// See [`Network::linear_narrow`].
pub(crate) struct LinearNarrow<'a> {
    pub(crate) activation: Activation,
    pub(crate) rows: &'a [i8],
    pub(crate) bias: i32,
    pub(crate) us: &'a [i8],
    pub(crate) them: &'a [i8],
}

/// Buffers of one forward pass, kept by callers that evaluate often.
#[derive(Clone, Debug)]
pub struct Scratch {
    input: Aligned<u8>,
    sums: Vec<Aligned<i32>>,
    activations: Vec<Aligned<u8>>,
}

/// The integer forward pass layer by layer: after [`Network::forward`], a
/// [`Scratch`] holds every intermediate value, so a float model can be compared
/// with the quantized one one layer at a time.
impl Scratch {
    /// The transformed input: clamped accumulators (squared and divided by 127
    /// for SCReLU), side to move's half first (`2 * half_dims` values in
    /// `0..=127`).
    pub fn transformed(&self, half_dims: usize) -> &[u8] {
        self.input.get(..2 * half_dims).unwrap_or(&[])
    }

    /// The i32 outputs of affine layer `k` (hidden first, output last) before
    /// ClippedReLU; empty for a layer that does not exist.
    pub fn affine_output(&self, k: usize) -> &[i32] {
        self.sums.get(k).map_or(&[], |s| s.as_slice())
    }

    /// The ClippedReLU outputs (`0..=127`) of hidden layer `k`; empty for the output
    /// layer or a layer that does not exist.
    pub fn activation(&self, k: usize) -> &[u8] {
        match (self.activations.get(k), self.sums.get(k)) {
            (Some(a), Some(s)) if k + 1 < self.sums.len() => &a[..s.len()],
            _ => &[],
        }
    }
}

impl Network {
    /// Builds a network from quantized parameters (what the learner exports).
    /// `layers` are `(biases, weights)` for every affine layer, hidden first, with
    /// weights row-major `[outputs][inputs]` *without* padding.
    pub fn from_parameters(
        arch: Architecture,
        ft_biases: Vec<i16>,
        ft_weights: Vec<i16>,
        layers: Vec<(Vec<i32>, Vec<i8>)>,
    ) -> Result<Network, NetworkError> {
        let bad = |problem: String| NetworkError::Parameters {
            source_name: "<parameters>".to_string(),
            problem,
        };
        arch.validate()
            .map_err(|error| NetworkError::Architecture {
                source_name: "<parameters>".to_string(),
                error,
            })?;
        if ft_biases.len() != arch.half_dims {
            return Err(bad(format!(
                "{} transformer biases, expected {}",
                ft_biases.len(),
                arch.half_dims
            )));
        }
        if ft_weights.len() != arch.inputs * arch.half_dims {
            return Err(bad(format!(
                "{} transformer weights, expected {}",
                ft_weights.len(),
                arch.inputs * arch.half_dims
            )));
        }
        let shapes = arch.affine_layers();
        if layers.len() != shapes.len() {
            return Err(bad(format!(
                "{} affine layers, expected {}",
                layers.len(),
                shapes.len()
            )));
        }
        let mut built = Vec::with_capacity(layers.len());
        for (k, ((biases, weights), (inputs, outputs))) in
            layers.into_iter().zip(shapes).enumerate()
        {
            if biases.len() != outputs || weights.len() != outputs * inputs {
                return Err(bad(format!(
                    "layer {k}: {} biases and {} weights, expected {outputs} and {}",
                    biases.len(),
                    weights.len(),
                    outputs * inputs
                )));
            }
            let row = padded(inputs);
            let mut padded_weights = Aligned::<i8>::new(outputs * row);
            for (dst, src) in padded_weights.chunks_mut(row).zip(weights.chunks(inputs)) {
                dst[..inputs].copy_from_slice(src);
            }
            built.push(AffineLayer {
                inputs,
                outputs,
                biases,
                weights: padded_weights,
            });
        }
        Network::assemble(
            arch,
            None,
            Aligned::from_slice(&ft_biases),
            Aligned::from_slice(&ft_weights),
            built,
            "<parameters>",
        )
    }

    /// Puts checked parts together (the readers have already checked sizes).
    pub(crate) fn assemble(
        arch: Architecture,
        description: Option<Vec<u8>>,
        ft_biases: Aligned<i16>,
        ft_weights: Aligned<i16>,
        layers: Vec<AffineLayer>,
        source: &str,
    ) -> Result<Network, NetworkError> {
        let features =
            FeatureSet::parse(&arch.feature_set).map_err(|e| NetworkError::Parameters {
                source_name: source.to_string(),
                problem: e.to_string(),
            })?;
        let ft_narrow = narrow_copy(&ft_weights);
        let mut net = Network {
            description_bytes: description.unwrap_or_else(|| arch.description().into_bytes()),
            description: String::new(),
            hashes: arch.hashes(),
            arch,
            features,
            ft_biases,
            ft_weights,
            ft_narrow,
            layers,
        };
        net.description = String::from_utf8_lossy(&net.description_bytes).into_owned();
        Ok(net)
    }

    /// The description string stored in the file (bytes that are not UTF-8 shown
    /// as U+FFFD; the file is written back with the original bytes).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Canonical name of the feature set (`HalfKP`, `All+H+V`, …).
    pub fn feature_set_name(&self) -> &str {
        self.features.name()
    }

    /// The feature set, to compute indices with.
    pub fn feature_set(&self) -> &FeatureSet {
        &self.features
    }

    /// Sizes of the network.
    pub fn architecture(&self) -> &Architecture {
        &self.arch
    }

    /// The three hashes of the file.
    pub fn hashes(&self) -> Hashes {
        self.hashes
    }

    /// Transformer outputs per perspective.
    pub fn half_dims(&self) -> usize {
        self.arch.half_dims
    }

    /// The output bucket that evaluates `board` (0 for a net without buckets).
    #[inline]
    pub fn bucket(&self, board: &Board) -> usize {
        super::buckets::material_bucket(board, self.arch.output_buckets)
    }

    /// Transformer biases.
    pub fn ft_biases(&self) -> &[i16] {
        &self.ft_biases
    }

    /// Transformer weights, feature-major.
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// Affine layers, hidden first, output last.
    pub fn layers(&self) -> &[AffineLayer] {
        &self.layers
    }

    /// The transformer weight row of `feature` (empty for an out-of-range index,
    /// which the feature sets never produce).
    #[inline]
    pub fn ft_row(&self, feature: u32) -> &[i16] {
        let m = self.arch.half_dims;
        let start = feature as usize * m;
        self.ft_weights.get(start..start + m).unwrap_or(&[])
    }

    /// Fresh buffers for [`Network::forward`].
    pub fn scratch(&self) -> Scratch {
        Scratch {
            input: Aligned::new(padded(2 * self.arch.half_dims)),
            sums: self
                .layers
                .iter()
                .map(|l| Aligned::new(l.outputs))
                .collect(),
            activations: self
                .layers
                .iter()
                .map(|l| Aligned::new(padded(l.outputs)))
                .collect(),
        }
    }

    /// Computes the accumulator of `perspective` for `board` from scratch into `acc`
    /// (`half_dims` values).
    pub fn refresh(
        &self,
        kernel: Kernel,
        board: &Board,
        perspective: Color,
        features: &mut Vec<u32>,
        acc: &mut [i16],
    ) {
        features.clear();
        self.features.active(board, perspective, features);
        self.update_accumulator(kernel, acc, &self.ft_biases, &[], features);
    }

    /// `dst = src - Σ rows of removed + Σ rows of added` (`half_dims` values): the
    /// incremental update, from the int8 copy of the rows when the net has one.
    #[inline]
    pub fn update_accumulator(
        &self,
        kernel: Kernel,
        dst: &mut [i16],
        src: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        match &self.ft_narrow {
            Some(narrow) => kernel.update_narrow(dst, src, narrow, removed, added),
            None => kernel.update(dst, src, &self.ft_weights, removed, added),
        }
    }

    /// The output bias and the weights of the side to move's and the other
    /// accumulator of `bucket`, for a net without hidden layers (`None` for
    /// another net; a bucket past the last is read as the last).
    #[inline(always)]
    fn linear_output(&self, bucket: usize) -> Option<(i32, &[i8], &[i8])> {
        let m = self.arch.half_dims;
        let [output] = self.layers.as_slice() else {
            return None;
        };
        let bucket = bucket.min(output.outputs.saturating_sub(1));
        let start = bucket * output.row_len();
        let row = output.weights.get(start..start + 2 * m)?;
        let (us, them) = row.split_at(m);
        Some((output.biases.get(bucket).copied().unwrap_or(0), us, them))
    }

    /// For a net without hidden layers whose rows have an int8 copy, what the
    /// fused incremental evaluation needs: the activation, the int8 rows, and
    /// the output bias and weights of `bucket`. (Always inlined, with
    /// [`Network::linear_output`]: every incremental evaluation asks for it
    /// twice, and as a call it was over 1 % of a search's instructions.)
    #[inline(always)]
    pub(crate) fn linear_narrow(&self, bucket: usize) -> Option<LinearNarrow<'_>> {
        let rows = self.ft_narrow.as_ref()?;
        let (bias, us, them) = self.linear_output(bucket)?;
        Some(LinearNarrow {
            activation: self.arch.activation,
            rows,
            bias,
            us,
            them,
        })
    }

    /// The raw output (before `/ 16`) of output bucket `bucket` (see
    /// [`Network::bucket`]) from the two accumulators, `us` being the side to
    /// move's: the value of [`Network::forward`], but a net without hidden layers
    /// takes one fused pass per accumulator ([`Kernel::clamped_dot`], or
    /// [`Kernel::screlu_dot`] whose sum is divided by [`QA`] once, see
    /// [`super::activation`]) and leaves `scratch` untouched, so use `forward`
    /// to inspect the layers.
    #[inline]
    pub fn output(
        &self,
        kernel: Kernel,
        us: &[i16],
        them: &[i16],
        bucket: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        self.linear_value(kernel, us, them, bucket)
            .unwrap_or_else(|| self.forward(kernel, us, them, bucket, scratch))
    }

    /// The fused output of a net without hidden layers (`None` for another net
    /// or accumulators of the wrong length).
    #[inline]
    fn linear_value(&self, kernel: Kernel, us: &[i16], them: &[i16], bucket: usize) -> Option<i32> {
        let m = self.arch.half_dims;
        let (bias, w_us, w_them) = self.linear_output(bucket)?;
        if us.len() != m || them.len() != m {
            return None;
        }
        Some(match self.arch.activation {
            Activation::ClippedRelu => bias
                .wrapping_add(kernel.clamped_dot(us, w_us))
                .wrapping_add(kernel.clamped_dot(them, w_them)),
            Activation::SquaredClippedRelu => {
                let sum = kernel
                    .screlu_dot(us, w_us)
                    .wrapping_add(kernel.screlu_dot(them, w_them));
                bias.wrapping_add(sum / QA)
            }
        })
    }

    /// The forward pass from the two accumulators: raw output (before `/ 16`) of
    /// output bucket `bucket` (a bucket past the last is read as the last).
    /// `us` is the side to move's accumulator. An SCReLU net without hidden
    /// layers fills only [`Scratch::transformed`]: its output layer reads the
    /// full squares, not those bytes (see [`super::activation`]).
    pub fn forward(
        &self,
        kernel: Kernel,
        us: &[i16],
        them: &[i16],
        bucket: usize,
        scratch: &mut Scratch,
    ) -> i32 {
        // A scratch made for another network is rebuilt rather than misused.
        let fits = scratch.input.len() == padded(2 * self.arch.half_dims)
            && scratch.sums.len() == self.layers.len()
            && scratch
                .sums
                .iter()
                .zip(&self.layers)
                .all(|(s, l)| s.len() == l.outputs);
        if !fits {
            *scratch = self.scratch();
        }
        let m = self.arch.half_dims;
        let (first, second) = scratch.input.split_at_mut(m);
        let transform = match self.arch.activation {
            Activation::ClippedRelu => Kernel::clamp_to_u8,
            Activation::SquaredClippedRelu => Kernel::screlu_to_u8,
        };
        transform(kernel, us, first);
        transform(kernel, them, &mut second[..m]);
        if self.arch.activation == Activation::SquaredClippedRelu {
            // Without hidden layers the output layer reads the squares at full
            // precision, not the input a hidden layer would (`super::activation`).
            if let Some(value) = self.linear_value(kernel, us, them, bucket) {
                return value;
            }
        }
        let mut input: &[u8] = &scratch.input;
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate() {
            let sums = &mut scratch.sums[k];
            kernel.affine(input, &layer.weights, &layer.biases, sums);
            if k == last {
                break;
            }
            kernel.clipped_relu(sums, &mut scratch.activations[k][..layer.outputs]);
            input = &scratch.activations[k];
        }
        let outputs = &scratch.sums[last];
        outputs[bucket.min(outputs.len() - 1)]
    }

    /// Full refresh and forward: the value in internal units (raw output / 16,
    /// truncated toward zero like C++) from `turn`'s point of view, computed the
    /// plain way (int16 rows, every layer through `scratch`).
    pub fn evaluate_board(&self, kernel: Kernel, board: &Board, turn: Color) -> i32 {
        let m = self.arch.half_dims;
        let mut features = Vec::with_capacity(64);
        let mut us = Aligned::<i16>::new(m);
        let mut them = Aligned::<i16>::new(m);
        // The int16 table and the layer-by-layer pass, never the int8 copy or the
        // fused output: this is the reference the fast paths are tested against.
        for (perspective, acc) in [(turn, &mut us), (!turn, &mut them)] {
            features.clear();
            self.features.active(board, perspective, &mut features);
            kernel.update(acc, &self.ft_biases, &self.ft_weights, &[], &features);
        }
        let mut scratch = self.scratch();
        let bucket = self.bucket(board);
        self.forward(kernel, &us, &them, bucket, &mut scratch) / super::FV_SCALE
    }
}

/// An int8 copy of `weights` if every value fits, else `None`.
fn narrow_copy(weights: &[i16]) -> Option<Aligned<i8>> {
    let mut narrow = Aligned::<i8>::new(weights.len());
    for (n, &w) in narrow.iter_mut().zip(weights) {
        *n = i8::try_from(w).ok()?;
    }
    Some(narrow)
}

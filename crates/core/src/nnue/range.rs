//! A bound on how far a network's evaluation can reach, so that a net whose
//! output leaves the engine's range (a diverged training run's, or a corrupt
//! file's) is refused when it is exported and when it is loaded, instead of
//! evaluating the start position as −134,215,711.
//!
//! # Which bound
//!
//! A sound bound over *every* input in `0..=127` (the ClippedReLU range) is
//! `|b| + 127·Σ|w|` for the output layer. It rejects real nets: an
//! `All 768→512x2→1` net has 1024 output weights, and a trained net's bound
//! comes out far above the engine's range although no position gets near it.
//! So this module bounds the *reachable* output instead, by interval
//! arithmetic from the feature transformer on:
//!
//! - each accumulator value is its bias plus at most
//!   [`FeatureSet::max_active`](crate::features::FeatureSet::max_active) rows
//!   of the transformer (a position has at most that many active features, each
//!   once), so it lies between the bias plus the `max_active` most negative
//!   entries of its column and the bias plus the `max_active` most positive
//!   ones; clipped to `0..=127` that is the transformed input's interval;
//! - each affine layer maps the intervals of its inputs to the interval of each
//!   sum (`b + Σ w·[lo, hi]`, the end chosen by the weight's sign), and each
//!   ClippedReLU clips `sum >> 6` to `0..=127`;
//! - the output layer's interval, divided by
//!   [`FV_SCALE`](super::FV_SCALE), bounds the evaluation in internal units;
//!   with output buckets, every bucket's interval counts.
//!
//! An SCReLU transformer ([`super::activation`]) maps each clipped interval
//! `[lo, hi]` to `[lo², hi²]` (squares of values in `0..=127` keep their order);
//! a hidden layer reads those divided by 127. Without hidden layers the output
//! is `bias + S / 127` with `S = Σ c²·w` summed in i32, so the bound also
//! covers `S / 127` alone: a net that passes has
//! `|S| ≤ 127 · 16 · EVAL_LIMIT < 2³¹`, and the wrapping i32 sums of the
//! kernels are exact.
//!
//! The bound still over-approximates (it lets every column take its own best
//! rows), so it is an upper bound on every evaluation the engine can compute,
//! and it is cheap: one pass over the transformer weights.

use super::activation::{Activation, QA};
use super::network::Network;
use super::FV_SCALE;

/// The largest evaluation, in internal units, a net may be able to reach: the
/// engine's `EVAL_MAX` (its mate value 32000 less its 128-ply mate range, less
/// one), beyond which it clamps every evaluation. A net that can reach past it
/// has weights no training run that converged produces.
pub const EVAL_LIMIT: i64 = 31_871;

/// The ClippedReLU's upper end (and the transformed input's).
const ACTIVATION_MAX: i64 = 127;
/// The right shift that scales a hidden layer's sums back to activations.
const HIDDEN_SHIFT: u32 = 6;

/// A net whose evaluation can leave the engine's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("its evaluation can reach {bound} internal units, beyond the engine's limit of ±{limit}")]
pub struct RangeError {
    /// The bound on |evaluation| (internal units).
    pub bound: i64,
    /// [`EVAL_LIMIT`].
    pub limit: i64,
}

/// An interval `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Interval {
    lo: i64,
    hi: i64,
}

impl Interval {
    fn clip(self, max: i64) -> Interval {
        Interval {
            lo: self.lo.clamp(0, max),
            hi: self.hi.clamp(0, max),
        }
    }
}

/// The interval of each transformed input (`0..=127`) of one perspective.
fn transformer_intervals(net: &Network) -> Vec<Interval> {
    let half = net.arch.half_dims;
    let inputs = net.arch.inputs;
    let active = net.features.max_active().min(inputs);
    let mut column = Vec::with_capacity(inputs);
    (0..half)
        .map(|j| {
            column.clear();
            column.extend((0..inputs).map(|f| i64::from(net.ft_weights[f * half + j])));
            let bias = i64::from(net.ft_biases[j]);
            Interval {
                lo: bias + extreme_sum(&mut column, active, |a, b| a.cmp(b)),
                hi: bias + extreme_sum(&mut column, active, |a, b| b.cmp(a)),
            }
            .clip(ACTIVATION_MAX)
        })
        .collect()
}

/// The sum of the `k` first values of `values` in `order` that have the sign
/// of the first ones (the most negative ones for ascending order, the most
/// positive for descending), 0 when there are none of that sign.
fn extreme_sum(
    values: &mut [i64],
    k: usize,
    order: impl Fn(&i64, &i64) -> std::cmp::Ordering,
) -> i64 {
    if k == 0 || values.is_empty() {
        return 0;
    }
    let k = k.min(values.len());
    if k < values.len() {
        values.select_nth_unstable_by(k - 1, &order);
    }
    let sign_ok = |v: i64| order(&v, &0) == std::cmp::Ordering::Less;
    values[..k].iter().copied().filter(|&v| sign_ok(v)).sum()
}

/// The intervals of the transformed inputs (both perspectives) as the first
/// affine layer reads them.
fn first_inputs(net: &Network) -> Vec<Interval> {
    let half_inputs = transformer_intervals(net);
    let activation = net.arch.activation;
    let squares = activation == Activation::SquaredClippedRelu && net.layers.len() == 1;
    let read = |v: i64| {
        if squares {
            v * v
        } else {
            i64::from(activation.transformed(v as i32))
        }
    };
    half_inputs
        .iter()
        .chain(&half_inputs)
        .map(|x| Interval {
            lo: read(x.lo),
            hi: read(x.hi),
        })
        .collect()
}

/// The interval of every output of `layer` from its inputs' intervals, each
/// sum starting at `bias(o)`.
fn affine_intervals(
    layer: &super::network::AffineLayer,
    inputs: &[Interval],
    bias: impl Fn(usize) -> i64,
) -> Vec<Interval> {
    let row = layer.row_len();
    let weights = layer.weights.as_slice();
    (0..layer.outputs)
        .map(|o| {
            let mut sum = Interval {
                lo: bias(o),
                hi: bias(o),
            };
            for (i, x) in inputs.iter().enumerate() {
                let w = i64::from(weights[o * row + i]);
                let (a, b) = (w * x.lo, w * x.hi);
                sum.lo += a.min(b);
                sum.hi += a.max(b);
            }
            sum
        })
        .collect()
}

/// The intervals the evaluation bound covers, raw (before `/ FV_SCALE`): every
/// output bucket's, and for an SCReLU net without hidden layers each bucket's
/// `S / 127` too (see the module docs).
fn output_intervals(net: &Network) -> Vec<Interval> {
    let mut inputs = first_inputs(net);
    let last = net.layers.len() - 1;
    for layer in &net.layers[..last] {
        inputs = affine_intervals(layer, &inputs, |o| i64::from(layer.biases[o]))
            .into_iter()
            .map(|s| {
                Interval {
                    lo: s.lo >> HIDDEN_SHIFT,
                    hi: s.hi >> HIDDEN_SHIFT,
                }
                .clip(ACTIVATION_MAX)
            })
            .collect();
    }
    let output = &net.layers[last];
    let bias = |o: usize| i64::from(output.biases[o]);
    if net.arch.activation == Activation::SquaredClippedRelu && last == 0 {
        let scaled = |s: Interval| Interval {
            lo: s.lo / i64::from(QA),
            hi: s.hi / i64::from(QA),
        };
        let unbiased: Vec<Interval> = affine_intervals(output, &inputs, |_| 0)
            .into_iter()
            .map(scaled)
            .collect();
        let biased = unbiased.iter().enumerate().map(|(o, s)| Interval {
            lo: bias(o) + s.lo,
            hi: bias(o) + s.hi,
        });
        return biased.chain(unbiased.iter().copied()).collect();
    }
    affine_intervals(output, &inputs, bias)
}

/// The bound on |evaluation| of `net` in internal units (see the module's
/// documentation for how it is computed).
pub fn evaluation_bound(net: &Network) -> i64 {
    let reach = output_intervals(net)
        .iter()
        .map(|out| out.lo.abs().max(out.hi.abs()))
        .max()
        .unwrap_or(0);
    reach / i64::from(FV_SCALE)
}

/// Refuses a net whose evaluation can reach beyond [`EVAL_LIMIT`].
pub fn check_range(net: &Network) -> Result<(), RangeError> {
    let bound = evaluation_bound(net);
    if bound > EVAL_LIMIT {
        return Err(RangeError {
            bound,
            limit: EVAL_LIMIT,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{random_network, Architecture, NetworkError};

    /// `All 8x2-1` with every transformer weight `w` and bias 0, output
    /// weights `out_w` and output bias `out_b`.
    fn handmade(w: i16, out_w: i8, out_b: i32) -> Network {
        let arch = Architecture::new("All", 8, &[]).unwrap();
        let ft_w = vec![w; 768 * 8];
        let layers = vec![(vec![out_b], vec![out_w; 16])];
        Network::from_parameters(arch, vec![0; 8], ft_w, layers).unwrap()
    }

    #[test]
    fn the_bound_follows_the_reachable_inputs() {
        // Every transformed input reaches 127 (32 rows of 4 clip at 127):
        // 16 inputs x 127 x 2 = 4064 raw, 254 internal units.
        assert_eq!(evaluation_bound(&handmade(4, 2, 0)), 254);
        // Negative rows keep the inputs at 0: only the bias is left.
        assert_eq!(evaluation_bound(&handmade(-4, 2, 1600)), 100);
        // One row of 3 is at most 32 x 3 = 96 when 32 pieces are on the board.
        assert_eq!(evaluation_bound(&handmade(3, -1, 0)), 16 * 96 / 16);
    }

    #[test]
    fn screlu_reaches_the_same_scale_as_clipped_relu() {
        use crate::nnue::Activation;
        // Transformer biases `b`, rows of `w`, output weights `out_w`.
        let screlu = |b: i16, w: i16, out_w: i8, out_b: i32| {
            let arch = Architecture::new("All", 8, &[])
                .unwrap()
                .with_activation(Activation::SquaredClippedRelu);
            let layers = vec![(vec![out_b], vec![out_w; 16])];
            Network::from_parameters(arch, vec![b; 8], vec![w; 768 * 8], layers).unwrap()
        };
        // 16 inputs of 127² x 2 / 127 = 4064 raw, 254 internal units: a float
        // input of 1 is worth the same in both.
        assert_eq!(evaluation_bound(&screlu(0, 4, 2, 0)), 254);
        assert_eq!(evaluation_bound(&screlu(0, -4, 2, 1600)), 100);
        // Every input is always 127 and the bias cancels the sum exactly: the
        // output is 0, but the bound covers the sum without its bias
        // (16 x 127² x 127 / 127 raw), so no bias hides a sum beyond i32.
        assert_eq!(evaluation_bound(&screlu(200, 0, 127, -258_064)), 16_129);
    }

    #[test]
    fn every_output_bucket_counts() {
        let arch = Architecture::new("All", 8, &[])
            .unwrap()
            .with_output_buckets(2);
        let layers = vec![(vec![0, 3200], vec![1; 32])];
        let net = Network::from_parameters(arch, vec![0; 8], vec![4; 768 * 8], layers).unwrap();
        // Bucket 1: 3200 + 16 x 127 = 5232 raw.
        assert_eq!(evaluation_bound(&net), 5232 / 16);
    }

    #[test]
    fn a_net_beyond_the_engine_range_is_refused_at_load() {
        // The output bias of the --lr 1e9 net: -2^31 + 2^16 raw.
        let net = handmade(4, 2, -2_147_418_112);
        let bound = evaluation_bound(&net);
        assert_eq!(bound, 134_213_632);
        assert_eq!(
            check_range(&net),
            Err(RangeError {
                bound,
                limit: EVAL_LIMIT
            })
        );
        let err = Network::from_bytes(&net.to_bytes(), "diverged.nnue").unwrap_err();
        assert!(matches!(err, NetworkError::Range { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "diverged.nnue: its evaluation can reach 134213632 internal units, beyond the \
             engine's limit of ±31871; refusing the net (its weights are not those of a \
             converged run)"
        );
    }

    #[test]
    fn shipped_and_random_nets_are_within_range() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../nets");
        for (name, bound) in [
            ("default.nnue", 12_908),
            ("ft3.nnue", 16_964),
            ("c3-all512.nnue", 14_091),
            ("gen4-all512.nnue", 12_591),
        ] {
            let net = Network::load(&root.join(name)).unwrap();
            assert_eq!(evaluation_bound(&net), bound, "{name}");
        }
        // The Stockfish-12 HalfKP shape of the reference random net.
        let net = random_network(&Architecture::halfkp_256(), 20201002).unwrap();
        assert_eq!(evaluation_bound(&net), 1349);
        assert!(Network::from_bytes(&net.to_bytes(), "random.nnue").is_ok());
    }
}

//! Reproducible random HalfKAv2_hm nets, for tests and benchmarks that must not
//! depend on Stockfish's 47 MB file: values large enough that every clamp and
//! activation saturates now and then, so kernels and layouts are exercised.

use super::network::HalfKaNetwork;
use super::shape::{padded, Shape, L1, L2, STACKS};
use super::stack::{Affine, LayerStack};
use super::transformer::Transformer;
use crate::nnue::aligned::Aligned;

/// A 64-bit LCG (Knuth's MMIX constants), high bits out: reproducible on every
/// platform, so tests that play random games from it see the same games.
pub struct Lcg(u64);

impl Lcg {
    /// A generator started at `seed` (the same seed gives the same sequence).
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    /// Uniform in `-span..=span`.
    fn signed(&mut self, span: i32) -> i32 {
        (self.next_u32() % (2 * span as u32 + 1)) as i32 - span
    }
}

/// Transformer spans: biases, weights, PSQT weights.
const SPANS: (i32, i32, i32) = (40, 30, 3000);
/// Span of the affine layers' biases (weights use all of int8).
const AFFINE_BIAS_SPAN: i32 = 4000;

/// A random net of `shape` from `seed` (the same seed gives the same net).
pub fn random_halfka_network(shape: Shape, seed: u64) -> HalfKaNetwork {
    let mut rng = Lcg(seed);
    let (w, f) = (shape.width, shape.features());
    let mut i16s = |n: usize, span: i32| -> Aligned<i16> {
        let values: Vec<i16> = (0..n).map(|_| rng.signed(span) as i16).collect();
        Aligned::from_slice(&values)
    };
    let biases = i16s(w, SPANS.0);
    let weights = i16s(w * f, SPANS.1);
    let psqt = (0..STACKS * f).map(|_| rng.signed(SPANS.2)).collect();
    let mut affine = |inputs: usize, outputs: usize| {
        let weights: Vec<i8> = (0..outputs * padded(inputs))
            .map(|_| rng.signed(127) as i8)
            .collect();
        Affine {
            biases: (0..outputs).map(|_| rng.signed(AFFINE_BIAS_SPAN)).collect(),
            weights: Aligned::from_slice(&weights),
        }
    };
    let stacks = (0..STACKS)
        .map(|_| LayerStack {
            fc0: affine(w, L1 + 1),
            fc1: affine(2 * L1, L2),
            fc2: affine(L2, 1),
        })
        .collect();
    HalfKaNetwork {
        description: format!("random HalfKAv2_hm net, seed {seed}").into_bytes(),
        transformer: Transformer {
            shape,
            biases,
            weights,
            psqt,
        },
        stacks,
    }
}

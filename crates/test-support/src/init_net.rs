//! The `--init-net` file the trainer's reader is tested and fuzzed with
//! (`crates/learner/tests/init_net_proptest.rs`,
//! `fuzz/fuzz_targets/load_init_net.rs`), and what a net that loads must keep.

use nnue_core::nnue::Network;
use nnue_learner::model::{Extractor, Model, ModelShape};

/// The init net's shape, `All 16x2-8-1`: i16 transformer, i8 and i32 hidden
/// and output layers.
pub fn init_net_shape() -> ModelShape {
    ModelShape::new("All", 16, &[8], false).expect("a valid shape")
}

/// A fresh model of [`init_net_shape`] (seed 1), exported as a `.nnue` file.
pub fn init_net() -> Vec<u8> {
    let shape = init_net_shape();
    let model = Model::new(shape.clone(), 1, Extractor::new(&shape).max_rows());
    model.export().expect("a fresh model exports").0.to_bytes()
}

/// Whether `a` and `b` hold the same parameters: transformer, biases, and the
/// weights of every row but its padding (which multiplies zero inputs; the
/// file may hold any padding, the float model keeps none, its export writes 0).
pub fn same_parameters(a: &Network, b: &Network) -> bool {
    let rows_match = a.layers().len() == b.layers().len()
        && a.layers().iter().zip(b.layers()).all(|(x, y)| {
            let (wx, wy) = (x.weights.as_slice(), y.weights.as_slice());
            x.inputs == y.inputs
                && x.biases == y.biases
                && (0..x.outputs).all(|o| {
                    let (sx, sy) = (o * x.row_len(), o * y.row_len());
                    wx[sx..sx + x.inputs] == wy[sy..sy + y.inputs]
                })
        });
    rows_match && a.ft_weights() == b.ft_weights() && a.ft_biases() == b.ft_biases()
}

//! Any bytes given as `--init-net` (`Model::from_bytes`, what `Model::load`
//! reads) must become starting weights or one error line naming the file,
//! never a panic; weights that load export the file's parameters (its bytes
//! but for the rows' padding, which the float model does not keep). The first
//! byte: even, the rest is the file; odd, the rest is a list of changes
//! (`Damage::decode`) to an exported `All 16x2-8-1` net. CI runs
//! `crates/learner/tests/init_net_proptest.rs` instead.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nnue_core::nnue::Network;
use nnue_learner::model::{Extractor, Model, ModelShape};
use nnue_test_support::damage::{damaged, Damage};

const SOURCE: &str = "fuzz-init.nnue";

fn shape() -> &'static ModelShape {
    static SHAPE: OnceLock<ModelShape> = OnceLock::new();
    SHAPE.get_or_init(|| ModelShape::new("All", 16, &[8], false).expect("a valid shape"))
}

fn valid() -> &'static [u8] {
    static NET: OnceLock<Vec<u8>> = OnceLock::new();
    NET.get_or_init(|| {
        let model = Model::new(shape().clone(), 1, Extractor::new(shape()).max_rows());
        model.export().expect("a fresh model exports").0.to_bytes()
    })
}

/// Whether `a` and `b` hold the same parameters: transformer, biases, and the
/// weights of every row but its padding (which multiplies zero inputs; the
/// file may hold any padding, the float model keeps none, its export writes 0).
fn same_parameters(a: &Network, b: &Network) -> bool {
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

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode % 2 == 1 {
        damaged(valid(), &Damage::decode(rest))
    } else {
        rest.to_vec()
    };
    match Model::from_bytes(&bytes, Path::new(SOURCE), shape()) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains(SOURCE) && !text.contains(['\n', '\r']),
                "{text}"
            );
        }
        Ok(model) => {
            let (net, report) = model.export().expect("loaded weights export");
            assert_eq!(report.clamped(), 0);
            let file = Network::from_bytes(&bytes, "file").expect("it loaded");
            assert!(
                same_parameters(&net, &file),
                "exports the file's parameters"
            );
            assert_eq!(net.to_bytes().len(), bytes.len());
        }
    }
});

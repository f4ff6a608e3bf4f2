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
use nnue_learner::model::{Model, ModelShape};
use nnue_test_support::fuzz::{assert_error_line, fuzz_input};
use nnue_test_support::{init_net, init_net_shape, same_parameters};

const SOURCE: &str = "fuzz-init.nnue";

fn shape() -> &'static ModelShape {
    static SHAPE: OnceLock<ModelShape> = OnceLock::new();
    SHAPE.get_or_init(init_net_shape)
}

fn valid() -> &'static [u8] {
    static NET: OnceLock<Vec<u8>> = OnceLock::new();
    NET.get_or_init(init_net)
}

fuzz_target!(|data: &[u8]| {
    let Some(bytes) = fuzz_input(data, &[valid()]) else {
        return;
    };
    match Model::from_bytes(&bytes, Path::new(SOURCE), shape()) {
        Err(e) => assert_error_line(&e.to_string(), SOURCE),
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

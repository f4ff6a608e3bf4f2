//! Any bytes given as the HalfKP/All trainer's checkpoint (`Checkpoint::from_bytes`,
//! what `--resume` reads) must be read or refused, never panic or allocate
//! beyond the input; a checkpoint that reads writes bytes that read back to
//! themselves. The first byte: even, the rest is the file; odd, the rest is a
//! list of changes (`Damage::decode`) to the checkpoint of a tiny run (`All
//! 8x2-1`, newbob, stopped in its second epoch) trained once at start-up on
//! `tests/data/sf_tools_sample.bin`. CI runs
//! `crates/learner/tests/checkpoint_proptest.rs` instead.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nnue_learner::checkpoint::{Checkpoint, Weights};
use nnue_test_support::fuzz::fuzz_input;
use nnue_test_support::tiny_checkpoint;

/// The tiny run's checkpoint and the template of its shapes.
fn valid() -> &'static (Vec<u8>, Weights) {
    static SAVED: OnceLock<(Vec<u8>, Weights)> = OnceLock::new();
    SAVED.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let saved = tiny_checkpoint(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        saved
    })
}

fuzz_target!(|data: &[u8]| {
    let (valid, template) = valid();
    let Some(bytes) = fuzz_input(data, &[valid]) else {
        return;
    };
    match Checkpoint::from_bytes(&bytes, template) {
        Err(e) => assert!(!e.to_string().contains(['\n', '\r']), "{e}"),
        Ok(read) => {
            let written = read.to_bytes();
            let again = Checkpoint::from_bytes(&written, template).expect("written bytes read");
            assert!(again.to_bytes() == written, "reading is stable");
        }
    }
});

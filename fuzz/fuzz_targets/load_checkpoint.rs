//! Any bytes given as the HalfKP/All trainer's checkpoint (`Checkpoint::from_bytes`,
//! what `--resume` reads) must be read or refused, never panic or allocate
//! beyond the input; a checkpoint that reads writes bytes that read back to
//! themselves. The first byte: even, the rest is the file; odd, the rest is a
//! list of changes (`Damage::decode`) to the checkpoint of a tiny run (`All
//! 8x2-1`, newbob, stopped in its second epoch) trained once at start-up on
//! `tests/data/sf_tools_sample.bin`. CI runs
//! `crates/learner/tests/checkpoint_proptest.rs` instead.
#![no_main]

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use nnue_learner::checkpoint::{self, Checkpoint, Weights};
use nnue_learner::cli::{Cli, Command};
use nnue_learner::commands::train::config_of;
use nnue_learner::model::{Extractor, Model};
use nnue_learner::optim::slots::ModelSlots;
use nnue_test_support::damage::{damaged, Damage};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/sf_tools_sample.bin"
);

/// The tiny run's checkpoint and the template of its shapes.
fn valid() -> &'static (Vec<u8>, Weights) {
    static SAVED: OnceLock<(Vec<u8>, Weights)> = OnceLock::new();
    SAVED.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let (out, ckpt) = (dir.join("net.nnue"), dir.join("ckpt"));
        let args = [
            "nnue-learn",
            "train",
            "--train",
            DATA,
            "--feature-set",
            "All",
            "--ft-size",
            "8",
            "--hidden=",
            "--epochs",
            "2",
            "--epoch-size",
            "400",
            "--batch-size",
            "100",
            "--newbob-decay",
            "0.5",
            "--seed",
            "1",
            "--quiet",
            "--force",
            "--stop-after-batches",
            "6",
            "--output-net",
            out.to_str().unwrap(),
            "--checkpoint-dir",
            ckpt.to_str().unwrap(),
        ];
        let Command::Train(args) = Cli::try_parse_from(args).unwrap().command else {
            unreachable!("a train command")
        };
        let config = config_of(&args).unwrap();
        // Stopped by --stop-after-batches, the run ends as if interrupted: an
        // error, with the checkpoint saved.
        let run =
            nnue_learner::train::train(&config, &AtomicBool::new(false), &mut std::io::sink());
        let bytes = std::fs::read(checkpoint::path_in(&ckpt))
            .unwrap_or_else(|e| panic!("the run's checkpoint: {e} (the run: {:?})", run.err()));
        let _ = std::fs::remove_dir_all(&dir);
        let max_rows = Extractor::new(&config.shape).max_rows();
        let model = Model::new(config.shape.clone(), config.seed, max_rows);
        let slots = ModelSlots::new(&model, &config.optimizer);
        (bytes, Weights { model, slots })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (valid, template) = valid();
    let bytes = if mode % 2 == 1 {
        damaged(valid, &Damage::decode(rest))
    } else {
        rest.to_vec()
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

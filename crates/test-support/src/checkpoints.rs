//! The HalfKP/All trainer's checkpoint that its reader is tested and fuzzed
//! with (`crates/learner/tests/checkpoint_proptest.rs`,
//! `fuzz/fuzz_targets/load_checkpoint.rs`): a tiny run (`All 8x2-1`, newbob on
//! so a snapshot is saved, stopped in its second epoch so history, figures and
//! the stream's state are all filled) on `tests/data/sf_tools_sample.bin`.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use nnue_learner::checkpoint::{self, Weights};
use nnue_learner::cli::{Cli, Command};
use nnue_learner::commands::train::config_of;
use nnue_learner::model::{Extractor, Model};
use nnue_learner::optim::slots::ModelSlots;
use nnue_learner::train::{train, TrainConfig};

use crate::test_data;

/// The configuration of the tiny run's `nnue-learn train`, writing its net and
/// its checkpoints (`ckpt/`) in `dir`, `extra` added.
pub fn tiny_train_config(dir: &Path, extra: &[&str]) -> TrainConfig {
    let data = test_data("sf_tools_sample.bin");
    let output = dir.join("net.nnue");
    let ckpt = dir.join("ckpt");
    let args = [
        "nnue-learn",
        "train",
        "--train",
        data.to_str().unwrap(),
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
        "--output-net",
        output.to_str().unwrap(),
        "--checkpoint-dir",
        ckpt.to_str().unwrap(),
    ];
    let Command::Train(args) = Cli::try_parse_from(args.iter().chain(extra))
        .unwrap()
        .command
    else {
        unreachable!("a train command")
    };
    config_of(&args).unwrap()
}

/// Fresh weights of `config`'s shapes: what a checkpoint is read into.
pub fn checkpoint_template(config: &TrainConfig) -> Weights {
    let max_rows = Extractor::new(&config.shape).max_rows();
    let model = Model::new(config.shape.clone(), config.seed, max_rows);
    let slots = ModelSlots::new(&model, &config.optimizer);
    Weights { model, slots }
}

/// Trains the tiny run in `dir`, stopped after 6 batches (in its second
/// epoch): the checkpoint's bytes and the template of its weights.
pub fn tiny_checkpoint(dir: &Path) -> (Vec<u8>, Weights) {
    let config = tiny_train_config(dir, &["--stop-after-batches", "6"]);
    // Stopped by --stop-after-batches, the run ends as if interrupted: an
    // error, with the checkpoint saved.
    let run = train(&config, &AtomicBool::new(false), &mut std::io::sink());
    let bytes = std::fs::read(checkpoint::path_in(&dir.join("ckpt")))
        .unwrap_or_else(|e| panic!("the run's checkpoint: {e} (the run: {:?})", run.err()));
    (bytes, checkpoint_template(&config))
}

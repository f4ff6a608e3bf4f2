//! The HalfKAv2_hm trainer's tiny run (`--preset sf15.1`, 64 wide, 2 epochs of
//! 500 on `tests/data/sf_tools_sample.binpack`), whose checkpoint its reader is
//! tested and fuzzed with (`crates/learner/tests/halfka_checkpoint_proptest.rs`,
//! `fuzz/fuzz_targets/load_halfka_checkpoint.rs`) and whose resumed runs
//! `crates/learner/tests/halfka_sf15_1.rs` compares.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::Parser;
use nnue_learner::cli::{Cli, Command};
use nnue_learner::commands::preset::halfka_run;
use nnue_learner::halfka::checkpoint;
use nnue_learner::halfka::optimizer::HalfKaSlots;
use nnue_learner::halfka::{train_halfka, HalfKaModel, HalfKaRun};

use crate::test_data;

/// The arguments of the tiny run's `nnue-learn` (no program name), writing its
/// net to `out` and its checkpoints to `ckpt`.
pub fn sf15_1_tiny_args(out: &Path, ckpt: &Path) -> Vec<String> {
    let data = test_data("sf_tools_sample.binpack");
    let args = [
        "train",
        "--preset",
        "sf15.1",
        "--ft-size",
        "64",
        "--train",
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--epoch-size",
        "500",
        "--batch-size",
        "100",
        "--seed",
        "1",
        "--quiet",
        "--output-net",
        out.to_str().unwrap(),
        "--checkpoint-dir",
        ckpt.to_str().unwrap(),
    ];
    args.map(String::from).to_vec()
}

/// The tiny run in `dir` (net `net.nnue`, checkpoints in `ckpt/`, `--force`),
/// `extra` added.
pub fn tiny_halfka_run(dir: &Path, extra: &[&str]) -> HalfKaRun {
    let args = sf15_1_tiny_args(&dir.join("net.nnue"), &dir.join("ckpt"));
    let args = ["nnue-learn"]
        .into_iter()
        .chain(args.iter().map(String::as_str))
        .chain(["--force"])
        .chain(extra.iter().copied());
    let Command::Train(args) = Cli::try_parse_from(args).unwrap().command else {
        unreachable!("a train command")
    };
    halfka_run(&args).unwrap()
}

/// A fresh model and optimizer state of `run`'s shape: what a checkpoint is
/// read into.
pub fn fresh_halfka(run: &HalfKaRun) -> (HalfKaModel, HalfKaSlots) {
    let model = HalfKaModel::new(run.width, run.factorize, run.seed);
    let slots = HalfKaSlots::new(&model, &run.optimizer);
    (model, slots)
}

/// Trains the tiny run in `dir`, stopped after 7 batches (in its second
/// epoch): the checkpoint's bytes and the run that resumes it.
pub fn tiny_halfka_checkpoint(dir: &Path) -> (Vec<u8>, HalfKaRun) {
    let stopped = tiny_halfka_run(dir, &["--stop-after-batches", "7"]);
    train_halfka(&stopped, &AtomicBool::new(false), &mut std::io::sink()).unwrap();
    let bytes =
        std::fs::read(checkpoint::path_in(&dir.join("ckpt"))).expect("the run's checkpoint");
    (bytes, tiny_halfka_run(dir, &["--resume"]))
}

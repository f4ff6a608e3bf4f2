//! Any bytes given as the HalfKAv2_hm trainer's checkpoint
//! (`halfka::checkpoint::load_bytes`, what `--preset sf15.1 --resume` reads)
//! must be read or refused with one error line naming the file, never panic or
//! allocate beyond the input. The first byte: even, the rest is the file; odd,
//! the rest is a list of changes (`Damage::decode`) to the 20 MB checkpoint of a
//! tiny 64-wide run trained once at start-up on
//! `tests/data/sf_tools_sample.binpack`. CI runs
//! `crates/learner/tests/halfka_checkpoint_proptest.rs` instead.
#![no_main]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use nnue_learner::cli::{Cli, Command};
use nnue_learner::commands::preset::halfka_run;
use nnue_learner::halfka::checkpoint::{self, load_bytes};
use nnue_learner::halfka::optimizer::HalfKaSlots;
use nnue_learner::halfka::{train_halfka, HalfKaModel, HalfKaRun};
use nnue_test_support::damage::{damaged, Damage};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/data/sf_tools_sample.binpack"
);

/// The run of `nnue-learn train --preset sf15.1 --ft-size 64 ... EXTRA` in `dir`.
fn run_of(dir: &std::path::Path, extra: &[&str]) -> HalfKaRun {
    let (out, ckpt) = (dir.join("net.nnue"), dir.join("ckpt"));
    let args = [
        "nnue-learn",
        "train",
        "--preset",
        "sf15.1",
        "--ft-size",
        "64",
        "--train",
        DATA,
        "--epochs",
        "2",
        "--epoch-size",
        "500",
        "--batch-size",
        "100",
        "--seed",
        "1",
        "--quiet",
        "--force",
        "--output-net",
        out.to_str().unwrap(),
        "--checkpoint-dir",
        ckpt.to_str().unwrap(),
    ];
    let Command::Train(args) = Cli::try_parse_from(args.iter().chain(extra))
        .unwrap()
        .command
    else {
        unreachable!("a train command")
    };
    halfka_run(&args).unwrap()
}

/// The tiny run's checkpoint, its path and the run that resumes it.
fn valid() -> &'static (Vec<u8>, PathBuf, HalfKaRun) {
    static SAVED: OnceLock<(Vec<u8>, PathBuf, HalfKaRun)> = OnceLock::new();
    SAVED.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-halfka-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let stopped = run_of(&dir, &["--stop-after-batches", "7"]);
        train_halfka(&stopped, &AtomicBool::new(false), &mut std::io::sink()).unwrap();
        let path = checkpoint::path_in(&dir.join("ckpt"));
        let bytes = std::fs::read(&path).expect("the run's checkpoint");
        let _ = std::fs::remove_dir_all(&dir);
        (bytes, path, run_of(&dir, &["--resume"]))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (valid, path, run) = valid();
    let bytes = if mode % 2 == 1 {
        damaged(valid, &Damage::decode(rest))
    } else {
        rest.to_vec()
    };
    let mut model = HalfKaModel::new(run.width, run.factorize, run.seed);
    let mut slots = HalfKaSlots::new(&model, &run.optimizer);
    if let Err(e) = load_bytes(&bytes, path, run, &mut model, &mut slots) {
        let text = e.to_string();
        let name = path.display().to_string();
        assert!(
            text.contains(&name) && !text.contains(['\n', '\r']),
            "{text}"
        );
    }
});

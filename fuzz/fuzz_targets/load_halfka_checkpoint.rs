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
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nnue_learner::halfka::checkpoint::{self, load_bytes};
use nnue_learner::halfka::HalfKaRun;
use nnue_test_support::fuzz::{assert_error_line, fuzz_input};
use nnue_test_support::{fresh_halfka, tiny_halfka_checkpoint};

/// The tiny run's checkpoint, its path and the run that resumes it.
fn valid() -> &'static (Vec<u8>, PathBuf, HalfKaRun) {
    static SAVED: OnceLock<(Vec<u8>, PathBuf, HalfKaRun)> = OnceLock::new();
    SAVED.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fuzz-halfka-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let (bytes, run) = tiny_halfka_checkpoint(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        (bytes, checkpoint::path_in(&dir.join("ckpt")), run)
    })
}

fuzz_target!(|data: &[u8]| {
    let (valid, path, run) = valid();
    let Some(bytes) = fuzz_input(data, &[valid]) else {
        return;
    };
    let (mut model, mut slots) = fresh_halfka(run);
    if let Err(e) = load_bytes(&bytes, path, run, &mut model, &mut slots) {
        assert_error_line(&e.to_string(), &path.display().to_string());
    }
});

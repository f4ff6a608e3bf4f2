//! Property tests of the HalfKAv2_hm trainer's checkpoint reader
//! (`nnue-learn train --preset sf15.1 --resume`), which CI runs in place of the
//! fuzz target `fuzz/fuzz_targets/load_halfka_checkpoint.rs`: the checkpoint a
//! tiny 64-wide run writes (stopped in its second epoch), damaged (flipped
//! bytes, overwritten counts, cuts, extra bytes), must be read or refused with
//! one line naming the file, never panic or allocate without bound. A damaged
//! checkpoint that reads saves back to a checkpoint that reads the same.

use std::ops::Range;
use std::path::PathBuf;

use nnue_learner::halfka::checkpoint::{self, load_bytes, save, Position};
use nnue_learner::halfka::{HalfKaModel, HalfKaRun};
use nnue_test_support::damage::{check_error_line, damage, damaged};
use nnue_test_support::{fresh_halfka, tiny_halfka_checkpoint, TempDir};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// The tiny run's checkpoint and where its counts and tensor lengths are.
struct Saved {
    dir: TempDir,
    run: HalfKaRun,
    bytes: Vec<u8>,
    hot: Vec<Range<usize>>,
}

/// The model's tensor lengths in file order (the optimizer's two slots of
/// each follow all of them, in the same order).
fn tensor_lens(m: &HalfKaModel) -> Vec<usize> {
    let mut lens = vec![m.ft_w.len(), m.ft_b.len(), m.psqt.len()];
    for st in &m.stacks {
        for d in [&st.fc0, &st.fc1, &st.fc2] {
            lens.extend([d.wt.len(), d.b.len()]);
        }
    }
    lens
}

/// Trains the tiny run and finds the checkpoint's counts and tensor lengths.
fn saved() -> Saved {
    let dir = TempDir::new("halfka-checkpoint-proptest");
    let (bytes, run) = tiny_halfka_checkpoint(&dir.path(""));
    let (model, _) = fresh_halfka(&run);
    let lens = tensor_lens(&model);
    let mut all: Vec<usize> = lens.clone();
    all.extend(lens.iter().flat_map(|&n| [n, n]));
    let tensors: usize = all.iter().map(|n| 8 + 4 * n).sum();
    let meta = bytes.len() - tensors;
    let (mut at, mut lengths) = (meta, Vec::new());
    for n in all {
        lengths.push(at..at + 8);
        at += 8 + 4 * n;
    }
    let hot = std::iter::once(0..meta).chain(lengths).collect();
    Saved {
        dir,
        run,
        bytes,
        hot,
    }
}

impl Saved {
    /// The checkpoint's path (named in errors).
    fn path(&self) -> PathBuf {
        checkpoint::path_in(&self.dir.path("ckpt"))
    }

    /// Reads `bytes` into a fresh model: the position and the bytes it saves.
    fn read(&self, bytes: &[u8]) -> Result<(Position, Vec<u8>), String> {
        let (mut model, mut slots) = fresh_halfka(&self.run);
        let at = load_bytes(bytes, &self.path(), &self.run, &mut model, &mut slots)
            .map_err(|e| e.to_string())?;
        let dir = self.dir.path("resaved");
        save(&dir, &self.run, (&model, &slots), &at).unwrap();
        let written = std::fs::read(checkpoint::path_in(&dir)).unwrap();
        Ok((at, written))
    }

    /// Refused with one line naming the file, or read into a state that saves
    /// to a checkpoint which reads and saves back to the same bytes.
    fn check(&self, bytes: &[u8]) -> Result<(), TestCaseError> {
        match self.read(bytes) {
            Err(error) => check_error_line(&error, &self.path().display().to_string())?,
            Ok((_, written)) => {
                let (_, again) = self.read(&written).expect("a saved checkpoint reads");
                prop_assert!(again == written, "saving is stable");
            }
        }
        Ok(())
    }
}

/// Where the settings end: after the magic and version (20 bytes), a count,
/// then each setting's name and value, each a length and its bytes.
fn settings_end(bytes: &[u8]) -> usize {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let mut at = 28;
    for _ in 0..2 * u64_at(20) {
        at += 8 + u64_at(at);
    }
    at
}

/// Regression inputs: a cut in the first tensor, a settings count beyond the
/// file (read on pair by pair until one failed), a cursor no run reaches (the
/// loop's `cursor += 1` overflowed), a damaged setting value (its line break
/// split the error line).
fn check_error_lines(s: &Saved) {
    let path = s.path().display().to_string();
    let first_tensor = s.hot[1].start;
    // (22528 HalfKAv2_hm rows + 768 factoriser rows) x 64 weights.
    let cut = s.read(&s.bytes[..first_tensor + 12]).unwrap_err();
    assert_eq!(
        cut,
        format!(
            "{path}: cannot --resume: transformer weights: 1490944 values of 4 bytes do not fit \
             in the 4 bytes left at offset {}",
            first_tensor + 8 - 16
        )
    );
    let mut bytes = s.bytes.clone();
    bytes[20..28].copy_from_slice(&u64::MAX.to_le_bytes());
    let count = s.read(&bytes).unwrap_err();
    assert_eq!(
        count,
        format!(
            "{path}: cannot --resume: settings: {} values of 16 bytes do not fit in the {} bytes \
             left at offset 12",
            u64::MAX,
            s.bytes.len() - 28
        )
    );
    // The loop's numbers follow the settings: epoch, epoch positions, cursor.
    let cursor = settings_end(&s.bytes) + 16;
    let mut bytes = s.bytes.clone();
    bytes[cursor..cursor + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(
        s.read(&bytes).unwrap_err(),
        format!(
            "{path}: cannot --resume: cursor 18446744073709551615 is beyond any run (at most \
             72057594037927936)"
        )
    );
    let seed = s.bytes.windows(6).position(|w| w == b"--seed").unwrap();
    let mut bytes = s.bytes.clone();
    bytes[seed + 6 + 8] = b'\n';
    let seed_error = s.read(&bytes).unwrap_err();
    assert_eq!(
        seed_error,
        format!("{path}: cannot --resume: --seed was \\n, now 1")
    );
}

/// One test, so that the 20 MB checkpoint is trained once and its directory
/// removed at the end: the checkpoint reads and saves back to its bytes, the
/// regression inputs give their error lines, and 100 damaged copies read or
/// give one error line.
#[test]
fn damaged_halfka_checkpoints_read_or_give_one_error_line() {
    let s = saved();
    let (at, written) = s.read(&s.bytes).unwrap();
    assert!(written == s.bytes);
    assert_eq!((at.epoch, at.trained, at.batches), (2, 700, 7));
    check_error_lines(&s);
    let mut runner = TestRunner::new(ProptestConfig::with_cases(100));
    let result = runner.run(&damage(s.bytes.len(), s.hot.clone()), |changes| {
        s.check(&damaged(&s.bytes, &changes))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

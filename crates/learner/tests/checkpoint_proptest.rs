//! Property tests of the training checkpoints' readers, which CI runs in place
//! of the fuzz target `fuzz/fuzz_targets/load_checkpoint.rs`: the checkpoint a
//! tiny run writes (`All 8x2-1`, newbob on so a snapshot is saved, stopped in
//! its second epoch so history, figures and the stream's state are all filled),
//! damaged (flipped bytes, overwritten counts, cuts, extra bytes), must be read
//! or refused with one line naming the file, never panic or allocate without
//! bound. A damaged checkpoint that reads writes bytes that read back to the
//! same bytes; resumed through the trainer, it continues or stops with one
//! error line.

mod common;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use nnue_learner::checkpoint::{self, Checkpoint, Weights};
use nnue_learner::train::train;
use nnue_learner::LearnError;
use nnue_test_support::damage::{check_error_line, damage, damaged, Damage};
use nnue_test_support::{tiny_checkpoint, tiny_train_config};
use proptest::prelude::*;

/// Bytes of the magic and the version.
const HEADER: usize = 20;

/// The tiny run: a checkpoint, the template of its weights' shapes, and where
/// its counts and the tensors' lengths are.
struct Saved {
    dir: PathBuf,
    bytes: Vec<u8>,
    template: Weights,
    /// Counts, lengths and the loop's numbers: everything but the tensors' values.
    hot: Vec<Range<usize>>,
    /// The same but the shuffle buffer's indices (after the first), which
    /// would take most damage aimed at `hot`.
    numbers: Vec<Range<usize>>,
}

/// The lengths of the tensors a checkpoint stores for `w`, in file order.
fn tensor_lens(w: &Weights) -> Vec<usize> {
    let (m, s) = (&w.model, &w.slots);
    let mut lens = vec![m.ft_w.len(), m.ft_b.len()];
    lens.extend(m.dense.iter().flat_map(|d| [d.wt.len(), d.b.len()]));
    let slots = [&s.ft_w, &s.ft_b]
        .into_iter()
        .chain(s.dense.iter().flat_map(|(a, b)| [a, b]));
    lens.extend(slots.flat_map(|slot| [slot.m.len(), slot.v.len()]));
    lens
}

fn saved() -> &'static Saved {
    static SAVED: OnceLock<Saved> = OnceLock::new();
    SAVED.get_or_init(|| {
        let dir = common::temp_dir("checkpoint-proptest");
        let (bytes, template) = tiny_checkpoint(&dir);
        // Everything before the two copies of the weights (current, snapshot)
        // is counts and lengths; so is each tensor's 8-byte length.
        let lens = tensor_lens(&template);
        let weights: usize = lens.iter().map(|n| 8 + 4 * n).sum();
        let meta = bytes.len() - 2 * weights - 1;
        let (mut at, mut lengths) = (meta, Vec::new());
        for copy in 0..2 {
            at += copy; // the snapshot flag
            for n in &lens {
                lengths.push(at..at + 8);
                at += 8 + 4 * n;
            }
        }
        let hot = std::iter::once(0..meta).chain(lengths).collect();
        // The shuffle buffer's count is where a checkpoint without its indices
        // first differs.
        let mut read = Checkpoint::from_bytes(&bytes, &template).unwrap();
        let indices = std::mem::take(&mut read.stream.buffer).len();
        let short = read.to_bytes();
        let count = bytes.iter().zip(&short).position(|(a, b)| a != b).unwrap();
        let numbers = vec![HEADER..count + 16, count + 8 + 8 * indices..meta];
        Saved {
            dir,
            bytes,
            template,
            hot,
            numbers,
        }
    })
}

/// Reads `bytes` as the run's checkpoint: refused with one line naming the
/// file, or read into a checkpoint whose bytes read back to themselves.
fn check_read(bytes: &[u8]) -> Result<(), TestCaseError> {
    let s = saved();
    let path = checkpoint::path_in(&s.dir.join("ckpt"));
    match Checkpoint::from_bytes(bytes, &s.template) {
        Err(problem) => {
            let error = LearnError::Checkpoint {
                path: path.clone(),
                problem,
            };
            check_error_line(&error.to_string(), &path.display().to_string())?;
        }
        Ok(read) => {
            let written = read.to_bytes();
            let again = Checkpoint::from_bytes(&written, &s.template);
            prop_assert!(again.expect("written bytes read").to_bytes() == written);
            prop_assert_eq!(Checkpoint::settings_of(bytes).unwrap(), read.settings);
        }
    }
    Ok(())
}

#[test]
fn the_tiny_run_writes_every_part_of_a_checkpoint() {
    let s = saved();
    let read = Checkpoint::from_bytes(&s.bytes, &s.template).unwrap();
    assert!(read.to_bytes() == s.bytes);
    assert!(read.snapshot.is_some(), "newbob keeps a snapshot");
    assert_eq!(read.history.len(), 1, "one epoch ended");
    assert_eq!((read.positions, read.epoch_positions), (600, 200));
    assert!(!read.stream.buffer.is_empty());
}

/// Regression inputs: a count of settings far beyond the file is refused as
/// such (it was read on, pair by pair, until a pair failed: "setting name is
/// not UTF-8"); a cut in the settings count.
#[test]
fn huge_counts_are_refused_without_allocating() {
    let s = saved();
    let settings = damaged(
        &s.bytes,
        &[Damage::Field {
            at: HEADER,
            value: u64::MAX,
        }],
    );
    let error = Checkpoint::from_bytes(&settings, &s.template).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "settings: {} values of 16 bytes do not fit in the {} bytes left at offset 12",
            u64::MAX,
            s.bytes.len() - 28
        )
    );
    let cut = damaged(&s.bytes, &[Damage::Truncate { len: HEADER + 3 }]);
    assert_eq!(
        Checkpoint::from_bytes(&cut, &s.template)
            .unwrap_err()
            .to_string(),
        "truncated: settings needs 8 bytes at offset 4 of 7"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn damaged_checkpoints_read_or_give_one_error_line(
        changes in damage(saved().bytes.len(), saved().hot.clone())
    ) {
        check_read(&damaged(&saved().bytes, &changes))?;
    }

    #[test]
    fn arbitrary_bytes_after_the_header_never_panic(
        tail in prop::collection::vec(any::<u8>(), 0..256)
    ) {
        check_read(&[&saved().bytes[..HEADER], &tail[..]].concat())?;
    }
}

/// Resumes the tiny run from `bytes` written as its checkpoint, in a directory
/// of its own (`tag`); the error line of a run that stops.
fn resume_from(bytes: &[u8], tag: &str) -> Option<String> {
    let dir = saved().dir.join(format!("resume-{tag}"));
    let ckpt = dir.join("ckpt");
    std::fs::create_dir_all(&ckpt).unwrap();
    std::fs::write(checkpoint::path_in(&ckpt), bytes).unwrap();
    let run = train(
        &tiny_train_config(&dir, &["--resume"]),
        &AtomicBool::new(false),
        &mut std::io::sink(),
    );
    run.err().map(|e| e.to_string())
}

/// Regression inputs found by `resuming_from_a_damaged_checkpoint_never_panics`:
/// a shuffle-buffer index beyond the data was read mid-run ("record 10845 out of
/// range (3000 records)", naming no file), one in the held-out records would
/// have trained on validation data; a saved setting's line break split the
/// error line.
#[test]
fn damaged_stream_and_settings_are_refused_on_one_line() {
    let s = saved();
    let read = Checkpoint::from_bytes(&s.bytes, &s.template).unwrap();
    let path = checkpoint::path_in(&s.dir.join("resume-regression").join("ckpt"));
    let stream_error = format!(
        "{}: cannot --resume: the data stream position does not fit these training files (a \
         waiting record outside the training records)",
        path.display()
    );
    // The sample's 3000 records, the last 5% held out.
    for index in [10845, 2999] {
        let mut bad = read.clone();
        bad.stream.buffer[0] = index;
        let error = resume_from(&bad.to_bytes(), "regression");
        assert_eq!(error.as_deref(), Some(stream_error.as_str()), "{index}");
    }
    let mut bad = read.clone();
    let optimizer = bad.settings.iter_mut().find(|(o, _)| o == "--optimizer");
    optimizer.unwrap().1 = format!("a\ndam{}", "m".repeat(5000));
    let error = resume_from(&bad.to_bytes(), "regression");
    let expected = format!(
        "{}: cannot --resume: --optimizer: checkpoint a\\ndam{}..., command line adam",
        path.display(),
        "m".repeat(1994)
    );
    assert_eq!(error, Some(expected));
}

proptest! {
    // Each case resumes the run in process (milliseconds).
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A damaged checkpoint in the run's `--checkpoint-dir`: `--resume`
    /// continues the run or stops with one error line, never panics. A read
    /// error names the checkpoint; damaged weights that read may stop the run
    /// later as diverged ("training diverged: training loss NaN ...").
    #[test]
    fn resuming_from_a_damaged_checkpoint_never_panics(
        changes in damage(saved().bytes.len(), saved().numbers.clone())
    ) {
        let bytes = damaged(&saved().bytes, &changes);
        let tag = std::process::id().to_string();
        if let Some(error) = resume_from(&bytes, &tag) {
            let name = if error.contains("cannot --resume") {
                checkpoint::path_in(&saved().dir.join(format!("resume-{tag}")).join("ckpt"))
                    .display()
                    .to_string()
            } else {
                String::new()
            };
            check_error_line(&error, &name)?;
        }
    }
}

/// Regression inputs: counts the loop adds to, damaged to 2^64 - 1, made
/// `--resume` overflow (a panic where overflow is checked, wrapped counts
/// elsewhere): the stream's draws, the positions, the steps, the epoch's
/// figure count. Each is now refused where it is read.
#[test]
fn counters_no_run_reaches_are_refused() {
    let s = saved();
    let read = Checkpoint::from_bytes(&s.bytes, &s.template).unwrap();
    let path = checkpoint::path_in(&s.dir.join("resume-counters").join("ckpt"));
    type Damage = fn(&mut Checkpoint);
    let cases: [(&str, Damage); 4] = [
        ("stream draws", |c| c.stream.drawn = u64::MAX),
        ("positions", |c| c.positions = u64::MAX),
        ("steps", |c| c.steps = u64::MAX),
        ("epoch figure count", |c| c.epoch_learn.1 = u64::MAX),
    ];
    for (what, damage) in cases {
        let mut bad = read.clone();
        damage(&mut bad);
        let expected = format!(
            "{}: cannot --resume: {what} 18446744073709551615 is beyond any run (at most \
             72057594037927936)",
            path.display()
        );
        assert_eq!(resume_from(&bad.to_bytes(), "counters"), Some(expected));
    }
}

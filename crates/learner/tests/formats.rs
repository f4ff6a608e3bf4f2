//! `nnue-learn train` on `.binpack` and `.plain` data: the same records give the
//! same net, byte for byte, whatever the container.

mod common;

use std::path::{Path, PathBuf};

use common::Train;

/// Byte 39 of a record: padding, meaningless.
const PADDING_OFFSET: usize = 39;

/// Trains a small net for a short fixed-seed single-thread run on `train` (and
/// `validation` when given); returns the `.nnue` bytes.
fn train_net(dir: &Path, name: &str, train: &[&Path], validation: &[&Path]) -> Vec<u8> {
    let out = dir.join(format!("{name}.nnue"));
    let paths = |files: &[&Path]| {
        files
            .iter()
            .map(|f| f.to_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let mut args = Train::new().arg("--train").args(paths(train));
    if !validation.is_empty() {
        args = args.arg("--validation").args(paths(validation));
    }
    let (ok, _, _, err) = args
        .all("16")
        .hidden("4")
        .run("2", "1000", "100")
        .args(["--validation-count", "200", "--accuracy-count", "20"])
        .args(["--shuffle-buffer", "500", "--smart-fen-skipping"])
        .args([
            "--random-fen-skipping",
            "1",
            "--seed",
            "7",
            "--threads",
            "1",
        ])
        .no_progress()
        .output(&out)
        .learn();
    assert!(ok, "{name}: {err}");
    std::fs::read(out).unwrap()
}

/// Bytes 32..34 of a record: the score.
const SCORE: std::ops::Range<usize> = 32..34;

/// The sample `.bin` with `change` applied to every record, written to `name`.
fn changed_bin(dir: &Path, name: &str, change: impl Fn(&mut [u8])) -> PathBuf {
    let mut bytes = std::fs::read(common::sample_bin()).unwrap();
    bytes.chunks_exact_mut(40).for_each(change);
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The sample `.bin` with every padding byte 0, as Stockfish's generator writes
/// it (the tools' `convert`, which made the shipped `.bin`, writes 255).
fn zero_padded_bin(dir: &Path) -> PathBuf {
    changed_bin(dir, "padding0.bin", |record| record[PADDING_OFFSET] = 0)
}

#[test]
fn binpack_plain_and_bin_train_the_same_net() {
    let dir = common::temp_dir("formats-same");
    let bin = train_net(&dir, "bin", &[&common::sample_bin()], &[]);
    let binpack = train_net(&dir, "binpack", &[&common::sample("binpack")], &[]);
    assert!(bin == binpack, ".binpack and .bin trained different nets");
    let plain = train_net(&dir, "plain", &[&common::sample("plain")], &[]);
    assert!(bin == plain, ".plain and .bin trained different nets");
    let padded = zero_padded_bin(&dir);
    let zero = train_net(&dir, "padding0", &[&padded], &[]);
    assert!(bin == zero, "the padding byte changed the net");
    // Control: other scores do give another net, so the equalities above
    // compare trained weights, not an untouched initialization.
    let shifted = changed_bin(&dir, "shifted.bin", |record| {
        let score = i16::from_le_bytes([record[SCORE.start], record[SCORE.start + 1]]);
        record[SCORE].copy_from_slice(&score.saturating_add(100).to_le_bytes());
    });
    let other = train_net(&dir, "shifted", &[&shifted], &[]);
    assert!(bin != other, "the scores did not reach the weights");
}

#[test]
fn formats_mix_in_one_run() {
    let dir = common::temp_dir("formats-mix");
    let (bin, binpack, plain) = (
        common::sample_bin(),
        common::sample("binpack"),
        common::sample("plain"),
    );
    let all_bin = train_net(&dir, "bin", &[&bin, &bin], &[&bin]);
    let mixed = train_net(&dir, "mixed", &[&binpack, &bin], &[&plain]);
    assert!(all_bin == mixed, "a mixed file list trained another net");
}

#[test]
fn a_mixed_source_serves_every_record_by_global_index() {
    use nnue_core::data::{BinReader, DataError, ReaderOptions};
    use nnue_learner::data::{DataSource, PositionSource, SourceOptions};

    let paths = [
        common::sample("binpack"),
        common::sample_bin(),
        common::sample("plain"),
    ];
    let source = DataSource::open(&paths, SourceOptions::default()).unwrap();
    let reference = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let n = reference.len();
    assert_eq!(n, 3000);
    assert_eq!(source.len(), 3 * n);
    assert_eq!(source.file_ranges(), vec![0..n, n..2 * n, 2 * n..3 * n]);
    for i in 0..n {
        let want = reference.get(i).unwrap();
        for file in 0..3 {
            assert_eq!(
                source.record(file * n + i).unwrap(),
                want,
                "file {file} record {i}"
            );
        }
    }
    assert!(matches!(
        source.record(3 * n),
        Err(DataError::OutOfRange { index, len }) if index == 3 * n && len == 3 * n
    ));
}

/// viriformat holds every field the trainer reads (position, move, score,
/// result; the ply derived from the fullmove number, which agrees here), so
/// the reference crate's `.vf` of the sample trains the `.bin`'s net.
#[test]
fn viriformat_trains_the_same_net_as_bin() {
    let dir = common::temp_dir("formats-vf");
    let bin = train_net(&dir, "bin", &[&common::sample_bin()], &[]);
    let vf = train_net(&dir, "vf", &[&common::sample("vf")], &[]);
    assert!(bin == vf, ".vf and .bin trained different nets");
}

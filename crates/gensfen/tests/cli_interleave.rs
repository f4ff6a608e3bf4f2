//! `nnue-gen-sfen interleave`: files merged at random in proportion to what
//! each has left, each file's order kept, the same bytes for the same seed.

mod common;

use std::path::{Path, PathBuf};

use nnue_core::data::{ReaderOptions, TrainingDataReader, TrainingRecord, Validation};

use common::{p, run, temp_dir};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn records(path: &Path) -> Vec<TrainingRecord> {
    let reader = TrainingDataReader::open(path, ReaderOptions::default()).expect("open");
    let records = reader.records(Validation::Fast).expect("records");
    records.map(|r| r.expect("valid").record).collect()
}

fn interleave(out: &Path, seed: &str) -> Vec<u8> {
    let a = repo("tests/data/sf_tools_sample.vf");
    let b = repo("data/sample.bin");
    let result = run(&[
        "interleave",
        p(&a),
        p(&b),
        p(out),
        "--seed",
        seed,
        "--force",
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    std::fs::read(out).expect("output")
}

#[test]
fn every_record_once_each_file_in_order_and_spread_out() {
    let dir = temp_dir("interleave");
    let out = dir.join("mixed.bin");
    interleave(&out, "1");
    let a = records(&repo("tests/data/sf_tools_sample.vf"));
    let b = records(&repo("data/sample.bin"));
    let mixed = records(&out);
    assert_eq!(mixed.len(), a.len() + b.len());
    let (mut ia, mut ib, mut b_in_first_half) = (0, 0, 0);
    for (i, r) in mixed.iter().enumerate() {
        if ia < a.len() && *r == a[ia] {
            ia += 1;
        } else {
            assert_eq!(*r, b[ib], "output record {i} is neither file's next record");
            ib += 1;
            b_in_first_half += usize::from(i < mixed.len() / 2);
        }
    }
    assert_eq!((ia, ib), (a.len(), b.len()));
    // In proportion to what is left: about half of the small file's
    // records fall in each half of the output (53 expected, sd about 5).
    assert!((33..=73).contains(&b_in_first_half), "{b_in_first_half}");
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let dir = temp_dir("interleave-seed");
    let first = interleave(&dir.join("a.bin"), "7");
    assert!(first == interleave(&dir.join("b.bin"), "7"));
    assert!(first != interleave(&dir.join("c.bin"), "8"));
}

#[test]
fn a_bad_record_in_any_input_stops_before_anything_is_written() {
    let dir = temp_dir("interleave-bad");
    let cut = dir.join("cut.mf");
    let bytes = std::fs::read(repo("tests/data/sf_tools_sample.mf")).expect("mf");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).expect("write");
    let out = dir.join("out.bin");
    let vf = repo("tests/data/sf_tools_sample.vf");
    let result = run(&["interleave", p(&vf), p(&cut), p(&out)]);
    assert_eq!(result.status.code(), Some(1));
    let text = String::from_utf8_lossy(&result.stderr);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("cut.mf: record 2999: the file ends inside the record (31 of 32 bytes)"),
        "{text}"
    );
    assert!(!out.exists());
}

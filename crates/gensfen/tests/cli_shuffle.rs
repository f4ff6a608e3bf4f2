//! `shuffle` across formats: Stockfish's own sample data (the same 3000
//! records as `.bin`, `.binpack` and `.plain`, tests/data/README.md) shuffled
//! from and into every format is a seeded permutation of the reference
//! `.bin` records.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{listing, temp_dir, test_data, test_data_bytes};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nnue-gen-sfen"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

fn shuffle_ok(args: &[&str]) {
    let mut all = vec!["shuffle"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The 40-byte records of `bytes`, sorted: a multiset to compare.
fn sorted_records(bytes: &[u8]) -> Vec<[u8; 40]> {
    assert_eq!(bytes.len() % 40, 0);
    let mut v: Vec<[u8; 40]> = bytes
        .chunks(40)
        .map(|c| c.try_into().expect("40 bytes"))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn binpack_to_bin_is_a_seeded_permutation_of_the_reference_records() {
    let dir = temp_dir("shuffle-binpack");
    let input = test_data("sf_tools_sample.binpack");
    let reference = test_data_bytes("sf_tools_sample.bin");
    let (a, b, c) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("c.bin"));
    shuffle_ok(&[p(&input), p(&a), "--seed", "7"]);
    shuffle_ok(&[p(&input), p(&b), "--seed", "7"]);
    shuffle_ok(&[p(&input), p(&c), "--seed", "8"]);
    let (a, b, c) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(a, b, "same seed, same bytes");
    assert_ne!(a, c, "another seed, another order");
    assert_ne!(a, reference, "shuffled");
    assert_eq!(sorted_records(&a), sorted_records(&reference));
}

#[test]
fn binpack_output_reads_back_to_the_same_records() {
    let dir = temp_dir("shuffle-to-binpack");
    let input = test_data("sf_tools_sample.bin");
    let reference = test_data_bytes("sf_tools_sample.bin");
    let packed = dir.join("s.binpack");
    let back = dir.join("back.bin");
    shuffle_ok(&[p(&input), p(&packed), "--seed", "3"]);
    // Unchained positions: valid .binpack, but about 34 bytes a position.
    let size = std::fs::metadata(&packed).unwrap().len();
    assert!((30 * 3000..38 * 3000).contains(&size), "{size}");
    let out = run(&["convert", p(&packed), p(&back)]);
    assert!(out.status.success(), "{out:?}");
    let back = std::fs::read(&back).unwrap();
    assert_eq!(sorted_records(&back), sorted_records(&reference));
    // The same seed through .bin gives the same order.
    let direct = dir.join("s.bin");
    shuffle_ok(&[p(&input), p(&direct), "--seed", "3"]);
    assert_eq!(back, std::fs::read(&direct).unwrap());
}

#[test]
fn mixed_plain_bin_and_binpack_inputs_in_buckets() {
    let dir = temp_dir("shuffle-mixed");
    let plain = test_data("sf_tools_sample.plain");
    let bin = test_data("sf_tools_sample.bin");
    let binpack = test_data("sf_tools_sample.binpack");
    let reference = test_data_bytes("sf_tools_sample.bin");
    // 10 x 3000 records, estimated at about 1.2 MB of 40-byte records: two
    // buckets of 1 MiB, so the bucket files path runs on every format.
    let out = dir.join("m.bin");
    let mut args = vec![p(&plain), p(&bin)];
    args.extend([p(&binpack); 8]);
    args.extend([p(&out), "--seed", "1", "--memory-mib", "1"]);
    shuffle_ok(&args);
    let shuffled = std::fs::read(&out).unwrap();
    assert_eq!(
        sorted_records(&shuffled),
        sorted_records(&reference.repeat(10))
    );
    // The one-bucket path, into .plain, and back through `convert`.
    let text = dir.join("m.plain");
    let back = dir.join("m-back.bin");
    shuffle_ok(&[p(&bin), p(&out), p(&text), "--seed", "2"]);
    let r = run(&["convert", p(&text), p(&back)]);
    assert!(r.status.success(), "{r:?}");
    assert_eq!(
        sorted_records(&std::fs::read(&back).unwrap()),
        sorted_records(&reference.repeat(11))
    );
    // No bucket files are left behind.
    assert_eq!(listing(&dir), ["m-back.bin", "m.bin", "m.plain"]);
}

#[test]
fn truncated_binpack_is_named_by_file_and_chunk_and_writes_nothing() {
    let dir = temp_dir("shuffle-truncated");
    let bytes = test_data_bytes("sf_tools_sample.binpack");
    let cut = dir.join("cut.binpack");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let bin = test_data("sf_tools_sample.bin");
    let out = dir.join("out.bin");
    let r = run(&["shuffle", p(&bin), p(&cut), p(&out)]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cut.binpack: chunk 0 at byte 0"), "{err}");
    assert!(err.contains("truncated"), "{err}");
    assert_eq!(listing(&dir), vec!["cut.binpack".to_string()]);
}

#[test]
fn bad_extensions_and_same_file_are_usage_errors() {
    let dir = temp_dir("shuffle-usage");
    let bin = dir.join("x.bin");
    std::fs::copy(test_data("sf_tools_sample.bin"), &bin).unwrap();
    let txt = dir.join("x.txt");
    for args in [
        vec!["shuffle", p(&bin), p(&txt)],
        vec!["shuffle", p(&txt), p(&dir.join("y.bin"))],
    ] {
        let r = run(&args);
        assert_eq!(r.status.code(), Some(2), "{r:?}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains("x.txt: unsupported extension"), "{err}");
    }
    let r = run(&["shuffle", p(&bin), p(&bin), "--force"]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("the output is also an input"));
    assert_eq!(listing(&dir), vec!["x.bin".to_string()]);
}

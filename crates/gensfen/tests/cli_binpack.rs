//! End-to-end `.binpack` support of the real `nnue-gen-sfen` binary,
//! checked against files written by Stockfish's tools
//! (`tests/data/README.md`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use nnue_gensfen::stats::stats;

use common::{listing, p, run, temp_dir};

fn sf(ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/sf_tools_sample.{ext}"))
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Converting Stockfish's file in one format gives Stockfish's file in
/// every other format, byte for byte.
#[test]
fn convert_reproduces_stockfish_files_in_every_direction() {
    let dir = temp_dir("binpack-exact");
    for (from, to) in [
        ("binpack", "bin"),
        ("bin", "binpack"),
        ("binpack", "plain"),
        ("plain", "binpack"),
        ("binpack", "binpack"),
        ("bin", "plain"),
        ("plain", "bin"),
    ] {
        let out_path = dir.join(format!("{from}-to.{to}"));
        let out = run(&["convert", p(&sf(from)), p(&out_path)]);
        assert_ok(&out);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            format!(
                "converted 3000 records (0 invalid skipped): {} -> {}",
                sf(from).display(),
                out_path.display()
            )
        );
        let got = std::fs::read(&out_path).expect("output");
        assert!(
            got == std::fs::read(sf(to)).expect("reference"),
            "{from} -> {to}"
        );
    }
}

#[test]
fn stats_reads_binpack_like_the_same_data_as_bin() {
    let packed = stats(&[sf("binpack")], false).expect("binpack stats");
    assert_eq!(packed, stats(&[sf("bin")], false).expect("bin stats"));
    // Independent reference: the result lines of Stockfish's .plain.
    let plain = std::fs::read_to_string(sf("plain")).expect("plain");
    let count = |line: &str| plain.lines().filter(|l| *l == line).count() as u64;
    assert_eq!(packed.records, 3000);
    assert_eq!(
        (packed.wins, packed.draws, packed.losses),
        (count("result 1"), count("result 0"), count("result -1"))
    );
}

#[test]
fn truncated_binpack_is_one_error_line_and_no_output() {
    let dir = temp_dir("binpack-cut");
    let cut = dir.join("cut.binpack");
    let bytes = std::fs::read(sf("binpack")).expect("binpack");
    std::fs::write(&cut, &bytes[..5000]).expect("write");
    let out_path = dir.join("out.bin");
    let out = run(&["convert", p(&cut), p(&out_path)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "nnue-gen-sfen: error: {}: chunk 0 at byte 0: truncated file: the header announces 8768 bytes but only 4992 remain\n",
            cut.display()
        )
    );
    assert_eq!(listing(&dir), ["cut.binpack"]);
    let out = run(&["stats", p(&cut)]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn corrupt_move_text_is_an_error_not_a_crash() {
    let dir = temp_dir("binpack-flip");
    let bad = dir.join("bad.binpack");
    let mut bytes = std::fs::read(sf("binpack")).expect("binpack");
    // Every byte of the first chain's move text set to 0xFF: piece and
    // move indices past the end of their lists.
    bytes[8 + 34..8 + 34 + 40].fill(0xFF);
    std::fs::write(&bad, &bytes).expect("write");
    let out = run(&["convert", p(&bad), p(&dir.join("out.plain"))]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let prefix = format!(
        "nnue-gen-sfen: error: {}: chunk 0 at byte 0: entry ",
        bad.display()
    );
    assert!(err.starts_with(&prefix), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(listing(&dir), ["bad.binpack"]);
}

#[test]
fn append_to_binpack_keeps_old_chunks() {
    let dir = temp_dir("binpack-append");
    let out_path = dir.join("twice.binpack");
    assert_ok(&run(&["convert", p(&sf("bin")), p(&out_path)]));
    assert_ok(&run(&["convert", p(&sf("bin")), p(&out_path), "--append"]));
    let back = dir.join("back.bin");
    assert_ok(&run(&["convert", p(&out_path), p(&back)]));
    let once = std::fs::read(sf("bin")).expect("bin");
    assert!(std::fs::read(&back).expect("back") == [once.clone(), once].concat());
    let packed = std::fs::read(sf("binpack")).expect("binpack");
    assert!(std::fs::read(&out_path).expect("out") == [packed.clone(), packed].concat());
}

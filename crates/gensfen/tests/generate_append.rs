//! `generate --append` continues a file with new games: an interrupted run
//! continued with the same `--seed` must not replay (and so duplicate) the
//! games already in the file.

mod common;

use std::collections::HashSet;

use common::{bin_records, p, run, stdout, temp_dir};
use nnue_core::packed::PackedSfenValue;
use nnue_gensfen::generate::continuation::continuation_seed;

/// A short seeded run: `--loop` records at depth 2 on one thread (about 0.2 s).
const RUN: &[&str] = &[
    "generate",
    "--loop",
    "400",
    "--depth",
    "2",
    "--threads",
    "1",
    "--hash",
    "2",
    "--seed",
    "5",
];
/// Bytes of a `.bin` record.
const RECORD: u64 = 40;

fn generate(out: &std::path::Path, extra: &[&str]) -> String {
    let mut args = RUN.to_vec();
    args.extend_from_slice(&["-o", p(out)]);
    args.extend_from_slice(extra);
    let done = run(&args);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    stdout(&done)
}

/// How many of `later` repeat a position (the packed board, side and plies) of `earlier`.
fn repeated(earlier: &[PackedSfenValue], later: &[PackedSfenValue]) -> usize {
    let seen: HashSet<_> = earlier.iter().map(|r| r.sfen.0).collect();
    later.iter().filter(|r| seen.contains(&r.sfen.0)).count()
}

#[test]
fn continuing_a_file_with_the_same_seed_plays_new_games() {
    let dir = temp_dir("append-new-games");
    let out = dir.join("d.bin");
    let first = generate(&out, &[]);
    assert!(first.ends_with("seed: 5\n"), "{first}");
    let continued = generate(&out, &["--append"]);
    let bytes = 400 * RECORD;
    assert!(
        continued.ends_with(&format!(
            "seed: 5 (continuing {bytes} bytes already in the file: games from seed {})\n",
            continuation_seed(5, bytes)
        )),
        "{continued}"
    );
    let records = bin_records(&out);
    assert_eq!(records.len(), 800);
    let (old, new) = records.split_at(400);
    // The same seed without the fix replays the first run's games: all 400 repeat.
    // New games from the start position share a few early positions at most.
    let repeats = repeated(old, new);
    assert!(repeats < 20, "{repeats} of 400 positions repeated");
}

#[test]
fn a_missing_or_empty_file_starts_from_the_seed_itself() {
    let dir = temp_dir("append-fresh");
    let plain = dir.join("plain.bin");
    let appended = dir.join("appended.bin");
    generate(&plain, &[]);
    std::fs::write(&appended, b"").unwrap();
    let text = generate(&appended, &["--append"]);
    assert!(text.ends_with("seed: 5\n"), "{text}");
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&appended).unwrap()
    );
}

#[test]
fn a_continuation_is_reproducible_from_the_seed_and_the_file() {
    let dir = temp_dir("append-repro");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    for out in [&a, &b] {
        generate(out, &[]);
        generate(out, &["--append"]);
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

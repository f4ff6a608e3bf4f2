//! Shared helpers for the gensfen tests: reference data and temp dirs.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use nnue_core::packed::{GameResult, PackedSfen, PackedSfenValue, SfMove};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

#[allow(unused_imports)]
pub(crate) use nnue_test_support::{test_data, test_data_bytes, test_data_text};

pub(crate) fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// formats.md 1.6 worked records: (fen, move, score, ply, result, hex).
pub(crate) use nnue_test_support::WORKED;

/// The 100 (fen, packed bytes) rows of tests/data/packed_sfen.tsv.
pub(crate) fn vectors() -> Vec<(String, [u8; 32])> {
    let text = test_data_text("packed_sfen.tsv");
    let rows: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, h) = l.split_once('\t').expect("two columns");
            (
                fen.to_owned(),
                unhex(h.trim()).try_into().expect("32 bytes"),
            )
        })
        .collect();
    assert_eq!(rows.len(), 100);
    rows
}

/// A `.bin` image: the six worked records verbatim, then one record per
/// vector row with the Stockfish-packed bytes and a legal move. Padding of
/// the vector records is 0 (what gensfen writes), so tests see it change.
pub(crate) fn reference_bin() -> Vec<u8> {
    let mut out = Vec::new();
    for w in WORKED {
        out.extend_from_slice(&unhex(w.5));
    }
    for (i, (fen, bytes)) in vectors().into_iter().enumerate() {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let moves = pos.legal_moves();
        let m = moves[i % moves.len()];
        let rec = PackedSfenValue {
            sfen: PackedSfen(bytes),
            score: (i as i16) * 37 - 1500,
            mv: SfMove::from_move(&m),
            game_ply: 16 + i as u16,
            game_result: GameResult::from_i8((i % 3) as i8 - 1)
                .expect("result")
                .to_i8(),
            padding: 0,
        };
        out.extend_from_slice(&rec.to_bytes());
    }
    out
}

/// A fresh empty directory under the system temp dir, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn temp_dir(tag: &str) -> TempDir {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "nnue-gensfen-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// Names of the files in `dir`, sorted.
pub(crate) fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs the real `nnue-gen-sfen` binary with `args`.
pub(crate) fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_nnue-gen-sfen"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// A temporary path as a command-line argument.
pub(crate) fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// Every error is one line with this prefix.
pub(crate) const ERROR_PREFIX: &str = "nnue-gen-sfen: error: ";

/// The exit code and the one error line (without its prefix) of a failed run.
pub(crate) fn failure(out: &std::process::Output) -> (i32, String) {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "one error line expected: {text:?}");
    let msg = text
        .trim_end()
        .strip_prefix(ERROR_PREFIX)
        .unwrap_or_else(|| panic!("{text:?} lacks {ERROR_PREFIX:?}"));
    (out.status.code().expect("exit code"), msg.to_string())
}

/// The standard output of a run that must have succeeded.
pub(crate) fn stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `generate`'s options as the command line `nnue-gen-sfen generate --quiet
/// <extra>` gives them, or clap's message.
pub(crate) fn generate_args(
    extra: &[&str],
) -> Result<nnue_gensfen::generate::options::GenerateArgs, String> {
    use clap::Parser;
    use nnue_gensfen::cli::{Cli, Command};
    let mut argv = vec!["nnue-gen-sfen", "generate", "--quiet"];
    argv.extend_from_slice(extra);
    match Cli::try_parse_from(argv)
        .map_err(|e| e.to_string())?
        .command
    {
        Some(Command::Generate(a)) => Ok(*a),
        other => panic!("not a generate command: {other:?}"),
    }
}

/// The resolved settings of worker 0 for `generate --quiet <extra>`.
pub(crate) fn generate_config(extra: &[&str]) -> nnue_gensfen::generate::options::GenConfig {
    generate_args(extra).unwrap().resolve(0).unwrap()
}

/// Runs `generate -o out <extra>` in this process (no Ctrl-C) and returns its
/// summary.
pub(crate) fn generate_in_process(
    out: &Path,
    extra: &[&str],
) -> nnue_gensfen::generate::summary::Summary {
    let mut all = vec!["-o", p(out)];
    all.extend_from_slice(extra);
    let stop = std::sync::atomic::AtomicBool::new(false);
    nnue_gensfen::generate::generate(&generate_args(&all).unwrap(), &stop).unwrap()
}

/// Runs `generate -o <file> <extra>` in this process twice, into two files of a
/// fresh temporary directory, and asserts both hold the same bytes: a seeded
/// run is reproducible. The first run's summary and records.
pub(crate) fn generate_twice(
    tag: &str,
    extra: &[&str],
) -> (
    nnue_gensfen::generate::summary::Summary,
    Vec<PackedSfenValue>,
) {
    let dir = temp_dir(tag);
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let summary = generate_in_process(&a, extra);
    generate_in_process(&b, extra);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    (summary, bin_records(&a))
}

/// `generate` options under which the records are exactly the games'
/// positions: written from ply 0, no random moves, no position skipped as seen
/// before.
pub(crate) const EVERY_POSITION: &[&str] = &[
    "--write-minply",
    "0",
    "--random-move-count",
    "0",
    "--dedup-mib",
    "0",
];

/// Every record of the `.bin` file at `path` (whose length must be whole records).
pub(crate) fn bin_records(path: &Path) -> Vec<PackedSfenValue> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len() % nnue_core::packed::PACKED_SFEN_VALUE_SIZE, 0);
    bytes
        .chunks(nnue_core::packed::PACKED_SFEN_VALUE_SIZE)
        .map(|c| PackedSfenValue::from_slice(c).unwrap())
        .collect()
}

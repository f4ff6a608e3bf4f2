//! `.binpack`: byte-exact with Stockfish's tools in both directions, round
//! trips, and clear errors (never a panic) on truncated or corrupt files.
//!
//! `tests/data/sf_tools_sample.*` were written by Stockfish's tools branch
//! (see `tests/data/README.md`).

use std::path::{Path, PathBuf};

use nnue_core::data::{
    BinpackReader, BinpackWriter, ChunkError, DataError, RecordPolicy, TrainingDataWriter,
};
use nnue_core::packed::PackedSfenValue;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nnue-binpack-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn decode_all(reader: &BinpackReader) -> Result<Vec<PackedSfenValue>, DataError> {
    reader
        .entries(RecordPolicy::default())
        .map(|e| e.map(|(_, raw, _)| raw))
        .collect()
}

#[test]
fn binpack_to_bin_gives_stockfish_bytes() {
    let reader = BinpackReader::open(data("sf_tools_sample.binpack")).expect("open");
    let records = decode_all(&reader).expect("valid file");
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
    let expected = std::fs::read(data("sf_tools_sample.bin")).expect("bin");
    assert_eq!(records.len(), 3000);
    for (i, (a, b)) in bytes.chunks(40).zip(expected.chunks(40)).enumerate() {
        assert_eq!(a, b, "record {i}");
    }
    assert_eq!(bytes, expected);
}

#[test]
fn bin_to_binpack_gives_stockfish_bytes() {
    let dir = TempDir::new("to-binpack");
    let out = dir.path("out.binpack");
    let bin = std::fs::read(data("sf_tools_sample.bin")).expect("bin");
    let mut writer = BinpackWriter::create(&out).expect("create");
    for chunk in bin.chunks_exact(40) {
        writer
            .write(&PackedSfenValue::from_slice(chunk).expect("40 bytes"))
            .expect("write");
    }
    assert_eq!(writer.finish().expect("finish"), 3000);
    let expected = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    assert_eq!(std::fs::read(&out).expect("out"), expected);
}

#[test]
fn corruption_survey() {
    let bytes = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    let mut ok = 0;
    let mut err = 0;
    for i in 8..bytes.len() {
        for bit in [0u8, 3, 7] {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            let r = BinpackReader::from_bytes(b, "x.binpack");
            match decode_all(&r) {
                Ok(_) => ok += 1,
                Err(e) => {
                    if err % 500 == 0 {
                        eprintln!("{e}");
                    }
                    err += 1
                }
            }
        }
    }
    eprintln!("ok {ok} err {err}");
    let _ = (ChunkError::TooLarge(0), TrainingDataWriter::create("x.bin").is_ok());
}

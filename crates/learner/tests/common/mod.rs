//! Helpers shared by the learner's tests.
#![allow(dead_code)]

use std::path::PathBuf;

use nnue_core::data::{BinReader, ReaderOptions};
use nnue_learner::data::batch::target_of;
use nnue_learner::data::SparseBatch;
use nnue_learner::model::{Extractor, ModelShape};

/// Stockfish-tools data (see tests/data/README.md).
pub fn sample_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sf_tools_sample.bin")
}

/// The same Stockfish-tools data in another format: `"binpack"` or `"plain"`.
pub fn sample(extension: &str) -> PathBuf {
    sample_bin().with_extension(extension)
}

/// A fresh directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nnue-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `n` sample positions as a batch for `shape`, every `step`-th record.
pub fn sample_batch(shape: &ModelShape, n: usize, step: usize) -> SparseBatch {
    let reader = BinReader::open(&[sample_bin()], ReaderOptions::default()).unwrap();
    let extractor = Extractor::new(shape);
    let mut batch = SparseBatch::new();
    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
    for i in 0..n {
        let record = reader.get((i * step) as u64).unwrap();
        let pos = &record.position;
        extractor.rows(&pos.board, pos.turn, &mut stm, &mut nstm);
        batch.push(&stm, &nstm, target_of(&record));
    }
    batch
}

//! data/sample.bin is the reference `.bin` built from Stockfish's vectors
//! (see common::reference_bin). Regenerate with
//! `NNUE_BLESS_SAMPLE=1 cargo test -p nnue-gensfen --test sample_data`.

mod common;

use std::path::PathBuf;

use nnue_core::data::{BinReader, ReaderOptions};

#[test]
fn sample_bin_is_the_reference_file_and_fully_valid() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/sample.bin");
    let expected = common::reference_bin();
    if std::env::var_os("NNUE_BLESS_SAMPLE").is_some() {
        std::fs::write(&path, &expected).expect("write sample");
    }
    let actual = std::fs::read(&path).expect("data/sample.bin is committed");
    assert_eq!(actual, expected);
    let reader = BinReader::open(&[&path], ReaderOptions::default()).expect("open");
    assert_eq!(reader.len(), 106);
    assert_eq!(reader.iter_validated().filter(Result::is_ok).count(), 106);
}

//! Any bytes, read as a `.binpack` file, must decode to entries or one
//! error naming the chunk, never a panic or an abort: the `sfbinpack`
//! decoder's own panics on corrupt move text must stay contained.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_core::data::{decode_fast, BinpackReader, DataError, RecordPolicy};

fuzz_target!(|data: &[u8]| {
    let reader = BinpackReader::from_bytes(data.to_vec(), "fuzz.binpack");
    let policy = RecordPolicy::default();
    for entry in reader.entries(policy) {
        match entry {
            Ok((_, raw, record)) => {
                // What the reader hands out is a valid record whose 40-byte
                // form decodes to the same fields.
                assert_eq!(decode_fast(&raw, policy).expect("valid"), record);
                let _ = record.position.fen();
            }
            Err(DataError::BadChunk { .. }) => {}
            Err(other) => panic!("unexpected error kind: {other}"),
        }
    }
});

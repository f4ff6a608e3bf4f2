//! Any bytes, read as a viriformat (`.vf`) file, must give records or one
//! error naming the game and move, never a panic: every record handed out
//! is a legal position with a legal move, and packs into a record that
//! decodes to the same fields.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use nnue_core::data::viri::ViriReader;
use nnue_core::data::{decode_full, DataError, RecordPolicy};

fuzz_target!(|data: &[u8]| {
    let reader = ViriReader::new(data, Path::new("fuzz.vf"));
    for record in reader {
        match record {
            Ok((_, record)) => {
                let full = decode_full(&record.to_packed(), RecordPolicy::default())
                    .expect("a replayed record is legal");
                assert_eq!(full.record, record);
            }
            Err(DataError::BadCoded { .. }) => break,
            Err(other) => panic!("unexpected error kind: {other}"),
        }
    }
});

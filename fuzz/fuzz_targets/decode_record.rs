//! Any bytes, read as 40-byte records, must decode to a record or an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_core::data::{decode_fast, decode_full, RecordPolicy};
use nnue_core::packed::{PackedSfen, PackedSfenValue};

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(40) {
        let Some(value) = PackedSfenValue::from_slice(chunk) else {
            continue;
        };
        let policy = RecordPolicy {
            allow_move_none: chunk[39] & 1 == 1,
        };
        if let Ok(rec) = decode_fast(&value, policy) {
            // A decodable position must survive a re-encode unchanged.
            let again = PackedSfen::encode(&rec.position)
                .decode()
                .expect("re-encoded position decodes");
            assert_eq!(again, rec.position);
            let _ = rec.position.fen();
            let _ = rec.mv.to_uci();
        }
        let _ = decode_full(&value, policy);
    }
});

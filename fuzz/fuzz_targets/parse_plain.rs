//! Any text must parse into entries or errors, and packing must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_core::data::{PlainReader, RecordPolicy};

fuzz_target!(|data: &[u8]| {
    for entry in PlainReader::new(data, "fuzz.plain").flatten() {
        let _ = entry.to_packed(RecordPolicy {
            allow_move_none: true,
        });
    }
});

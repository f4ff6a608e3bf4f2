//! Any bytes, read as 32-byte marlinformat (`.mf`) or bulletformat (`.bf`)
//! records (the first byte picks which), must decode to a record or an
//! error, never a panic; a record that decodes writes back to bytes that
//! decode to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_core::data::{BoardKind, BOARD_RECORD_SIZE};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let kind = if pick & 1 == 0 {
        BoardKind::Marlin
    } else {
        BoardKind::Bullet
    };
    for chunk in rest.chunks_exact(BOARD_RECORD_SIZE) {
        let bytes: &[u8; BOARD_RECORD_SIZE] = chunk.try_into().expect("32 bytes");
        let Ok(record) = kind.decode(bytes) else {
            continue;
        };
        let again = kind.encode(&record).expect("a read record can be written");
        assert_eq!(kind.decode(&again).expect("written bytes decode"), record);
    }
});

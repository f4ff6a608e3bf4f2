//! Property tests of the `.vf`, `.mf` and `.bf` readers, which CI runs in
//! place of the fuzz targets (`fuzz/fuzz_targets/decode_viriformat.rs`,
//! `decode_boards.rs`): arbitrary and mutated bytes never panic a reader,
//! every record a reader hands out is sound, and a 32-byte record that
//! decodes writes back to bytes that decode to the same record.

use std::path::Path;
use std::sync::OnceLock;

use nnue_core::data::viri::ViriReader;
use nnue_core::data::{decode_full, BoardKind, DataError, RecordPolicy, BOARD_RECORD_SIZE};
use nnue_test_support::test_data_bytes;
use proptest::prelude::*;

fn sample(ext: &str) -> &'static [u8] {
    static FILES: OnceLock<[Vec<u8>; 3]> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        ["vf", "mf", "bf"].map(|e| test_data_bytes(&format!("sf_tools_sample.{e}")))
    });
    match ext {
        "vf" => &files[0],
        "mf" => &files[1],
        _ => &files[2],
    }
}

fn kind(bullet: bool) -> BoardKind {
    if bullet {
        BoardKind::Bullet
    } else {
        BoardKind::Marlin
    }
}

/// Decoding never panics; what decodes round-trips.
fn check_board(kind: BoardKind, bytes: &[u8; BOARD_RECORD_SIZE]) -> Result<(), TestCaseError> {
    if let Ok(record) = kind.decode(bytes) {
        let again = kind.encode(&record).expect("a read record can be written");
        prop_assert_eq!(kind.decode(&again).expect("written bytes decode"), record);
    }
    Ok(())
}

/// Reading never panics; every record is legal and stable; errors are the
/// reader's own kind.
fn check_viri(bytes: &[u8]) -> Result<(), TestCaseError> {
    for record in ViriReader::new(bytes, Path::new("p.vf")) {
        match record {
            Ok((_, record)) => {
                let full = decode_full(&record.to_packed(), RecordPolicy::default());
                prop_assert_eq!(full.expect("legal").record, record);
            }
            Err(DataError::BadCoded { .. }) => break,
            Err(other) => prop_assert!(false, "unexpected error kind: {}", other),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_boards_never_panic(bytes in prop::array::uniform32(any::<u8>()), bullet in any::<bool>()) {
        check_board(kind(bullet), &bytes)?;
    }

    #[test]
    fn mutated_sample_boards_round_trip(
        index in 0..3000usize,
        flips in prop::collection::vec((0..BOARD_RECORD_SIZE, any::<u8>()), 1..4),
        bullet in any::<bool>(),
    ) {
        let file = sample(if bullet { "bf" } else { "mf" });
        let mut bytes: [u8; BOARD_RECORD_SIZE] =
            file[index * 32..index * 32 + 32].try_into().expect("32 bytes");
        for (at, xor) in flips {
            bytes[at] ^= xor;
        }
        check_board(kind(bullet), &bytes)?;
    }

    #[test]
    fn arbitrary_viriformat_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_viri(&bytes)?;
    }

    #[test]
    fn mutated_sample_games_never_panic(
        flips in prop::collection::vec((0..2000usize, any::<u8>()), 1..6),
        cut in 0..2000usize,
    ) {
        let mut bytes = sample("vf")[..2000].to_vec();
        for (at, xor) in flips {
            bytes[at] ^= xor;
        }
        bytes.truncate(cut.max(1));
        check_viri(&bytes)?;
    }
}

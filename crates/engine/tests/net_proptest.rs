//! Property tests of `LoadedNet::from_bytes`, the engine's `EvalFile` reader,
//! which CI runs in place of the fuzz target `fuzz/fuzz_targets/load_engine_net.rs`.
//! It picks the HalfKP-era reader or Stockfish 15.1's by the version word, so
//! damaged copies of one net of each kind (a random `HalfKP 32x2-8-8` net and a
//! random 64-wide HalfKAv2_hm net, the narrowest its layout admits) and copies
//! with the other kind's version word must load or give one error line naming
//! the file, never panic; a net that loads writes back to the same bytes and
//! evaluates positions.

use std::ops::Range;

use nnue_engine::eval::net::LoadedNet;
use nnue_test_support::damage::{check_error_line, damage, damaged};
use nnue_test_support::{eval_files, position};
use proptest::prelude::*;

/// The name the reader is given for the damaged bytes.
const SOURCE: &str = "damaged-eval-file.nnue";
/// Positions of 32, 10 and 2 pieces.
const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 0 1",
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
];
/// Version, file hash, description length: where both readers decide.
const HEADER: Range<usize> = 0..12;

/// A valid net of each kind: HalfKP-era first, HalfKAv2_hm second.
fn valid() -> &'static [Vec<u8>; 2] {
    eval_files()
}

/// The bytes a loaded net writes.
fn written(net: &LoadedNet) -> Vec<u8> {
    match net {
        LoadedNet::HalfKp(net) => net.to_bytes(),
        LoadedNet::HalfKa(net) => net.to_bytes(),
    }
}

/// Loads `bytes`: an error is one line naming the file; a net writes back to
/// `bytes` and evaluates every position, as its own evaluator does.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match LoadedNet::from_bytes(bytes, SOURCE) {
        Err(e) => check_error_line(&e.to_string(), SOURCE)?,
        Ok(net) => {
            prop_assert!(written(&net) == bytes, "a loaded net writes back");
            prop_assert!(!net.summary().is_empty());
            for fen in FENS {
                let pos = position(fen);
                let direct = match &net {
                    LoadedNet::HalfKp(n) => nnue_core::nnue::evaluate(n, &pos),
                    LoadedNet::HalfKa(n) => n.evaluate(&pos),
                };
                prop_assert_eq!(net.raw_value(&pos), direct);
            }
        }
    }
    Ok(())
}

#[test]
fn each_kind_loads_by_its_version_word() {
    let [halfkp, halfka] = valid();
    assert!(matches!(
        LoadedNet::from_bytes(halfkp, SOURCE),
        Ok(LoadedNet::HalfKp(_))
    ));
    assert!(matches!(
        LoadedNet::from_bytes(halfka, SOURCE),
        Ok(LoadedNet::HalfKa(_))
    ));
    // Each body under the other's version word.
    let swapped = [&halfka[..4], &halfkp[4..]].concat();
    assert_eq!(
        LoadedNet::from_bytes(&swapped, SOURCE)
            .unwrap_err()
            .to_string(),
        format!(
            "{SOURCE}: bad parameters: {} bytes after the 167-byte description fit no \
             HalfKAv2_hm width (Stockfish 15.1's 1024-wide net has 47001412)",
            halfkp.len() - 12 - 167
        )
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn damaged_nets_load_or_give_one_error_line(
        halfka in any::<bool>(),
        changes in damage(valid()[1].len(), vec![HEADER]),
    ) {
        check(&damaged(&valid()[usize::from(halfka)], &changes))?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        check(&bytes)?;
    }

    #[test]
    fn either_version_word_before_arbitrary_bytes_never_panics(
        halfka in any::<bool>(),
        tail in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let bytes = [&valid()[usize::from(halfka)][..4], &tail[..]].concat();
        check(&bytes)?;
    }
}

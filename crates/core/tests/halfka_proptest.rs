//! Property tests of the Stockfish 15.1 (HalfKAv2_hm) `.nnue` reader, which CI
//! runs in place of the fuzz target `fuzz/fuzz_targets/load_halfka_network.rs`.
//! The layout admits any width that is a multiple of 64, so a random 64-wide net
//! (3.6 MB, built once in memory) stands in for 15.1's 47 MB one: damaged copies
//! (flipped bytes, overwritten length fields and hashes, cuts, extra bytes) must
//! load or give one error line naming the file, never panic; a copy that loads
//! writes back to the same bytes and evaluates positions of every layer stack.

use std::sync::OnceLock;

use nnue_core::nnue::halfka::shape::{Shape, STACKS};
use nnue_core::nnue::halfka::{random_halfka_network, HalfKaNetwork};
use nnue_core::nnue::Kernel;
use nnue_test_support::damage::{check_error_line, damage, damaged};
use nnue_test_support::position;
use proptest::prelude::*;
use shakmaty::Position;

/// The name the reader is given for the damaged bytes.
const SOURCE: &str = "damaged-halfka.nnue";
/// The narrowest width the layout admits.
const WIDTH: usize = 64;
/// Positions whose piece counts pick stacks 7, 3 and 0.
const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 0 1",
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
];

/// The valid net's bytes and where its hashes and length fields are.
fn valid() -> &'static (Vec<u8>, Vec<std::ops::Range<usize>>) {
    static NET: OnceLock<(Vec<u8>, Vec<std::ops::Range<usize>>)> = OnceLock::new();
    NET.get_or_init(|| {
        let shape = Shape { width: WIDTH };
        let net = random_halfka_network(shape, 7);
        let bytes = net.to_bytes();
        // Version, file hash, description length, description, transformer hash.
        let header = 12 + net.description.len() + 4;
        let stacks_start = bytes.len() - STACKS * shape.stack_len();
        let stack_hashes = (0..STACKS).map(|s| {
            let at = stacks_start + s * shape.stack_len();
            at..at + 4
        });
        let hot = std::iter::once(0..header).chain(stack_hashes).collect();
        (bytes, hot)
    })
}

/// Loads `bytes`: an error is one line naming the file; a net writes back to
/// `bytes` and evaluates every position with every kernel alike.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match HalfKaNetwork::from_bytes(bytes, SOURCE) {
        Err(e) => check_error_line(&e.to_string(), SOURCE)?,
        Ok(net) => {
            prop_assert!(net.to_bytes() == bytes, "a loaded net writes back");
            for fen in FENS {
                let pos = position(fen);
                let values: Vec<i32> = Kernel::available()
                    .into_iter()
                    .map(|k| net.evaluate_board(k, pos.board(), pos.turn()).value())
                    .collect();
                prop_assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
            }
        }
    }
    Ok(())
}

#[test]
fn the_valid_net_loads() {
    let (bytes, _) = valid();
    assert_eq!(bytes.len(), 12 + 30 + Shape { width: WIDTH }.body_len());
    let net = HalfKaNetwork::from_bytes(bytes, SOURCE).unwrap();
    assert!(net.to_bytes() == *bytes);
}

/// Regression inputs: the header alone, a description length past the end, a
/// body one byte short.
#[test]
fn cut_nets_are_one_line_errors() {
    let (bytes, _) = valid();
    let body = Shape { width: WIDTH }.body_len();
    let cases = [
        (
            bytes[..12].to_vec(),
            "damaged-halfka.nnue: truncated: description needs bytes 12..42 but the file has 12 \
             bytes"
                .to_string(),
        ),
        (
            [&bytes[..8], &u32::MAX.to_le_bytes()[..], &bytes[12..]].concat(),
            format!(
                "damaged-halfka.nnue: truncated: description needs bytes 12..4294967307 but the \
                 file has {} bytes",
                bytes.len()
            ),
        ),
        (
            bytes[..bytes.len() - 1].to_vec(),
            format!(
                "damaged-halfka.nnue: bad parameters: {} bytes after the 30-byte description fit \
                 no HalfKAv2_hm width (Stockfish 15.1's 1024-wide net has 47001412)",
                body - 1
            ),
        ),
    ];
    for (input, expected) in cases {
        let error = HalfKaNetwork::from_bytes(&input, SOURCE).unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn damaged_nets_load_or_give_one_error_line(
        changes in damage(valid().0.len(), valid().1.clone())
    ) {
        check(&damaged(&valid().0, &changes))?;
    }

    #[test]
    fn arbitrary_bytes_after_the_version_never_panic(
        tail in prop::collection::vec(any::<u8>(), 0..256)
    ) {
        let bytes = [&valid().0[..4], &tail[..]].concat();
        check(&bytes)?;
    }
}

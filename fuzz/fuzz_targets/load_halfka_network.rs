//! Any bytes given as a Stockfish 15.1 (HalfKAv2_hm) `.nnue` file must load or
//! give one error line naming it, never panic; a net that loads writes back to
//! the same bytes and evaluates alike with every kernel. The layout's smallest
//! net is 3.6 MB, so an odd first byte makes the rest a list of changes
//! (`Damage::decode`) to a random 64-wide net built once; an even one makes the
//! rest the file. CI runs `crates/core/tests/halfka_proptest.rs` instead.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nnue_core::nnue::halfka::{random_halfka_network, HalfKaNetwork, Shape};
use nnue_core::nnue::Kernel;
use nnue_test_support::fuzz::{assert_error_line, fuzz_input};
use shakmaty::{Chess, Position};

const SOURCE: &str = "fuzz-halfka.nnue";

fn valid() -> &'static [u8] {
    static NET: OnceLock<Vec<u8>> = OnceLock::new();
    NET.get_or_init(|| random_halfka_network(Shape { width: 64 }, 7).to_bytes())
}

fuzz_target!(|data: &[u8]| {
    let Some(bytes) = fuzz_input(data, &[valid()]) else {
        return;
    };
    match HalfKaNetwork::from_bytes(&bytes, SOURCE) {
        Err(e) => assert_error_line(&e.to_string(), SOURCE),
        Ok(net) => {
            assert!(net.to_bytes() == bytes, "a loaded net writes back");
            let pos = Chess::default();
            let values: Vec<i32> = Kernel::available()
                .into_iter()
                .map(|k| net.evaluate_board(k, pos.board(), pos.turn()).value())
                .collect();
            assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
        }
    }
});

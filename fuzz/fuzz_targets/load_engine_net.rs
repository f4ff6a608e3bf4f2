//! Any bytes given to the engine as `EvalFile` (`LoadedNet::from_bytes`, which
//! picks the HalfKP-era or the Stockfish 15.1 reader by the version word) must
//! load or give one error line naming the file, never panic; a net that loads
//! writes back to the same bytes and evaluates. The first byte: even, the rest
//! is the file; odd, the rest is a list of changes (`Damage::decode`) to a
//! random HalfKP 32x2-8-8 net (byte & 2 clear) or 64-wide HalfKAv2_hm net
//! (set). CI runs `crates/engine/tests/net_proptest.rs` instead.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_engine::eval::net::LoadedNet;
use nnue_test_support::eval_files;
use nnue_test_support::fuzz::{assert_error_line, fuzz_input};
use shakmaty::Chess;

const SOURCE: &str = "fuzz-eval-file.nnue";

fuzz_target!(|data: &[u8]| {
    let [halfkp, halfka] = eval_files();
    let Some(bytes) = fuzz_input(data, &[halfkp, halfka]) else {
        return;
    };
    match LoadedNet::from_bytes(&bytes, SOURCE) {
        Err(e) => assert_error_line(&e.to_string(), SOURCE),
        Ok(net) => {
            let written = match &net {
                LoadedNet::HalfKp(n) => n.to_bytes(),
                LoadedNet::HalfKa(n) => n.to_bytes(),
            };
            assert!(written == bytes, "a loaded net writes back");
            let _ = net.raw_value(&Chess::default());
        }
    }
});

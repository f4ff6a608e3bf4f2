//! Any bytes given as a `.nnue` file must load or give an error, never panic; a net
//! that loads must write back to the same bytes and evaluate without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_core::nnue::Network;

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Network::from_bytes(data, "fuzz input") {
        assert_eq!(net.to_bytes(), data);
        let _ = nnue_core::nnue::evaluate(&net, &shakmaty::Chess::default());
    }
});

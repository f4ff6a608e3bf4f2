//! Any bytes given to the engine as `EvalFile` (`LoadedNet::from_bytes`, which
//! picks the HalfKP-era or the Stockfish 15.1 reader by the version word) must
//! load or give one error line naming the file, never panic; a net that loads
//! writes back to the same bytes and evaluates. The first byte: even, the rest
//! is the file; odd, the rest is a list of changes (`Damage::decode`) to a
//! random HalfKP 32x2-8-8 net (byte & 2 clear) or 64-wide HalfKAv2_hm net
//! (set). CI runs `crates/engine/tests/net_proptest.rs` instead.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nnue_core::nnue::halfka::{random_halfka_network, Shape};
use nnue_core::nnue::{random_network, Architecture};
use nnue_engine::eval::net::LoadedNet;
use nnue_test_support::damage::{damaged, Damage};
use shakmaty::Chess;

const SOURCE: &str = "fuzz-eval-file.nnue";

fn valid() -> &'static [Vec<u8>; 2] {
    static NETS: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    NETS.get_or_init(|| {
        let arch = Architecture::new("HalfKP", 32, &[8, 8]).expect("a valid architecture");
        let halfkp = random_network(&arch, 3).expect("a random net").to_bytes();
        let halfka = random_halfka_network(Shape { width: 64 }, 3).to_bytes();
        [halfkp, halfka]
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode % 2 == 1 {
        let valid = &valid()[usize::from(mode & 2 != 0)];
        damaged(valid, &Damage::decode(rest))
    } else {
        rest.to_vec()
    };
    match LoadedNet::from_bytes(&bytes, SOURCE) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains(SOURCE) && !text.contains(['\n', '\r']),
                "{text}"
            );
        }
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

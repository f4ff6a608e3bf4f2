//! The valid `EvalFile`s the engine's reader is tested and fuzzed with
//! (`crates/engine/tests/net_proptest.rs`, `fuzz/fuzz_targets/load_engine_net.rs`).

use std::sync::OnceLock;

use nnue_core::nnue::halfka::{random_halfka_network, Shape};
use nnue_core::nnue::{random_network, Architecture};

/// A random net of each kind the engine reads, built once: HalfKP-era
/// (`HalfKP 32x2-8-8`) first, HalfKAv2_hm (64 wide, the narrowest its layout
/// admits) second.
pub fn eval_files() -> &'static [Vec<u8>; 2] {
    static NETS: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    NETS.get_or_init(|| {
        let arch = Architecture::new("HalfKP", 32, &[8, 8]).expect("a valid architecture");
        let halfkp = random_network(&arch, 3).expect("a random net").to_bytes();
        let halfka = random_halfka_network(Shape { width: 64 }, 3).to_bytes();
        [halfkp, halfka]
    })
}

//! Perft against the published counts of the chessprogramming wiki "Perft Results" page.

use nnue_engine::perft::{divide, perft};
use nnue_test_support::position;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn startpos_depth_1_to_5() {
    let p = position(START);
    let expected = [20, 400, 8_902, 197_281, 4_865_609];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn kiwipete_depth_1_to_5() {
    let p = position(KIWIPETE);
    let expected = [48, 2_039, 97_862, 4_085_603, 193_690_690];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position3_depth_1_to_5() {
    let p = position(POS3);
    let expected = [14, 191, 2_812, 43_238, 674_624];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position4_depth_1_to_5() {
    let p = position(POS4);
    let expected = [6, 264, 9_467, 422_333, 15_833_292];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position5_depth_1_to_5() {
    let p = position(POS5);
    let expected = [44, 1_486, 62_379, 2_103_487, 89_941_194];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn position6_depth_1_to_5() {
    let p = position(POS6);
    let expected = [46, 2_079, 89_890, 3_894_594, 164_075_551];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

/// Divide lines sum to the total and cover every root move exactly once.
#[test]
fn divide_sums_to_perft() {
    let p = position(KIWIPETE);
    let lines = divide(&p, 3);
    assert_eq!(lines.len(), 48);
    assert_eq!(lines.iter().map(|e| e.nodes).sum::<u64>(), 97_862);
    let e1g1 = lines
        .iter()
        .find(|e| e.uci() == "e1g1")
        .expect("castling listed");
    assert_eq!(e1g1.nodes, 2_059);
}

/// Deeper counts take tens of seconds in a test build; run with `cargo test -- --ignored`.
#[test]
#[ignore = "slow: depth 6/7 counts (~30 s)"]
fn deep_counts() {
    assert_eq!(perft(&position(START), 6), 119_060_324);
    assert_eq!(perft(&position(POS3), 7), 178_633_661);
    assert_eq!(perft(&position(POS4), 6), 706_045_033);
}

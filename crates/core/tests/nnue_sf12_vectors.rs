//! Stockfish 12 exactness: our random HalfKP net is byte-identical to the one the
//! reference Python tool writes, and our raw evaluations equal Stockfish 12's
//! (tests/data/sf12_random_halfkp_evals.tsv).

use std::sync::Arc;

use nnue_core::nnue::sha256::sha256_hex;
use nnue_core::nnue::{evaluate, random_network, AccumulatorStack, Architecture, Kernel, Network};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use nnue_test_support::test_data_text;

/// `(fen, white view, side-to-move view)` rows and the net's sha256 from the header.
fn vectors() -> (Vec<(String, i32, i32)>, String) {
    let text = test_data_text("sf12_random_halfkp_evals.tsv");
    let sha = text
        .lines()
        .find_map(|l| l.split("sha256 ").nth(1))
        .map(|s| s.trim_end_matches(')').trim().to_string())
        .expect("sha256 in the header");
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad row {l:?}");
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect();
    (rows, sha)
}

fn sf12_net() -> Network {
    random_network(&Architecture::halfkp_256(), 20201002).unwrap()
}

#[test]
fn random_net_matches_python_tool_and_stockfish_12() {
    let (rows, sha) = vectors();
    assert_eq!(rows.len(), 10);
    let net = sf12_net();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 21_022_697);
    assert_eq!(
        sha256_hex(&bytes),
        sha,
        "our generator differs from make_random_halfkp.py"
    );

    let net = Arc::new(Network::from_bytes(&bytes, "random_halfkp.nnue").unwrap());
    for (fen, white, stm) in &rows {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let value = evaluate(&net, &pos);
        assert_eq!(value, *stm, "{fen}: side-to-move value");
        let white_view = if pos.turn() == Color::White {
            value
        } else {
            -value
        };
        assert_eq!(white_view, *white, "{fen}: white value");
        for kernel in Kernel::available() {
            assert_eq!(
                net.evaluate_board(kernel, pos.board(), pos.turn()),
                *stm,
                "{fen} {kernel:?}"
            );
            let mut stack = AccumulatorStack::with_kernel(Arc::clone(&net), kernel);
            stack.reset(&pos);
            assert_eq!(stack.evaluate(&pos), *stm, "{fen} stack {kernel:?}");
        }
    }
}

#[test]
fn sha256_known_digests() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

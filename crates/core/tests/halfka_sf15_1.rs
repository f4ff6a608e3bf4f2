//! Stockfish 15.1 exactness for HalfKAv2_hm nets.
//!
//! With Debian's Stockfish 15.1 installed, its net is exported at test time and
//! our raw evaluations must equal those of a 15.1 build on the 512 positions of
//! `tests/data/sf15_1_nnue_evals.tsv` (provenance in `tests/data/README.md`),
//! with every SIMD kernel; the net must save back byte for byte; and the
//! incremental stack must equal full refreshes along random games. Without it
//! those tests print a one-line notice and pass. A small random net of the same
//! layout checks layout errors, kernels and the stack on every run.

use std::path::PathBuf;
use std::sync::Arc;

use nnue_core::nnue::halfka::random::Lcg;
use nnue_core::nnue::halfka::shape::STACKS;
use nnue_core::nnue::halfka::{random_halfka_network, HalfKaNetwork, HalfKaStack, Shape};
use nnue_core::nnue::sha256::sha256_hex;
use nnue_core::nnue::Kernel;
use nnue_test_support::{position, sf15_1_net, test_data_text};
use shakmaty::{Chess, Position};

/// `(fen, raw)` rows of the reference file.
fn vectors() -> Vec<(String, i32)> {
    test_data_text("sf15_1_nnue_evals.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, raw) = l.split_once('\t').expect("fen<TAB>raw");
            (fen.to_string(), raw.parse().expect("an integer raw value"))
        })
        .collect()
}

fn net_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sf15_1")
}

/// 15.1's net, or `None` after the skip notice.
fn sf15_1(test: &str) -> Option<(Vec<u8>, HalfKaNetwork)> {
    let path = sf15_1_net(&net_dir(), test)?;
    let bytes = std::fs::read(&path).expect("read the exported net");
    let net = HalfKaNetwork::from_bytes(&bytes, &path.display().to_string()).expect("15.1's net");
    Some((bytes, net))
}

#[test]
fn sf15_1_raw_values_equal_the_reference_on_every_kernel() {
    let Some((bytes, net)) = sf15_1("sf15_1_raw_values_equal_the_reference_on_every_kernel") else {
        return;
    };
    assert!(sha256_hex(&bytes).starts_with("ad9b42354671"));
    assert_eq!(net.shape(), Shape::SF15_1);
    assert_eq!(net.to_bytes(), bytes, "the net saves back byte for byte");
    let rows = vectors();
    assert_eq!(rows.len(), 512);
    let mut stacks = [0usize; STACKS];
    for kernel in Kernel::available() {
        let mut wrong = Vec::new();
        for (fen, expected) in &rows {
            let pos = position(fen);
            let got = net.evaluate_board(kernel, pos.board(), pos.turn()).value();
            if got != *expected {
                wrong.push(format!("{fen}: ours {got}, 15.1 {expected}"));
            }
            stacks[Shape::stack_of(pos.board().occupied().count())] += 1;
        }
        assert!(
            wrong.is_empty(),
            "{kernel:?}: {} of {} differ, first: {:?}",
            wrong.len(),
            rows.len(),
            &wrong[..wrong.len().min(5)]
        );
    }
    assert!(stacks.iter().all(|&n| n > 0), "every layer stack is used");
}

#[test]
fn sf15_1_incremental_equals_refresh() {
    let Some((_, net)) = sf15_1("sf15_1_incremental_equals_refresh") else {
        return;
    };
    check_incremental(&Arc::new(net), Kernel::detect(), 2, 120);
}

fn random_net(width: usize, seed: u64) -> HalfKaNetwork {
    random_halfka_network(Shape { width }, seed)
}

/// Plays `games` random games of up to `plies` plies, taking back every fifth
/// move and playing another, and checks the stack against full refreshes.
fn check_incremental(net: &Arc<HalfKaNetwork>, kernel: Kernel, games: u64, plies: usize) {
    let mut stack = HalfKaStack::with_kernel(net.clone(), kernel);
    for game in 0..games {
        let mut rng = Lcg::new(game + 7);
        let mut line = vec![Chess::default()];
        stack.reset(&line[0]);
        for ply in 0..plies {
            let pos = line.last().unwrap().clone();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 5 == 4 && line.len() > 1 {
                line.pop();
                stack.pop();
                continue;
            }
            let mv = moves[rng.next_u32() as usize % moves.len()];
            let after = pos.clone().play(mv).unwrap();
            stack.push(&pos, &mv);
            let full = net.evaluate_board(kernel, after.board(), after.turn());
            assert_eq!(stack.evaluate_raw(&after), full, "game {game} ply {ply}");
            line.push(after);
        }
    }
}

#[test]
fn random_net_saves_back_and_reads_its_shape() {
    let net = random_net(64, 1);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 12 + 30 + Shape { width: 64 }.body_len());
    let back = HalfKaNetwork::from_bytes(&bytes, "random.nnue").unwrap();
    assert_eq!(back, net);
}

#[test]
fn simd_kernels_equal_scalar_on_the_reference_positions() {
    let net = random_net(128, 2);
    for (fen, _) in vectors().iter().step_by(4) {
        let pos = position(fen);
        let scalar = net.evaluate_board(Kernel::Scalar, pos.board(), pos.turn());
        for kernel in Kernel::available() {
            let got = net.evaluate_board(kernel, pos.board(), pos.turn());
            assert_eq!(got, scalar, "{kernel:?} on {fen}");
        }
    }
}

#[test]
fn incremental_equals_refresh_on_every_kernel() {
    let net = Arc::new(random_net(64, 3));
    for kernel in Kernel::available() {
        check_incremental(&net, kernel, 3, 150);
    }
}

/// Each damaged file names the file, the field and the offset.
#[test]
fn layout_errors_are_one_clear_line() {
    let net = random_net(64, 4);
    let good = net.to_bytes();
    let err = |bytes: &[u8]| {
        HalfKaNetwork::from_bytes(bytes, "t.nnue")
            .unwrap_err()
            .to_string()
    };
    let mut bad = good.clone();
    bad[0] ^= 1;
    assert_eq!(
        err(&bad),
        "t.nnue: wrong version (Stockfish 15.1 layout) at byte offset 0: expected 0x7AF32F20, found 0x7AF32F21"
    );
    let mut bad = good.clone();
    bad[4] ^= 1;
    assert!(err(&bad).starts_with("t.nnue: wrong file hash (HalfKAv2_hm) at byte offset 4:"));
    assert_eq!(
        err(&good[..good.len() - 1]),
        format!(
            "t.nnue: bad parameters: {} bytes after the 30-byte description fit no HalfKAv2_hm width (Stockfish 15.1's 1024-wide net has {})",
            good.len() - 1 - 42,
            Shape::SF15_1.body_len()
        )
    );
    let mut bad = good.clone();
    let stack0 = 42 + 4 + 2 * 64 + 2 * 64 * 22528 + 4 * 8 * 22528;
    bad[stack0] ^= 1;
    assert!(err(&bad).starts_with(&format!(
        "t.nnue: wrong layer stack hash at byte offset {stack0}:"
    )));
    assert_eq!(
        err(&good[..10]),
        "t.nnue: truncated: description length needs bytes 8..12 but the file has 10 bytes"
    );
}

#[test]
fn stack_of_positions_with_few_pieces() {
    let pos = position("8/8/8/8/8/8/2k5/K7 w - - 0 1");
    let net = random_net(64, 5);
    let raw = net.evaluate_board(Kernel::Scalar, pos.board(), pos.turn());
    assert_eq!(Shape::stack_of(2), 0);
    assert_eq!(raw.value(), (raw.psqt + raw.positional) / 16);
}

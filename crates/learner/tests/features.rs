//! `nnue-learn features`: indices derived by hand from docs/FEATURES.md's
//! formulas, and the statistics of the Stockfish-tools sample pinned.

mod common;

use nnue_core::data::{ReaderOptions, TrainingDataReader, Validation};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `nnue-learn features ARGS`, which must succeed: its standard output.
fn features(args: &[&str]) -> String {
    let mut all = vec!["features"];
    all.extend_from_slice(args);
    let (ok, code, stdout, stderr) = common::learn(&all);
    assert!(ok, "{all:?} exited {code}: {stderr}");
    stdout
}

/// `nnue-learn features ARGS`, which must fail with a usage error: its one
/// line of standard error.
fn usage_error(args: &[&str]) -> String {
    let mut all = vec!["features"];
    all.extend_from_slice(args);
    let (ok, code, _, stderr) = common::learn(&all);
    assert!(!ok && code == 2, "{all:?} exited {code}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// All's start position, derived from `64·plane + sq`, plane = 2·role + c
/// (c = 0 own, 1 other), on the perspective's relative board (Black's view
/// flips ranks, `sq ^ 56`, and swaps colours, so the start position looks the
/// same to both sides):
///
/// * own pawns, plane 0: a2..h2 = 8..15
/// * other pawns, plane 1: 64 + a7..h7 (48..55) = 112..119
/// * own knights, plane 2: 128 + b1 (1), g1 (6) = 129, 134
/// * other knights, plane 3: 192 + b8 (57), g8 (62) = 249, 254
/// * own bishops, plane 4: 256 + c1 (2), f1 (5) = 258, 261
/// * other bishops, plane 5: 320 + c8 (58), f8 (61) = 378, 381
/// * own rooks, plane 6: 384 + a1 (0), h1 (7) = 384, 391
/// * other rooks, plane 7: 448 + a8 (56), h8 (63) = 504, 511
/// * own queen, plane 8: 512 + d1 (3) = 515; other queen, plane 9: 576 + d8 (59) = 635
/// * own king, plane 10: 640 + e1 (4) = 644; other king, plane 11: 704 + e8 (60) = 764
#[test]
fn all_on_the_start_position_is_the_hand_derived_list() {
    let expected = "8,9,10,11,12,13,14,15,112,113,114,115,116,117,118,119,\
                    129,134,249,254,258,261,378,381,384,391,504,511,515,635,644,764";
    assert_eq!(
        features(&["--feature-set", "All", "--fen", START]),
        format!("white: {expected}\nblack: {expected}\n")
    );
}

#[test]
fn mc_has_twelve_features_per_perspective() {
    let out = features(&["--feature-set", "MC", "--fen", START]);
    // docs/FEATURES.md lists them: pawns m = 8, knights m = 4, the rest 0.
    let list = "16,17,26,27,50,51,84,85,136,137,188,189";
    assert_eq!(out, format!("white: {list}\nblack: {list}\n"));
    // No active feature: the label alone (no trailing space).
    let bare_kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        features(&["--feature-set", "PH", "--fen", bare_kings]),
        "white:\nblack:\n"
    );
}

/// e2e4 for All: White sees its own pawn (plane 0) leave e2 (12) for e4 (28).
/// Black sees an other pawn (plane 1, +64) on flipped squares: e2 (12 ^ 56 =
/// 52) -> 116 off, e4 (28 ^ 56 = 36) -> 100 on.
#[test]
fn e2e4_moves_one_all_feature_per_perspective() {
    assert_eq!(
        features(&["--feature-set", "All", "--fen", START, "--changed", "e2e4"]),
        "white removed: 12\nwhite added: 28\nblack removed: 116\nblack added: 100\n"
    );
}

/// HalfKP indexes by the own king's square, so White's king move rebuilds
/// White's half; Black's HalfKP has no feature for White's king.
#[test]
fn a_king_move_refreshes_the_movers_halfkp() {
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(
        features(&["--feature-set", "HalfKP", "--fen", fen, "--changed", "e1e2"]),
        "white: refresh\nblack removed:\nblack added:\n"
    );
}

/// The sample's mean number of pieces (kings included), read independently.
fn mean_pieces() -> f64 {
    let reader = TrainingDataReader::open(common::sample_bin(), ReaderOptions::default()).unwrap();
    let (mut pieces, mut positions) = (0u64, 0u64);
    for record in reader.records(Validation::Fast).unwrap() {
        pieces += u64::from(record.unwrap().record.position.board.occupied().count() as u32);
        positions += 1;
    }
    pieces as f64 / positions as f64
}

/// All has one feature per piece, so its active count per position is the
/// sample's mean piece count; a quiet move moves one feature, a capture also
/// removes one, so about 1 added and a little more removed per move. The 3000
/// records hold 87 games (2913 moves lead to the next record).
#[test]
fn statistics_of_all_on_the_sample() {
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    let text = features(&["--feature-set", "All", "--data", d]);
    assert_eq!(
        text,
        "feature set:          All\ninputs:               768\npositions:            3000\nmoves:                2913\nactive per position:  16.038\nadded per move:       1.009\nremoved per move:     1.195\nrefresh rate:         0.0000\n"
    );
    let json = features(&["--feature-set", "All", "--data", d, "--json"]);
    let expected = "{\"feature_set\": \"All\", \"inputs\": 768, \"positions\": 3000, \"moves\": 2913, \"active_per_position\": 16.037667, \"added_per_move\": 1.008926, \"removed_per_move\": 1.195331, \"refresh_rate\": 0.000000}\n";
    assert_eq!(json, expected);
    assert!((mean_pieces() - 16.037667).abs() < 1e-6);
    // The .binpack and .plain copies hold the same games.
    for ext in ["binpack", "plain"] {
        let other = common::sample(ext);
        let o = other.to_str().unwrap();
        assert_eq!(
            features(&["--feature-set", "All", "--data", o, "--json"]),
            expected
        );
    }
}

/// HalfKP: All without the two kings, and a refresh for every king move.
#[test]
fn statistics_of_halfkp_and_a_capped_count() {
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    assert_eq!(
        features(&["--feature-set", "HalfKP", "--data", d, "--json"]),
        "{\"feature_set\": \"HalfKP\", \"inputs\": 41024, \"positions\": 3000, \"moves\": 2913, \"active_per_position\": 14.037667, \"added_per_move\": 1.816684, \"removed_per_move\": 2.003090, \"refresh_rate\": 0.116203}\n"
    );
    let capped = features(&["--feature-set", "All", "--data", d, "--count", "100"]);
    assert!(
        capped.contains("positions:            100\nmoves:                96\n"),
        "{capped}"
    );
}

#[test]
fn bad_input_is_a_usage_error_naming_it() {
    let e = usage_error(&["--feature-set", "All", "--fen", "not a fen"]);
    assert_eq!(
        e,
        "nnue-learn: error: --fen 'not a fen': not a FEN: invalid board part in fen\n"
    );
    let e = usage_error(&["--feature-set", "All", "--fen", START, "--changed", "e2e5"]);
    assert_eq!(
        e,
        format!("nnue-learn: error: --changed 'e2e5': not a legal move in '{START}'\n")
    );
    let e = usage_error(&["--feature-set", "All", "--fen", START, "--changed", "xyz"]);
    assert!(e.contains("--changed 'xyz': not a legal move"), "{e}");
    let e = usage_error(&["--feature-set", "Foo", "--fen", START]);
    assert!(
        e.starts_with("nnue-learn: error: feature set 'Foo': unknown block 'Foo'"),
        "{e}"
    );
    let e = usage_error(&["--feature-set", "All"]);
    assert!(e.contains("--fen <FEN>|--data <DATA>"), "{e}");
    let e = usage_error(&["--feature-set", "All", "--fen", START, "--json"]);
    assert!(e.contains("cannot be used with"), "{e}");
}

#[test]
fn missing_data_is_a_failure_naming_the_file() {
    let dir = common::temp_dir("features");
    let missing = dir.join("missing.bin");
    let m = missing.to_str().unwrap();
    let (ok, code, _, stderr) = common::learn(&["features", "--feature-set", "All", "--data", m]);
    assert!(!ok && code == 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("nnue-learn: error: {m}:")),
        "{stderr}"
    );
}

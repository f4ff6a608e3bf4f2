//! Feature-set sizes, names, the grammar, and Stockfish 12 HalfKP index examples
//! (formats.md 5.1).

use nnue_core::features::{halfkp::HalfKp, FeatureSet};
use shakmaty::{Board, Color, Piece, Role, Square};

#[test]
fn sizes_match_the_thesis() {
    let expected = [
        ("All", 768),
        ("H", 96),
        ("V", 96),
        ("D1", 180),
        ("D2", 180),
        ("PH", 1152),
        ("PV", 1152),
        ("MB", 768),
        ("King-All", 49152),
        ("K*All", 49152),
        ("HalfKP", 41024),
        ("K", 64),
        ("MC", 206),
        ("MBp", 768),
        ("MCp", 160),
        ("T", 9216),
        ("KAm4", 4 * 768),
        ("KAm8", 8 * 768),
        ("HalfKAv2_hm", 32 * 704),
        ("All+H+V", 960),
        ("K*(H+V)", 64 * 192),
    ];
    for (spec, size) in expected {
        assert_eq!(FeatureSet::parse(spec).unwrap().size(), size, "{spec}");
    }
}

#[test]
fn names_are_canonical() {
    for (spec, name) in [
        (" All + H +V ", "All+H+V"),
        ("(All)", "All"),
        ("K*(H+V)", "K*(H+V)"),
        ("King-All+MC", "King-All+MC"),
        ("(All+H)+V", "All+H+V"),
    ] {
        assert_eq!(FeatureSet::parse(spec).unwrap().name(), name, "{spec}");
        // A canonical name parses back to itself.
        assert_eq!(FeatureSet::parse(name).unwrap().name(), name);
    }
}

#[test]
fn bad_names_are_errors_that_say_where() {
    for (spec, needle) in [
        ("", "expected a block name"),
        ("All+", "expected a block name"),
        ("Al", "unknown block 'Al'"),
        ("All+(H", "expected ')'"),
        ("All)", "unexpected trailing text"),
        ("All/H", "unexpected trailing text"),
        ("K*K*K*K*K*K*All", "too many features"),
    ] {
        let err = FeatureSet::parse(spec).unwrap_err().to_string();
        assert!(err.contains(needle), "{spec:?}: {err}");
        assert!(err.contains(&format!("'{spec}'")), "{err}");
    }
}

#[test]
fn sum_offsets_and_product_indices() {
    let board = Board::new();
    let all = FeatureSet::parse("All").unwrap();
    let h = FeatureSet::parse("H").unwrap();
    let sum = FeatureSet::parse("All+H").unwrap();
    let mut expected = all.active_sorted(&board, Color::White);
    expected.extend(
        h.active_sorted(&board, Color::White)
            .iter()
            .map(|i| i + 768),
    );
    expected.sort_unstable();
    assert_eq!(sum.active_sorted(&board, Color::White), expected);

    // King-All: own king square (flipped) × All.
    let king_all = FeatureSet::parse("King-All").unwrap();
    let black = king_all.active_sorted(&board, Color::Black);
    // Black king e8 -> e1 (4) after the flip.
    let all_black = all.active_sorted(&board, Color::Black);
    let expected: Vec<u32> = all_black.iter().map(|i| 4 * 768 + i).collect();
    assert_eq!(black, expected);
}

#[test]
fn halfkp_examples_from_formats_md() {
    let wp = Piece {
        color: Color::White,
        role: Role::Pawn,
    };
    let bp = Piece {
        color: Color::Black,
        role: Role::Pawn,
    };
    assert_eq!(
        HalfKp::index(Color::White, Square::E1, wp, Square::A2),
        2573
    );
    assert_eq!(
        HalfKp::index(Color::Black, Square::E8, bp, Square::E7),
        1935
    );
    assert_eq!(
        HalfKp::index(Color::Black, Square::E8, wp, Square::E2),
        2039
    );

    let set = FeatureSet::parse("HalfKP").unwrap();
    let board = Board::new();
    for (perspective, sum) in [(Color::White, 82950u32), (Color::Black, 63722)] {
        let active = set.active_sorted(&board, perspective);
        assert_eq!(active.len(), 30);
        assert_eq!(active.iter().sum::<u32>(), sum, "{perspective:?}");
    }
}

#[test]
fn perspectives_mirror_with_colours_swapped() {
    // The black perspective of a position equals the white perspective of the
    // mirrored position with colours swapped (flip for thesis sets).
    let fen: shakmaty::fen::Fen =
        "r1bqk2r/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 1"
            .parse()
            .unwrap();
    let board = fen.as_setup().board.clone();
    let mut mirrored = board.clone();
    mirrored.flip_vertical();
    mirrored.swap_colors();
    for spec in [
        "All", "H", "V", "D1", "D2", "PH", "PV", "MB", "MC", "MBp", "MCp", "T", "King-All",
    ] {
        let set = FeatureSet::parse(spec).unwrap();
        assert_eq!(
            set.active_sorted(&board, Color::Black),
            set.active_sorted(&mirrored, Color::White),
            "{spec}"
        );
        assert!(!set.active_sorted(&board, Color::White).is_empty());
    }
    // HalfKP rotates instead.
    let mut rotated = board.clone();
    rotated.rotate_180();
    rotated.swap_colors();
    let set = FeatureSet::parse("HalfKP").unwrap();
    assert_eq!(
        set.active_sorted(&board, Color::Black),
        set.active_sorted(&rotated, Color::White)
    );
}

#[test]
fn thesis_blocks_on_the_start_position() {
    let board = Board::new();
    let count = |spec: &str| {
        FeatureSet::parse(spec)
            .unwrap()
            .active_sorted(&board, Color::White)
            .len()
    };
    assert_eq!(count("All"), 32);
    // Ranks 1, 2, 7, 8: rank 1 has 5 own planes (R N B Q K), rank 2 own pawn,
    // rank 7 their pawn, rank 8 their 5 planes.
    assert_eq!(count("H"), 12);
    // Every file has own pawn and their pawn, plus the back-rank piece of each
    // side: 4 planes per file, but planes repeat across files only once per file.
    assert_eq!(count("V"), 8 * 4);
    // Pairs along ranks: 7 neighbour pairs on each of ranks 1, 2, 7, 8, deduplicated:
    // rank 1: RN NB BQ QK KB BN NR (7 distinct); rank 2: PP (1); rank 7 pp; rank 8 7.
    assert_eq!(count("PH"), 16);
    // Along files: own pawn-piece pair (rank1→rank2), own pawn-their pawn (rank 2→7),
    // their pawn-their piece, per file; planes: a,h rook; b,g knight; c,f bishop; d q; e k.
    // Distinct (file, pair) features: 8 files × 3 pairs = 24.
    assert_eq!(count("PV"), 24);
    // Pseudo-legal mobility at the start: own pawns have 2 moves (16 destinations
    // a3..h4), knights 2 each; the same for the opponent.
    let mb = FeatureSet::parse("MBp")
        .unwrap()
        .active_sorted(&board, Color::White);
    assert_eq!(mb.len(), 2 * (16 + 4));
    // Counts: pawns 2, knights 2, every other piece 0, for both colours.
    let mc = FeatureSet::parse("MCp")
        .unwrap()
        .active_sorted(&board, Color::White);
    assert_eq!(mc.len(), 2 * 6);
    // The thesis' MB: single steps only, 2 × (8 + 4); MC one feature per
    // (role, colour) (hand counts in tests/features_thesis.rs).
    assert_eq!(count("MB"), 2 * (8 + 4));
    assert_eq!(count("MC"), 12);
}

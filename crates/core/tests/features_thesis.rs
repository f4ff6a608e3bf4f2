//! The thesis' mobility blocks (MB, MC), threats (T) and the mirrored king-bucketed
//! All (KAm4, KAm8) on positions counted by hand.

use nnue_core::features::FeatureSet;
use shakmaty::fen::Fen;
use shakmaty::{Board, Color};

fn board(fen: &str) -> Board {
    fen.parse::<Fen>().unwrap().as_setup().board.clone()
}

fn active(spec: &str, board: &Board, perspective: Color) -> Vec<u32> {
    FeatureSet::parse(spec)
        .unwrap()
        .active_sorted(board, perspective)
}

/// MB index `sq * 12 + role * 2 + c`.
fn mb(sq: u32, role: u32, c: u32) -> u32 {
    sq * 12 + role * 2 + c
}

#[test]
fn mb_on_the_start_position() {
    // Own pawns: single steps only, a3..h3 (squares 16..=23). Own knights: b1 -> a3,
    // c3; g1 -> f3, h3. Theirs the same on the (identical) relative board: pawns to
    // a6..h6 (40..=47), knights to a6, c6, f6, h6. Every other piece is blocked.
    let mut expected: Vec<u32> = (16..24).map(|sq| mb(sq, 0, 0)).collect();
    expected.extend((40..48).map(|sq| mb(sq, 0, 1)));
    expected.extend([16, 18, 21, 23].map(|sq| mb(sq, 1, 0)));
    expected.extend([40, 42, 45, 47].map(|sq| mb(sq, 1, 1)));
    expected.sort_unstable();
    for perspective in [Color::White, Color::Black] {
        assert_eq!(active("MB", &Board::new(), perspective), expected);
    }
    // The pseudo-legal variant counts double steps: 2 × (16 + 4) squares.
    assert_eq!(active("MBp", &Board::new(), Color::White).len(), 40);
}

#[test]
fn mc_on_the_start_position() {
    // (offset[role] + min(m, cap[role])) * 2 + c, offsets 0, 9, 25, 42, 68, 94:
    // pawns m = 8 (cap 8) -> 16, 17; knights m = 4 -> 26, 27; bishops, rooks,
    // queens, kings m = 0 -> 50, 51, 84, 85, 136, 137, 188, 189.
    let expected = [16, 17, 26, 27, 50, 51, 84, 85, 136, 137, 188, 189];
    for perspective in [Color::White, Color::Black] {
        assert_eq!(active("MC", &Board::new(), perspective), expected);
    }
}

/// White: king e1, knight e2 pinned by the black rook e4; Black: king e8.
const PIN: &str = "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1";

#[test]
fn mobility_keeps_only_king_safe_squares() {
    let b = board(PIN);
    // Own knight e2: all six squares leave the king in check -> m = 0.
    // Own king e1: d1, d2, f1, f2 (e2 is its own knight) -> 4.
    // Their rook e4: e5, e6, e7 (e8 is their king), e3, e2 (takes the knight), and
    // a4..d4, f4..h4 -> 12. Their king e8: d8, f8, d7, e7, f7 -> 5.
    // Indices: own N (9 + 0) * 2 = 18, own K (94 + 4) * 2 = 196, their R
    // (42 + 12) * 2 + 1 = 109, their K (94 + 5) * 2 + 1 = 199; the empty kinds
    // P 0, 1; N (theirs) 19; B 50, 51; R (own) 84; Q 136, 137.
    assert_eq!(
        active("MC", &b, Color::White),
        [0, 1, 18, 19, 50, 51, 84, 109, 136, 137, 196, 199]
    );
    let mut expected: Vec<u32> = [3, 11, 5, 13].map(|sq| mb(sq, 5, 0)).to_vec();
    expected.extend([36, 44, 52, 20, 12, 24, 25, 26, 27, 29, 30, 31].map(|sq| mb(sq, 3, 1)));
    expected.extend([59, 61, 51, 52, 53].map(|sq| mb(sq, 5, 1)));
    expected.sort_unstable();
    assert_eq!(active("MB", &b, Color::White), expected);
    // The pseudo-legal variant lets the pinned knight move (MBp: 64 * plane + sq,
    // own knights are plane 2).
    assert!(active("MBp", &b, Color::White)
        .iter()
        .any(|&i| (128..192).contains(&i)));
}

#[test]
fn mc_has_twelve_features_in_every_position() {
    for fen in [
        PIN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        let b = board(fen);
        for perspective in [Color::White, Color::Black] {
            let list = active("MC", &b, perspective);
            assert_eq!(list.len(), 12, "{fen}");
            // One per (role, colour): the parities alternate by colour within a role.
            assert!(list.iter().all(|&i| i < 206));
        }
    }
}

/// White: king e1, rook d1, knight e4; Black: king e8, pawn d5.
const THREATS: &str = "4k3/8/8/3p4/4N3/8/8/3RK3 w - - 0 1";

/// T index `(12 * plane(attacker) + plane(attacked)) * 64 + sq`, plane = 2 role + c.
fn t(attacker: u32, attacked: u32, sq: u32) -> u32 {
    (12 * attacker + attacked) * 64 + sq
}

#[test]
fn threats_on_a_small_position() {
    let b = board(THREATS);
    // White's view. Pawn d5 (their P, plane 1) attacks the knight e4 (own N, 2) on
    // e4 = 28. Rook d1 (own R, 6) attacks the pawn d5 (35) up the open d-file and
    // the own king e1 (own K, 10; square 4). King e1 attacks the rook d1 (3). The
    // knight's squares c3 c5 d2 d6 f2 f6 g3 g5 and the kings' other neighbours are
    // empty.
    let white = [t(1, 2, 28), t(6, 1, 35), t(6, 10, 4), t(10, 6, 3)];
    assert_eq!(active("T", &b, Color::White), white);
    // Black's view (ranks flipped, colours swapped): own pawn d4 (plane 0) attacks
    // their knight e5 (3; 36); their rook d8 (7) attacks the own pawn d4 (27) and
    // their king e8 (11; 60); their king attacks their rook d8 (59).
    let mut black = vec![t(0, 3, 36), t(7, 0, 27), t(7, 11, 60), t(11, 7, 59)];
    black.sort_unstable();
    assert_eq!(active("T", &b, Color::Black), black);
    // Two attackers of one kind on one piece make one feature: the knights c2 and
    // e2 both attack the pawn d4 (27).
    let b = board("4k3/8/8/8/3p4/8/2N1N3/4K3 w - - 0 1");
    let list = active("T", &b, Color::White);
    let knight_on_pawn: Vec<u32> = list
        .iter()
        .copied()
        .filter(|&i| i / 64 == 12 * 2 + 1)
        .collect();
    assert_eq!(knight_on_pawn, [t(2, 1, 27)]);
}

#[test]
fn mirrored_king_buckets() {
    // White's king on g1 (file g = 6): mirrored to b1, bucket 0 (KAm8: rank 1-2,
    // files a-b). A white pawn on h2 (15) mirrors to a2 (8): 64 * 0 + 8.
    let b = board("4k3/8/8/8/8/8/7P/6K1 w - - 0 1");
    let w8 = active("KAm8", &b, Color::White);
    assert!(w8.contains(&8), "{w8:?}");
    // The own king itself: b1 = 1 on plane 10.
    assert!(w8.contains(&(64 * 10 + 1)));
    // Black's king e8: relative e1, files e-h, mirrored to d1: bucket 1 (file group
    // c-d) in both KAm4 and KAm8; the white pawn h2 is "their" pawn on h7 (55),
    // mirrored a7 (48): 768 + 64 * 1 + 48.
    assert!(active("KAm8", &b, Color::Black).contains(&(768 + 64 + 48)));
    assert!(active("KAm4", &b, Color::Black).contains(&(768 + 64 + 48)));
    // A king on c5 (rank 5, file c): KAm8 bucket 2 * 2 + 1 = 5, KAm4 2 * 1 + 1 = 3.
    let b = board("4k3/8/8/2K5/8/8/8/8 w - - 0 1");
    let king = 64 * 10 + 34;
    assert!(active("KAm8", &b, Color::White).contains(&(5 * 768 + king)));
    assert!(active("KAm4", &b, Color::White).contains(&(3 * 768 + king)));
}

#[test]
fn sizes_and_names_round_trip() {
    for (spec, size) in [
        ("MB", 768),
        ("MC", 206),
        ("MBp", 768),
        ("MCp", 160),
        ("T", 9216),
        ("KAm4", 3072),
        ("KAm8", 6144),
        ("All+MB", 1536),
        ("All+MC", 974),
        ("All+T", 768 + 9216),
        ("KAm8+T", 6144 + 9216),
    ] {
        let set = FeatureSet::parse(spec).unwrap();
        assert_eq!(set.size(), size, "{spec}");
        assert_eq!(set.name(), spec);
        assert_eq!(FeatureSet::parse(set.name()).unwrap().size(), size);
    }
}

#[test]
fn pairs_follow_the_thesis_index() {
    // line * 144 + role1 * 24 + c1 * 12 + role2 * 2 + c2, first piece the one nearer
    // a (ranks) or the own back rank (files). Start position, White: on the a-file
    // the own rook a1 is followed by the own pawn a2: 0 * 144 + 3 * 24 + 0 + 0 + 0.
    let start = Board::new();
    assert!(active("PV", &start, Color::White).contains(&72));
    // Along rank 1 the own king e1 is followed by the own bishop f1: 0 * 144 +
    // 5 * 24 + 0 * 12 + 2 * 2 + 0 = 124.
    assert!(active("PH", &start, Color::White).contains(&124));
    // Counted by hand, a position from the thesis code's tests. Files: a 3 pieces
    // -> 2 pairs, b 1, c 3, d 4, e 3, f 3, g 4, h 0 = 20 pairs, all different
    // features. Ranks: 8: 3, 7: 3, 6: 5, 5: 0, 4: 2, 3: 0, 2: 4, 1: 4 = 21 pairs,
    // but rank 7's three pawn-pawn pairs are one feature and rank 2's four another
    // (a feature is on while its count is above zero): 21 - 2 - 3 = 16.
    let b = board("r2b1rk1/3p1ppp/ppnqp1P1/2p5/2P1Q1P1/8/PP1PPP2/2RNBKR1 w - - 2 12");
    for perspective in [Color::White, Color::Black] {
        assert_eq!(active("PV", &b, perspective).len(), 20);
        assert_eq!(active("PH", &b, perspective).len(), 16);
    }
}

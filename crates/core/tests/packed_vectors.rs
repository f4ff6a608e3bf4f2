//! PackedSfen against the 100 positions Stockfish's own packer wrote
//! (tests/data/packed_sfen.tsv) and the worked records of formats.md 1.6.

use nnue_core::packed::{GameResult, MoveKind, PackedSfen, PackedSfenValue, SfMove};
use nnue_test_support::position;
use shakmaty::{Chess, Move, Position, Role, Square};

use nnue_test_support::test_data_text;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn vectors() -> Vec<(String, [u8; 32])> {
    let text = test_data_text("packed_sfen.tsv");
    let rows: Vec<(String, [u8; 32])> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, h) = l.split_once('\t').expect("two columns");
            let bytes: [u8; 32] = unhex(h.trim()).try_into().expect("32 bytes");
            (fen.to_owned(), bytes)
        })
        .collect();
    assert_eq!(rows.len(), 100);
    rows
}

#[test]
fn every_vector_encodes_to_stockfish_bytes() {
    for (fen, bytes) in vectors() {
        let packed = PackedSfen::from_position(&position(&fen));
        assert_eq!(hex(&packed.0), hex(&bytes), "encoding {fen}");
    }
}

#[test]
fn every_vector_decodes_to_its_fen() {
    for (fen, bytes) in vectors() {
        let decoded = PackedSfen(bytes)
            .decode()
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(decoded.fen(), fen);
        let pos = PackedSfen(bytes)
            .to_chess()
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(PackedSfen::from_position(&pos).0, bytes, "{fen}");
    }
}

use nnue_test_support::WORKED;

#[test]
fn worked_records_match_byte_for_byte() {
    for (fen, uci, score, ply, result, rec_hex) in WORKED {
        let pos = position(fen);
        let mv = SfMove::from_uci(uci, &pos).expect("legal move");
        let m: Move = mv.to_move(&pos).expect("round trip");
        let rec = PackedSfenValue::new(
            &pos,
            score,
            &m,
            ply,
            GameResult::from_i8(result).expect("result"),
        );
        assert_eq!(hex(&rec.to_bytes()), rec_hex, "{fen}");
        let back = PackedSfenValue::from_bytes(&unhex(rec_hex).try_into().expect("40"));
        assert_eq!(back, rec);
        assert_eq!(back.sfen.decode().expect("decodes").fen(), fen);
        assert_eq!(back.mv.to_uci(), uci);
    }
}

#[test]
fn move_encodings_from_formats_2_2() {
    let castle = SfMove::new(Square::E1, Square::H1, MoveKind::Castling, None);
    assert_eq!(castle.raw(), 0xC107);
    assert_eq!(castle.to_uci(), "e1g1");
    let long = SfMove::new(Square::E8, Square::A8, MoveKind::Castling, None);
    assert_eq!(long.raw(), 0xCF38);
    assert_eq!(long.to_uci(), "e8c8");
    let ep = SfMove::new(Square::E5, Square::D6, MoveKind::EnPassant, None);
    assert_eq!(ep.raw(), 0x892B);
    let promo = SfMove::new(
        Square::G2,
        Square::G1,
        MoveKind::Promotion,
        Some(Role::Knight),
    );
    assert_eq!(promo.raw(), 0x4386);
    assert_eq!(promo.to_uci(), "g2g1n");
    assert_eq!(promo.promotion(), Some(Role::Knight));

    let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = SfMove(0xC107).to_move(&pos).expect("legal castle");
    assert_eq!(
        m,
        Move::Castle {
            king: Square::E1,
            rook: Square::H1
        }
    );
    assert_eq!(SfMove::from_uci("e1g1", &pos).expect("uci"), SfMove(0xC107));
    let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40");
    assert_eq!(
        SfMove(0x892B).to_move(&pos).expect("ep"),
        Move::EnPassant {
            from: Square::E5,
            to: Square::D6
        }
    );
    assert!(pos.is_legal(SfMove(0x892B).to_move(&pos).expect("ep")));
}

#[test]
fn startpos_matches_documented_bytes() {
    let packed = PackedSfen::from_position(&Chess::default());
    assert_eq!(
        hex(&packed.0),
        "08fece9aebbc31c618638c000000002184104208679454c67940000000000000"
    );
}

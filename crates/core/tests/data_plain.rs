//! `.plain` parsing (binpack-library semantics) and writing.

use nnue_core::data::{decode_fast, DataError, PlainError, PlainReader, PlainWriter, RecordPolicy};
use proptest::prelude::*;

const TEXT: &str = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n\
move e2e4\r\n\
comment anything at all\r\n\
score 54\r\n\
ply 0\r\n\
result 1\r\n\
e\r\n\
fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40\n\
move e5d6\n\
e\n";

#[test]
fn keys_unknown_lines_and_kept_values() {
    let entries: Vec<_> = PlainReader::new(TEXT.as_bytes(), "t.plain")
        .map(|e| e.expect("parses"))
        .collect();
    assert_eq!(entries.len(), 2);
    assert_eq!(
        entries[0].fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        (
            entries[0].score,
            entries[0].ply,
            entries[0].result,
            entries[0].line
        ),
        (54, 0, 1, 7)
    );
    // Absent keys keep the previous record's values.
    assert_eq!(
        (entries[1].score, entries[1].ply, entries[1].result),
        (54, 0, 1)
    );
    assert_eq!(entries[1].mv, "e5d6");

    let (value, _) = entries[1]
        .to_packed(RecordPolicy::default())
        .expect("packs");
    assert_eq!(value.mv.raw(), 0x892B);
    let rec = decode_fast(&value, RecordPolicy::default()).expect("decodes");
    let mut w = PlainWriter::new(Vec::new());
    w.write(&rec).expect("write");
    assert_eq!(
        String::from_utf8(w.into_inner()).expect("utf8"),
        "fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40\nmove e5d6\nscore 54\nply 0\nresult 1\ne\n"
    );
}

#[test]
fn ep_square_without_attacker_is_dropped_like_stockfish() {
    let text = "fen 4k3/8/8/3p4/8/8/8/4K3 w - d6 0 40\nmove e1e2\nscore 0\nply 0\nresult 0\ne\n";
    let entry = PlainReader::new(text.as_bytes(), "x.plain")
        .next()
        .expect("one")
        .expect("ok");
    let (value, _) = entry.to_packed(RecordPolicy::default()).expect("packs");
    let rec = decode_fast(&value, RecordPolicy::default()).expect("decodes");
    assert_eq!(rec.position.fen(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 40");
}

#[test]
fn errors_name_file_and_line() {
    let err = PlainReader::new("move e2e4\ne\n".as_bytes(), "a.plain")
        .next()
        .expect("item")
        .expect_err("no fen");
    assert_eq!(err.to_string(), "a.plain:2: record without a fen line");

    let err = PlainReader::new("fen x\nply 12a\n".as_bytes(), "b.plain")
        .find_map(Result::err)
        .expect("error");
    assert!(matches!(
        err,
        DataError::BadPlain {
            line: 2,
            reason: PlainError::BadNumber { key: "ply", .. },
            ..
        }
    ));

    let bad = [
        ("fen 8/8/8/8/8/8/8/8 w - - 0 1\nmove e2e4\ne\n", "bad fen"),
        (
            "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e2e4\ne\n",
            "bad UCI move",
        ),
        (
            "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nscore 40000\ne\n",
            "bad score",
        ),
        (
            "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nresult 2\ne\n",
            "bad result",
        ),
        (
            "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove 0000\ne\n",
            "no move",
        ),
    ];
    for (text, what) in bad {
        let entry = PlainReader::new(text.as_bytes(), "c.plain")
            .next()
            .expect("one")
            .expect("parses");
        let err = entry
            .to_packed(RecordPolicy::default())
            .expect_err(what)
            .to_string();
        assert!(err.contains(what), "{err} should mention {what}");
    }
    let entry = PlainReader::new(bad[4].0.as_bytes(), "c.plain")
        .next()
        .expect("one")
        .expect("ok");
    let (value, _) = entry
        .to_packed(RecordPolicy {
            allow_move_none: true,
        })
        .expect("allowed");
    assert!(value.mv.is_none());
}

proptest! {
    #[test]
    fn parser_never_panics_on_arbitrary_text(text in ".{0,400}") {
        for entry in PlainReader::new(text.as_bytes(), "p.plain").flatten() {
            let _ = entry.to_packed(RecordPolicy { allow_move_none: true });
        }
    }

    #[test]
    fn parser_never_panics_on_keyed_noise(
        lines in prop::collection::vec(
            (prop::sample::select(vec!["fen", "move", "score", "ply", "result", "e", "x"]), ".{0,60}"),
            0..30,
        )
    ) {
        let text: String = lines.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
        for entry in PlainReader::new(text.as_bytes(), "p.plain").flatten() {
            let _ = entry.to_packed(RecordPolicy::default());
        }
    }

    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        for entry in PlainReader::new(&bytes[..], "p.plain").flatten() {
            let _ = entry.to_packed(RecordPolicy::default());
        }
    }
}

#[path = "support/worked_records.rs"]
mod worked_records;
use worked_records::WORKED;

#[test]
fn worked_records_bin_to_plain_to_bin_byte_for_byte() {
    let mut w = PlainWriter::new(Vec::new());
    let mut expected_text = String::new();
    for (fen, mv, score, ply, result, hex) in WORKED {
        let bytes: Vec<u8> = (0..80)
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect();
        let value = nnue_core::packed::PackedSfenValue::from_slice(&bytes).expect("40 bytes");
        let rec = decode_fast(&value, RecordPolicy::default()).expect("valid");
        w.write(&rec).expect("write");
        expected_text +=
            &format!("fen {fen}\nmove {mv}\nscore {score}\nply {ply}\nresult {result}\ne\n");
    }
    let text = String::from_utf8(w.into_inner()).expect("utf8");
    assert_eq!(text, expected_text);
    let entries: Vec<_> = PlainReader::new(text.as_bytes(), "w.plain")
        .map(|e| e.expect("parses"))
        .collect();
    assert_eq!(entries.len(), 6);
    for (entry, (.., hex)) in entries.iter().zip(WORKED) {
        let (value, _) = entry.to_packed(RecordPolicy::default()).expect("packs");
        let got: String = value
            .to_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, hex);
    }
}

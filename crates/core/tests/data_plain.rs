//! `.plain` parsing (strict: every deviation is an error naming file and line) and
//! writing, against the records Stockfish's `tools` branch writes.

use std::path::Path;

use nnue_core::data::{decode_fast, PlainKey, PlainReader, PlainWriter, RecordPolicy};
use proptest::prelude::*;

const TEXT: &str = "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n\
move e2e4\r\n\
score 54\r\n\
ply 0\r\n\
result 1\r\n\
e\r\n\
fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40\n\
move e5d6\n\
score 300\n\
ply 78\n\
result 1\n\
e\n";

/// One valid record (the worked record 4 of the format reference).
const GOOD: &str =
    "fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40\nmove e5d6\nscore 300\nply 78\nresult 1\ne\n";

#[test]
fn records_with_crlf_and_their_lines() {
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
        (54, 0, 1, 6)
    );
    assert_eq!(entries[1].field_lines, [7, 8, 9, 10, 11]);
    assert_eq!(entries[1].line_of(PlainKey::Move), 8);
    assert_eq!(entries[1].mv, "e5d6");

    let (value, _) = entries[1]
        .to_packed(RecordPolicy::default())
        .expect("packs");
    assert_eq!(value.mv.raw(), 0x892B);
    let rec = decode_fast(&value, RecordPolicy::default()).expect("decodes");
    let mut w = PlainWriter::new(Vec::new());
    w.write(&rec).expect("write");
    assert_eq!(String::from_utf8(w.into_inner()).expect("utf8"), GOOD);
}

/// Every item of `text` as `Ok(e line)` or `Err(message)`.
fn outcome(text: &str) -> Vec<Result<u64, String>> {
    PlainReader::new(text.as_bytes(), "s.plain")
        .map(|r| r.map(|e| e.line).map_err(|e| e.to_string()))
        .collect()
}

#[test]
fn structural_problems_are_errors_naming_file_and_line() {
    let cases: [(String, &str); 9] = [
        (
            format!("{GOOD}this is junk\n{GOOD}"),
            "s.plain:7: unknown key \"this\"",
        ),
        (
            GOOD.replace("ply 78", "plies 78"),
            "s.plain:4: unknown key \"plies\"",
        ),
        (format!("{GOOD}\n{GOOD}"), "s.plain:7: empty line"),
        (
            GOOD.replace("result 1\n", "result 1\ncomment x\n"),
            "s.plain:6: unknown key \"comment\"",
        ),
        (
            GOOD.replace("score 300\n", ""),
            "s.plain:5: record without a score line",
        ),
        (
            GOOD.replace("ply 78\n", "ply 78\nply 79\n"),
            "s.plain:5: second ply line in one record (the first is line 4)",
        ),
        (
            GOOD.replace("e\n", "e x\n"),
            "s.plain:6: unexpected \"x\" after e",
        ),
        ("e\n".to_string(), "s.plain:1: record without a fen line"),
        (
            GOOD.replace("score 300", "score 3O0"),
            "s.plain:3: bad score value \"3O0\"",
        ),
    ];
    for (text, want) in &cases {
        let got = outcome(text);
        let errors: Vec<&String> = got.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1, "{want}: {got:?}");
        assert!(
            errors[0].starts_with(want),
            "{:?} should start with {want:?}",
            errors[0]
        );
    }
}

#[test]
fn a_record_without_its_e_is_an_error_and_the_next_one_is_still_read() {
    let text = format!("{}{GOOD}", GOOD.replace("e\n", ""));
    assert_eq!(
        outcome(&text),
        [
            Err("s.plain:6: the record from line 1 has no closing e line before this fen".into()),
            Ok(11)
        ]
    );
}

#[test]
fn a_truncated_last_record_is_an_error() {
    let text = format!("{GOOD}fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\n");
    assert_eq!(
        outcome(&text),
        [
            Ok(6),
            Err(
                "s.plain:8: the file ends inside the record from line 7 (no closing e line)".into()
            )
        ]
    );
    // Cut inside a line, too.
    let cut = &GOOD[..GOOD.len() - 3];
    assert_eq!(
        outcome(cut),
        [Err(
            "s.plain:5: the file ends inside the record from line 1 (no closing e line)".into()
        )]
    );
}

#[test]
fn one_error_per_bad_record_then_reading_goes_on() {
    // Junk inside a record drops that record only (one error), a stray line
    // between records is one error of its own, good records around survive.
    let text = format!(
        "{GOOD}{}{GOOD}stray\n{GOOD}",
        GOOD.replace("score 300\n", "score 300\nnoise\nmore noise\n")
    );
    let got = outcome(&text);
    assert_eq!(
        got,
        [
            Ok(6),
            Err("s.plain:10: unknown key \"noise\" (a record is fen, move, score, ply, result, then e)".into()),
            Ok(20),
            Err("s.plain:21: unknown key \"stray\" (a record is fen, move, score, ply, result, then e)".into()),
            Ok(27),
        ]
    );
}

#[test]
fn packing_errors_name_the_line_of_the_bad_field() {
    let cases = [
        (
            GOOD.replace("move e5d6", "move e5d5"),
            2,
            "bad UCI move \"e5d5\"",
        ),
        (GOOD.replace("move e5d6", "move 0000"), 2, "no move"),
        (
            GOOD.replace("fen 4k3/8/8/3pP3/8/8/8/4K3", "fen 4k3/8/8/3pP3/8/8/8/8"),
            1,
            "bad fen",
        ),
        (
            GOOD.replace("score 300", "score 40000"),
            3,
            "bad score value",
        ),
        (GOOD.replace("ply 78", "ply -1"), 4, "bad ply value"),
        (GOOD.replace("result 1", "result 2"), 5, "bad result value"),
    ];
    for (text, line, what) in cases {
        let entry = PlainReader::new(text.as_bytes(), "c.plain")
            .next()
            .expect("one")
            .expect("reads");
        let err = entry
            .pack(RecordPolicy::default(), Path::new("c.plain"))
            .expect_err(what)
            .to_string();
        let prefix = format!("c.plain:{line}: {what}");
        assert!(
            err.starts_with(&prefix),
            "{err:?} should start with {prefix:?}"
        );
    }
}

#[test]
fn stockfish_tools_plain_packs_to_the_tools_bin_byte_for_byte() {
    let text = test_data_bytes("sf_tools_sample.plain");
    let bin = test_data_bytes("sf_tools_sample.bin");
    let mut packed = Vec::with_capacity(bin.len());
    for entry in PlainReader::new(&text[..], "sf_tools_sample.plain") {
        let entry = entry.expect("Stockfish's own output is valid");
        let (value, _) = entry
            .pack(RecordPolicy::default(), Path::new("sf_tools_sample.plain"))
            .expect("packs");
        packed.extend_from_slice(&value.to_bytes());
    }
    assert_eq!(packed.len(), 3000 * 40);
    assert!(packed == bin, "packed records differ from the tools' .bin");
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

use nnue_test_support::{test_data_bytes, WORKED};

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

//! End-to-end: the real `nnue-gen-sfen` binary on files made from the
//! Stockfish-packed vectors.

mod common;

use std::process::Output;

use nnue_core::packed::{MoveKind, SfMove};
use shakmaty::Square;

use common::{listing, p, reference_bin, run, temp_dir, WORKED};

fn stderr_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        text.lines().count(),
        1,
        "one-line error expected, got {text:?}"
    );
    text
}

#[test]
fn bin_plain_bin_round_trip_is_exact_except_padding() {
    let dir = temp_dir("roundtrip");
    let x = dir.join("x.bin");
    let plain = dir.join("x.plain");
    let y = dir.join("y.bin");
    let original = reference_bin();
    std::fs::write(&x, &original).expect("write x.bin");

    let out = run(&["convert", p(&x), p(&plain)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["convert", p(&plain), p(&y), "--validate"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let back = std::fs::read(&y).expect("y.bin");
    assert_eq!(back.len(), original.len());
    for (i, (a, b)) in original.chunks(40).zip(back.chunks(40)).enumerate() {
        assert_eq!(a[..39], b[..39], "record {i}");
        assert_eq!(b[39], 0xFF, "padding of record {i}");
    }
    // The six worked records keep their padding 0xFF too: fully identical.
    assert_eq!(original[..240], back[..240]);

    // The text of the worked records is what Stockfish's convert prints.
    let text = std::fs::read_to_string(&plain).expect("plain");
    let mut expected = String::new();
    for (fen, mv, score, ply, result, _) in WORKED {
        expected +=
            &format!("fen {fen}\nmove {mv}\nscore {score}\nply {ply}\nresult {result}\ne\n");
    }
    assert!(
        text.starts_with(&expected),
        "worked records text:\n{}",
        &text[..expected.len().min(text.len())]
    );
    assert_eq!(text.lines().filter(|l| *l == "e").count(), 106);
    assert_eq!(listing(&dir), ["x.bin", "x.plain", "y.bin"]);
}

#[test]
fn truncated_bin_fails_with_file_and_record_and_leaves_no_output() {
    let dir = temp_dir("truncated");
    let bin = dir.join("cut.bin");
    let mut bytes = reference_bin();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&bin, &bytes).expect("write");
    let plain = dir.join("out.plain");
    let out = run(&["convert", p(&bin), p(&plain)]);
    assert!(!out.status.success());
    let err = stderr_line(&out);
    assert!(
        err.contains("cut.bin") && err.contains("record 105") && err.contains("truncated"),
        "{err}"
    );
    assert_eq!(listing(&dir), ["cut.bin"]);
}

#[test]
fn corrupted_record_fails_with_its_index_and_leaves_no_output() {
    let dir = temp_dir("corrupt");
    let bin = dir.join("bad.bin");
    let mut bytes = reference_bin();
    // Record 42: white king = black king (both fields 0).
    let r = 42 * 40;
    bytes[r] &= 0x01;
    bytes[r + 1] &= 0xE0;
    std::fs::write(&bin, &bytes).expect("write");
    for target in ["out.plain", "out.bin"] {
        let out_path = dir.join(target);
        let out = run(&["convert", p(&bin), p(&out_path)]);
        assert!(!out.status.success());
        let err = stderr_line(&out);
        assert!(
            err.contains("bad.bin") && err.contains("record 42") && err.contains("kings"),
            "{err}"
        );
    }
    assert_eq!(listing(&dir), ["bad.bin"]);
}

#[test]
fn validate_rejects_an_illegal_best_move_that_the_fast_path_lets_through() {
    let dir = temp_dir("validate");
    let bin = dir.join("moves.bin");
    let mut bytes = reference_bin();
    // Record 0 is the start position: a1a5 moves the rook through a pawn.
    let mv = SfMove::new(Square::A1, Square::A5, MoveKind::Normal, None).raw();
    bytes[34..36].copy_from_slice(&mv.to_le_bytes());
    std::fs::write(&bin, &bytes).expect("write");
    let out_path = dir.join("out.plain");

    let out = run(&["convert", p(&bin), p(&out_path), "--validate"]);
    assert!(!out.status.success());
    let err = stderr_line(&out);
    assert!(
        err.contains("moves.bin") && err.contains("record 0") && err.contains("illegal move a1a5"),
        "{err}"
    );
    assert_eq!(listing(&dir), ["moves.bin"]);

    let out = run(&["convert", p(&bin), p(&out_path)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_path).expect("plain");
    assert!(text
        .starts_with("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove a1a5\n"));
}

#[test]
fn append_adds_whole_records_and_failure_keeps_the_old_output() {
    let dir = temp_dir("append");
    let x = dir.join("x.bin");
    let z = dir.join("z.bin");
    let original = reference_bin();
    std::fs::write(&x, &original).expect("write");
    assert!(run(&["convert", p(&x), p(&z)]).status.success());
    assert!(run(&["convert", p(&x), p(&z), "--append"]).status.success());
    assert_eq!(
        std::fs::metadata(&z).expect("z").len(),
        2 * original.len() as u64
    );

    let bad = dir.join("bad.bin");
    let mut bytes = original.clone();
    bytes[10 * 40 + 38] = 7; // result out of range
    std::fs::write(&bad, &bytes).expect("write");
    let out = run(&["convert", p(&bad), p(&z), "--append"]);
    assert!(!out.status.success());
    let err = stderr_line(&out);
    assert!(
        err.contains("record 10") && err.contains("game result 7"),
        "{err}"
    );
    assert_eq!(
        std::fs::metadata(&z).expect("z").len(),
        2 * original.len() as u64
    );
    assert_eq!(listing(&dir), ["bad.bin", "x.bin", "z.bin"]);
}

#[test]
fn bad_plain_line_is_reported_with_file_and_line() {
    let dir = temp_dir("plainerr");
    let plain = dir.join("in.plain");
    std::fs::write(
        &plain,
        "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nscore 12\nply 3\nresult 0\ne\nscore x12\n",
    )
    .expect("write");
    let out = run(&["convert", p(&plain), p(&dir.join("out.bin"))]);
    assert!(!out.status.success());
    let err = stderr_line(&out);
    assert!(err.contains("in.plain:7") && err.contains("score"), "{err}");
    assert_eq!(listing(&dir), ["in.plain"]);
}

#[test]
fn stats_counts_the_reference_file() {
    let dir = temp_dir("stats");
    let x = dir.join("x.bin");
    std::fs::write(&x, reference_bin()).expect("write");
    let out = run(&["stats", p(&x)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("records: 106\n"), "{text}");
    assert!(text.contains("invalid (skipped): 0\n"), "{text}");
}

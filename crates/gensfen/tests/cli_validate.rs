//! `nnue-gen-sfen validate`: every kind of corruption is one error line
//! naming the file, the record and the problem; clean files in every format
//! give the same counts per result.

mod common;

use std::path::{Path, PathBuf};

use nnue_core::packed::{CastlingFlags, DecodedSfen, PackedSfen};
use shakmaty::{Board, Color, Piece, Role, Square};

use common::{p, run, temp_dir};

fn sf(ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/sf_tools_sample.{ext}"))
}

/// Marlinformat piece codes.
const WHITE_PAWN: u8 = 0;
const WHITE_ROOK: u8 = 3;
const WHITE_KING: u8 = 5;
const CASTLING_ROOK: u8 = 6;
const BLACK_KING: u8 = 13;

/// A corruption case: file name, pieces (square, code), result byte, the
/// problem the error must name.
type Case = (&'static str, Vec<(u8, u8)>, u8, &'static str);

/// A marlinformat record of `pieces` (square index, code), White to move,
/// fullmove 1, with the result byte `wdl`.
fn mf(pieces: &[(u8, u8)], wdl: u8) -> [u8; 32] {
    let mut sorted = pieces.to_vec();
    sorted.sort_unstable();
    let mut bytes = [0u8; 32];
    let occupancy = sorted.iter().fold(0u64, |o, &(sq, _)| o | (1 << sq));
    bytes[..8].copy_from_slice(&occupancy.to_le_bytes());
    for (i, &(_, code)) in sorted.iter().enumerate() {
        bytes[8 + i / 2] |= code << (4 * (i % 2));
    }
    bytes[24] = 64;
    bytes[26] = 1;
    bytes[30] = wdl;
    bytes
}

/// `nnue-gen-sfen validate` of the sample's first record then `bad`, in a
/// file named `name`: the one error line.
fn error_of(dir: &Path, name: &str, first: &[u8], bad: &[u8]) -> (String, String) {
    let path = dir.join(name);
    std::fs::write(&path, [first, bad].concat()).expect("write");
    let out = run(&["validate", p(&path)]);
    assert_eq!(out.status.code(), Some(1), "{name}");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "one line: {text:?}");
    (path.display().to_string(), text)
}

#[test]
fn each_kind_of_corruption_is_one_line_naming_the_record() {
    let dir = temp_dir("validate-bad");
    let first = &std::fs::read(sf("mf")).expect("mf")[..32];
    let kings = [(4, WHITE_KING), (60, BLACK_KING)];
    let cases: [Case; 6] = [
        (
            "two-kings.mf",
            vec![(4, WHITE_KING), (12, WHITE_KING), (60, BLACK_KING)],
            1,
            "2 white kings (exactly one expected)",
        ),
        (
            "no-king.mf",
            vec![(4, WHITE_KING), (12, WHITE_PAWN)],
            1,
            "0 black kings (exactly one expected)",
        ),
        (
            "back-rank.mf",
            [&kings[..], &[(57, WHITE_PAWN)]].concat(),
            1,
            "pawn on back rank at b8",
        ),
        (
            "in-check.mf",
            [&kings[..], &[(12, WHITE_ROOK)]].concat(),
            1,
            "side not to move (black) is in check",
        ),
        (
            "castling.mf",
            vec![(3, WHITE_KING), (7, CASTLING_ROOK), (60, BLACK_KING)],
            1,
            "castling rook on h1",
        ),
        (
            "result.mf",
            kings.to_vec(),
            3,
            "bad result byte 3 (expected 0, 1 or 2)",
        ),
    ];
    for (name, pieces, wdl, problem) in cases {
        let (file, line) = error_of(&dir, name, first, &mf(&pieces, wdl));
        let want = format!("nnue-gen-sfen: error: {file}: record 1: {problem}");
        assert!(line.starts_with(&want), "{name}: {line}");
    }
    // .bin stores castling as flags: K without a rook on h1.
    let mut board = Board::empty();
    board.set_piece_at(
        Square::E1,
        Piece {
            color: Color::White,
            role: Role::King,
        },
    );
    board.set_piece_at(
        Square::E8,
        Piece {
            color: Color::Black,
            role: Role::King,
        },
    );
    let flags = {
        let mut f = CastlingFlags::NONE;
        f.set(Color::White, shakmaty::CastlingSide::KingSide);
        f
    };
    let fields = DecodedSfen {
        board,
        turn: Color::White,
        castling: flags,
        ep_square: None,
        rule50: 0,
        fullmove: 1,
    };
    let mut record = std::fs::read(sf("bin")).expect("bin")[..40].to_vec();
    record[..32].copy_from_slice(&PackedSfen::encode(&fields).0);
    let first = &std::fs::read(sf("bin")).expect("bin")[..40];
    let (file, line) = error_of(&dir, "castling.bin", first, &record);
    let want =
        format!("{file}: record 1: castling flag K set but king or rook is not on its home square");
    assert!(line.contains(&want), "{line}");
}

#[test]
fn clean_files_in_every_format_give_the_same_counts() {
    let mut reports = Vec::new();
    for ext in ["bin", "binpack", "plain", "vf", "mf", "bf"] {
        let out = run(&["validate", p(&sf(ext))]);
        assert!(
            out.status.success(),
            "{ext}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        reports.push((ext, String::from_utf8_lossy(&out.stdout).into_owned()));
    }
    assert!(
        reports[0].1.starts_with("valid: 3000 records\n"),
        "{}",
        reports[0].1
    );
    // bulletformat keeps no colour: its White is the side to move.
    for (ext, report) in &reports[1..5] {
        assert_eq!(report, &reports[0].1, "{ext}");
    }
}

//! Bad `.vf`, `.mf` and `.bf` input, and records those formats cannot hold:
//! each is one error that names the file, the record and the problem, and a
//! file read as the wrong format says which format its bytes look like.

use nnue_core::data::{
    CodecError, DataError, DataFormat, ReaderOptions, TrainingDataReader, TrainingDataWriter,
    Validation,
};
use nnue_core::packed::{GameResult, PackedSfenValue, SfMove};
use nnue_test_support::{position, test_data_bytes, TempDir};
use shakmaty::Position;

/// The first error reading `bytes` as a file named `name`, as its message.
fn first_error(dir: &TempDir, name: &str, bytes: &[u8]) -> String {
    first_error_as(dir, name, bytes, None)
}

fn first_error_as(dir: &TempDir, name: &str, bytes: &[u8], format: Option<DataFormat>) -> String {
    let path = dir.path(name);
    std::fs::write(&path, bytes).expect("write");
    let reader = match TrainingDataReader::open_as(&path, format, ReaderOptions::default()) {
        Ok(reader) => reader,
        Err(e) => return e.to_string(),
    };
    let records = reader.records(Validation::Full).expect("records");
    let error = records.filter_map(Result::err).next().expect("an error");
    error.to_string()
}

fn file(dir: &TempDir, name: &str) -> String {
    dir.path(name).display().to_string()
}

#[test]
fn marlinformat_errors_name_the_record_and_the_problem() {
    let dir = TempDir::new("mf-errors");
    let mut bytes = test_data_bytes("sf_tools_sample.mf");
    // Record 3's first piece code becomes 7, which names no piece.
    bytes[3 * 32 + 8] |= 0x7;
    let message = first_error(&dir, "bad.mf", &bytes);
    assert!(
        message.starts_with(&format!(
            "{}: record 3: bad piece code",
            file(&dir, "bad.mf")
        )),
        "{message}"
    );
    let cut = &test_data_bytes("sf_tools_sample.mf")[..64 + 5];
    assert_eq!(
        first_error(&dir, "cut.mf", cut),
        format!(
            "{}: record 2: the file ends inside the record (5 of 32 bytes)",
            file(&dir, "cut.mf")
        )
    );
    let mut result = test_data_bytes("sf_tools_sample.mf");
    result[32 + 30] = 3;
    assert_eq!(
        first_error(&dir, "result.mf", &result[..96]),
        format!(
            "{}: record 1: bad result byte 3 (expected 0, 1 or 2)",
            file(&dir, "result.mf")
        )
    );
}

#[test]
fn a_chess960_castling_rook_is_refused_by_name() {
    let dir = TempDir::new("mf-960");
    // White: king e1 and a rook on b1 marked as a castling rook (code 6);
    // Black: king e8. Pieces in square order: b1, e1, e8.
    let mut bytes = [0u8; 32];
    let occupancy: u64 = (1 << 1) | (1 << 4) | (1 << 60);
    bytes[..8].copy_from_slice(&occupancy.to_le_bytes());
    bytes[8] = 0x6 | (0x5 << 4);
    bytes[9] = 0x8 | 0x5;
    bytes[24] = 64;
    bytes[26] = 1;
    bytes[30] = 1;
    let message = first_error(&dir, "960.mf", &bytes);
    assert!(message.ends_with("castling rook on b1: only standard chess castling (king e1/e8, rooks a/h) is supported"), "{message}");
}

#[test]
fn bulletformat_king_fields_must_match_the_board() {
    let dir = TempDir::new("bf-errors");
    let mut bytes = test_data_bytes("sf_tools_sample.bf")[..64].to_vec();
    bytes[32 + 27] ^= 1;
    let message = first_error(&dir, "king.bf", &bytes);
    assert!(
        message.starts_with(&format!(
            "{}: record 1: our king square",
            file(&dir, "king.bf")
        )),
        "{message}"
    );
}

#[test]
fn viriformat_errors_name_the_game_move_and_byte() {
    let dir = TempDir::new("vf-errors");
    let mut bytes = test_data_bytes("sf_tools_sample.vf");
    // The first game's second move (byte 32 + 4) becomes a1a2, which is
    // illegal there (a rook on a1 is blocked by the a2 pawn).
    bytes[36..38].copy_from_slice(&(8u16 << 6).to_le_bytes());
    let message = first_error(&dir, "bad.vf", &bytes);
    assert!(
        message.starts_with(&format!(
            "{}: record 1 (game 0, move 1, byte 36): illegal move a1a2",
            file(&dir, "bad.vf")
        )),
        "{message}"
    );
    let unterminated = &test_data_bytes("sf_tools_sample.vf")[..40];
    assert_eq!(
        first_error(&dir, "open.vf", unterminated),
        format!(
            "{}: record 2 (game 0, move 2, byte 40): the file ends inside a game (no terminating four zero bytes)",
            file(&dir, "open.vf")
        )
    );
}

#[test]
fn a_file_read_as_the_wrong_format_says_what_it_looks_like() {
    let dir = TempDir::new("sniff");
    let cases = [
        ("sf_tools_sample.bin", "x.mf", "bin"),
        ("sf_tools_sample.vf", "y.mf", "viriformat"),
        ("sf_tools_sample.mf", "z.bf", "marlinformat"),
        ("sf_tools_sample.bf", "w.mf", "bulletformat"),
        ("sf_tools_sample.binpack", "v.vf", "binpack"),
        ("sf_tools_sample.mf", "u.bin", "marlinformat"),
        ("sf_tools_sample.vf", "t.binpack", "viriformat"),
        ("sf_tools_sample.plain", "s.vf", "plain"),
    ];
    for (sample, name, format) in cases {
        let message = first_error(&dir, name, &test_data_bytes(sample));
        let hint = format!("(the file looks like {format} data");
        assert!(message.contains(&hint), "{sample} as {name}: {message}");
    }
    // A viriformat file named .bin reads when the format is named.
    let path = dir.path("games.bin");
    std::fs::write(&path, test_data_bytes("sf_tools_sample.vf")).expect("write");
    let named = Some("viriformat".parse().expect("a format name"));
    let reader = TrainingDataReader::open_as(&path, named, ReaderOptions::default()).expect("open");
    assert_eq!(
        reader.records(Validation::Full).expect("records").count(),
        3000
    );
}

#[test]
fn records_a_format_cannot_hold_are_errors_naming_them() {
    let dir = TempDir::new("cannot-hold");
    let pos = position("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let mv = pos.legal_moves()[0];
    let lowest = PackedSfenValue::new(&pos, i16::MIN, &mv, 1, GameResult::Draw);
    let mut no_move = PackedSfenValue::new(&pos, 0, &mv, 1, GameResult::Draw);
    no_move.mv = SfMove::NONE;
    let cases = [
        ("a.vf", no_move, CodecError::NoMove),
        ("b.vf", lowest, CodecError::ScoreOverflow(i16::MIN)),
        ("c.mf", lowest, CodecError::ScoreOverflow(i16::MIN)),
    ];
    for (name, record, reason) in cases {
        let path = dir.path(name);
        let mut writer = TrainingDataWriter::create(&path).expect("create");
        let error = writer.write(&record).expect_err("cannot hold");
        let format = DataFormat::from_path(&path).expect("format");
        assert!(
            matches!(&error, DataError::CannotHold { index: 0, reason: r, format: f, .. }
            if *r == reason && *f == format),
            "{error}"
        );
        assert!(error.to_string().starts_with(&format!(
            "{}: record 0: cannot be written to .{}:",
            path.display(),
            format.extension()
        )));
    }
    // bulletformat stores side-to-move scores, so -32768 fits there.
    let mut writer = TrainingDataWriter::create(dir.path("d.bf")).expect("create");
    writer.write(&lowest).expect("fits");
}

#[test]
fn records_without_a_move_capture_nothing() {
    // A black rook on a1 would make MOVE_NONE's a1 destination look like a
    // capture for White.
    let pos = position("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert!(!SfMove::NONE.is_capture(pos.board(), pos.turn()));
}

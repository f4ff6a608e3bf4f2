//! `.bin` reader and writer: many files, random access, skipping, errors.

use std::path::Path;

use nnue_core::data::{BinReader, BinWriter, DataError, ReaderOptions, RecordError, RecordPolicy};
use nnue_core::packed::{GameResult, MoveError, PackedSfenValue, SfenError, PADDING_BYTE};
use shakmaty::{Chess, Position};

use nnue_test_support::TempDir;

/// `n` records along one game from the start position (first legal move
/// each time), plies 0..n.
fn game_records(n: usize) -> Vec<PackedSfenValue> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for ply in 0..n {
        let moves = pos.legal_moves();
        let m = moves[ply % moves.len()];
        out.push(PackedSfenValue::new(
            &pos,
            ply as i16 * 3,
            &m,
            ply as u16,
            GameResult::Draw,
        ));
        pos.play_unchecked(m);
    }
    out
}

fn write_bin(path: &Path, records: &[PackedSfenValue]) {
    let mut w = BinWriter::create(path).expect("create");
    w.write_all(records).expect("write");
    assert_eq!(w.finish().expect("finish"), records.len() as u64);
}

#[test]
fn reader_and_writer_can_cross_threads() {
    fn shared<T: Send + Sync>() {}
    fn sent<T: Send>() {}
    shared::<BinReader>();
    sent::<BinWriter>();
}

#[test]
fn many_files_read_as_one_sequence() {
    let dir = TempDir::new("many");
    let records = game_records(30);
    let (a, b, c) = (dir.path("a.bin"), dir.path("b.bin"), dir.path("c.bin"));
    write_bin(&a, &records[..10]);
    write_bin(&b, &[]);
    write_bin(&c, &records[10..]);
    let reader = BinReader::open(&[&a, &b, &c], ReaderOptions::default()).expect("open");
    assert_eq!(reader.len(), 30);
    assert_eq!(reader.file_count(), 3);
    let seq: Vec<_> = reader.iter().map(|r| r.expect("valid")).collect();
    assert_eq!(seq.len(), 30);
    for (i, rec) in seq.iter().enumerate() {
        assert_eq!(rec.game_ply, i as u16);
        assert_eq!(rec.score, i as i16 * 3);
        assert_eq!(rec.to_packed(), records[i]);
        assert_eq!(reader.raw(i as u64).expect("raw"), records[i]);
        assert_eq!(&reader.get(i as u64).expect("get"), rec);
        let full = reader.get_validated(i as u64).expect("validated");
        assert_eq!(
            full.best_move
                .map(|m| nnue_core::packed::SfMove::from_move(&m)),
            Some(rec.mv)
        );
    }
    let loc = reader.locate(12).expect("in range");
    assert_eq!((loc.file, loc.index), (2, 2));
    assert!(matches!(
        reader.get(30),
        Err(DataError::OutOfRange { index: 30, len: 30 })
    ));
    assert_eq!(reader.iter_raw().count(), 30);
    assert_eq!(reader.file_bytes(0).len(), 400);
    assert!(records.iter().all(|r| r.padding == PADDING_BYTE));
}

#[test]
fn bad_records_stop_or_are_skipped_and_counted() {
    let dir = TempDir::new("skip");
    let mut records = game_records(12);
    records[3].game_result = 2;
    records[5].mv = nnue_core::packed::SfMove::NONE;
    records[7].sfen.0[0] ^= 0x7E; // move the white king onto another square
    let path = dir.path("bad.bin");
    write_bin(&path, &records);

    let strict = BinReader::open(&[&path], ReaderOptions::default()).expect("open");
    let results: Vec<_> = strict.iter().collect();
    assert_eq!(results.len(), 4, "stops after the first error");
    let err = results[3]
        .as_ref()
        .expect_err("record 3 is bad")
        .to_string();
    assert!(
        err.contains("bad.bin: record 3: game result 2 outside -1..1"),
        "{err}"
    );
    match strict.get(5) {
        Err(DataError::BadRecord {
            index: 5,
            reason: RecordError::Move(MoveError::MoveNone),
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        strict.get(7),
        Err(DataError::BadRecord {
            index: 7,
            reason: RecordError::Sfen(_),
            ..
        })
    ));

    let lenient = BinReader::open(
        &[&path],
        ReaderOptions {
            skip_invalid: true,
            policy: RecordPolicy {
                allow_move_none: true,
            },
        },
    )
    .expect("open");
    let mut it = lenient.iter();
    let good: Vec<_> = it.by_ref().map(|r| r.expect("skipping")).collect();
    assert_eq!(good.len(), 10);
    assert_eq!(it.skipped(), 2);
    assert!(good.iter().any(|r| r.mv.is_none()));
}

#[test]
fn truncated_file_names_file_and_record() {
    let dir = TempDir::new("trunc");
    let path = dir.path("cut.bin");
    let mut bytes: Vec<u8> = game_records(4).iter().flat_map(|r| r.to_bytes()).collect();
    bytes.truncate(3 * 40 + 17);
    std::fs::write(&path, &bytes).expect("write");
    let err = BinReader::open(&[&path], ReaderOptions::default())
        .err()
        .expect("error");
    assert!(matches!(
        err,
        DataError::Truncated {
            index: 3,
            trailing: 17,
            ..
        }
    ));
    assert!(err.to_string().contains("cut.bin: record 3: truncated"));
    let lenient = BinReader::open(
        &[&path],
        ReaderOptions {
            skip_invalid: true,
            ..Default::default()
        },
    )
    .expect("open");
    assert_eq!((lenient.len(), lenient.truncated_tails()), (3, 1));
    // Appending after a cut-off record would misalign everything: refused.
    assert!(matches!(
        BinWriter::append(&path),
        Err(DataError::Truncated { index: 3, .. })
    ));
}

#[test]
fn writer_appends_whole_records() {
    let dir = TempDir::new("append");
    let path = dir.path("out.bin");
    let records = game_records(9);
    write_bin(&path, &records[..4]);
    let mut w = BinWriter::append(&path).expect("append");
    w.write_all(&records[4..]).expect("write");
    w.flush().expect("flush");
    assert_eq!(std::fs::metadata(&path).expect("meta").len(), 9 * 40);
    drop(w);
    let reader = BinReader::open(&[&path], ReaderOptions::default()).expect("open");
    let all: Vec<_> = reader.iter_raw().map(|(_, r)| r).collect();
    assert_eq!(all, records);
}

#[test]
fn sfen_errors_show_in_record_messages() {
    let mut rec = game_records(1)[0];
    rec.sfen.0[0] = 0; // both kings on a1
    rec.sfen.0[1] = 0;
    let err = nnue_core::data::decode_fast(&rec, RecordPolicy::default()).expect_err("bad");
    assert_eq!(
        err,
        RecordError::Sfen(SfenError::KingsOnSameSquare(shakmaty::Square::A1))
    );
}

#[test]
fn a_directory_is_refused_by_name_by_both_readers() {
    let dir = TempDir::new("isdir");
    let sub = dir.path("data.bin");
    std::fs::create_dir(&sub).expect("mkdir");
    let want = format!("{}: is a directory, not a data file", sub.display());
    let err = BinReader::open(&[&sub], ReaderOptions::default())
        .err()
        .expect("a directory is no .bin");
    assert_eq!(err.to_string(), want);
    let err = nnue_core::data::PlainReader::open(&sub)
        .err()
        .expect("a directory is no .plain");
    assert_eq!(err.to_string(), want);
}

#[test]
fn reading_nothing_has_one_message() {
    let err = DataError::no_records(&[Path::new("a.bin"), Path::new("b.plain")], 3);
    assert_eq!(
        err.to_string(),
        "no records read from a.bin, b.plain (3 invalid skipped)"
    );
}

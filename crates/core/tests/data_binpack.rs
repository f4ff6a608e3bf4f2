//! `.binpack`: byte-exact with Stockfish's tools in both directions, round
//! trips, and clear errors (never a panic) on truncated or corrupt files.
//!
//! `tests/data/sf_tools_sample.*` were written by Stockfish's tools branch
//! (see `tests/data/README.md`).

use std::path::Path;

use nnue_core::data::{
    BinpackReader, BinpackWriter, ChunkError, DataError, DataFormat, DataLocation, ReaderOptions,
    RecordError, RecordPolicy, StoreError, TrainingDataReader, TrainingDataWriter, Validation,
};
use nnue_core::packed::{GameResult, MoveError, PackedSfen, PackedSfenValue, SfMove, PADDING_BYTE};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{Chess, Color, Position};

use nnue_test_support::test_data as data;
use nnue_test_support::TempDir;

fn decode_all(reader: &BinpackReader) -> Result<Vec<PackedSfenValue>, DataError> {
    reader
        .entries(RecordPolicy::default())
        .map(|e| e.map(|(_, raw, _)| raw))
        .collect()
}

#[test]
fn binpack_to_bin_gives_stockfish_bytes() {
    let reader = BinpackReader::open(data("sf_tools_sample.binpack")).expect("open");
    let records = decode_all(&reader).expect("valid file");
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
    let expected = std::fs::read(data("sf_tools_sample.bin")).expect("bin");
    assert_eq!(records.len(), 3000);
    for (i, (a, b)) in bytes.chunks(40).zip(expected.chunks(40)).enumerate() {
        assert_eq!(a, b, "record {i}");
    }
    assert_eq!(bytes, expected);
}

#[test]
fn bin_to_binpack_gives_stockfish_bytes() {
    let dir = TempDir::new("binpack-to-binpack");
    let out = dir.path("out.binpack");
    let bin = std::fs::read(data("sf_tools_sample.bin")).expect("bin");
    let mut writer = BinpackWriter::create(&out).expect("create");
    for chunk in bin.chunks_exact(40) {
        writer
            .write(&PackedSfenValue::from_slice(chunk).expect("40 bytes"))
            .expect("write");
    }
    assert_eq!(writer.finish().expect("finish"), 3000);
    let expected = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    assert_eq!(std::fs::read(&out).expect("out"), expected);
}

/// Converts `input` to `output` through the by-extension interfaces.
fn convert(input: &Path, output: &Path, validation: Validation) -> u64 {
    let reader = TrainingDataReader::open(input, ReaderOptions::default()).expect("open input");
    let mut writer = TrainingDataWriter::create(output).expect("create output");
    for record in reader.records(validation).expect("records") {
        writer
            .write(&record.expect("valid record").raw)
            .expect("write");
    }
    writer.finish().expect("finish")
}

#[test]
fn binpack_to_plain_gives_stockfish_text() {
    let dir = TempDir::new("binpack-to-plain");
    let out = dir.path("out.plain");
    let n = convert(&data("sf_tools_sample.binpack"), &out, Validation::Full);
    assert_eq!(n, 3000);
    let expected = std::fs::read(data("sf_tools_sample.plain")).expect("plain");
    assert!(std::fs::read(&out).expect("out") == expected);
}

#[test]
fn plain_to_binpack_gives_stockfish_bytes() {
    let dir = TempDir::new("binpack-plain-to-binpack");
    let out = dir.path("out.binpack");
    assert_eq!(
        convert(&data("sf_tools_sample.plain"), &out, Validation::Fast),
        3000
    );
    let expected = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    assert!(std::fs::read(&out).expect("out") == expected);
}

#[test]
fn unified_reader_names_binpack_locations() {
    let reader =
        TrainingDataReader::open(data("sf_tools_sample.binpack"), ReaderOptions::default())
            .expect("open");
    assert_eq!(reader.format(), DataFormat::Binpack);
    let records: Vec<_> = reader
        .records(Validation::Fast)
        .expect("records")
        .collect::<Result<_, _>>()
        .expect("valid");
    assert_eq!(records.len(), 3000);
    let last = records.last().expect("records").location;
    assert_eq!(last.to_string(), "chunk 0 at byte 0, entry 2999");
    assert!(matches!(last, DataLocation::Entry(l) if l.entry == 2999));
    // The first entry is the first record of Stockfish's .plain.
    assert_eq!(
        records[0].record.position.fen(),
        "r1bqkb1r/ppp1npp1/2n5/6P1/Q2p3p/5P1N/PPP1P2P/RNB1KB1R w KQkq - 1 9"
    );
    assert_eq!(records[0].record.mv.to_uci(), "b1d2");
    assert_eq!(records[0].record.score, -476);
    assert_eq!(records[0].record.game_ply, 16);
}

/// `games` random games from the start position (seeded), each stored as
/// consecutive records: score random, result from a random game outcome,
/// seen from each side to move (so consecutive records chain).
fn random_games(seed: u64, games: usize) -> Vec<PackedSfenValue> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let white_result = match rng.next_u64() % 3 {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            _ => GameResult::Win,
        };
        let mut pos = Chess::default();
        for ply in 0..(20 + rng.next_u64() % 200) as u16 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let score = (rng.next_u64() % 8001) as i16 - 4000;
            let result = if pos.turn() == Color::White {
                white_result
            } else {
                white_result.flip()
            };
            out.push(PackedSfenValue::new(&pos, score, &m, ply, result));
            pos.play_unchecked(m);
        }
    }
    out
}

fn write_binpack(path: &Path, records: &[PackedSfenValue]) -> u64 {
    let mut writer = TrainingDataWriter::create(path).expect("create");
    writer.write_all(records).expect("write");
    writer.finish().expect("finish")
}

fn read_binpack(path: &Path) -> Vec<PackedSfenValue> {
    decode_all(&BinpackReader::open(path).expect("open")).expect("valid")
}

#[test]
fn random_games_round_trip_exactly() {
    let dir = TempDir::new("binpack-round-trip");
    let records = random_games(7, 60);
    let path = dir.path("games.binpack");
    assert_eq!(write_binpack(&path, &records), records.len() as u64);
    assert_eq!(read_binpack(&path), records);
    let size = std::fs::metadata(&path).expect("size").len();
    // Chained games cost a few bytes per position, not 40.
    assert!(
        size * 8 < records.len() as u64 * 40,
        "{size} bytes for {} records",
        records.len()
    );
}

/// `.binpack` stores no fullmove number and no padding: reading derives the
/// fullmove from the game ply (`ply / 2 + 1`, as Stockfish's library does)
/// and writes padding 0xFF (as Stockfish's `convert` does).
fn as_binpack_stores_it(record: &PackedSfenValue) -> PackedSfenValue {
    let mut fields = record.sfen.decode().expect("valid");
    fields.fullmove = record.game_ply / 2 + 1;
    PackedSfenValue {
        sfen: PackedSfen::encode(&fields),
        padding: PADDING_BYTE,
        ..*record
    }
}

#[test]
fn sample_bin_round_trips_up_to_fullmove_and_padding() {
    let dir = TempDir::new("binpack-sample");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/sample.bin");
    let bin = std::fs::read(&sample).expect("data/sample.bin");
    let records: Vec<_> = bin
        .chunks_exact(40)
        .map(|c| PackedSfenValue::from_slice(c).expect("40 bytes"))
        .collect();
    let binpack = dir.path("sample.binpack");
    let back = dir.path("back.bin");
    assert_eq!(convert(&sample, &binpack, Validation::Full), 106);
    assert_eq!(convert(&binpack, &back, Validation::Full), 106);
    let expected: Vec<u8> = records
        .iter()
        .flat_map(|r| as_binpack_stores_it(r).to_bytes())
        .collect();
    assert!(std::fs::read(&back).expect("back") == expected);
}

fn start_record(ply: u16, mv: SfMove) -> PackedSfenValue {
    let pos = Chess::default();
    PackedSfenValue {
        sfen: PackedSfen::from_position(&pos),
        score: 0,
        mv,
        game_ply: ply,
        game_result: 0,
        padding: PADDING_BYTE,
    }
}

#[test]
fn writer_refuses_what_binpack_cannot_hold() {
    let dir = TempDir::new("binpack-refuse");
    let path = dir.path("x.binpack");
    let mut writer = BinpackWriter::create(&path).expect("create");
    let e2e4 = SfMove::from_uci("e2e4", &Chess::default()).expect("e2e4");
    let err = writer.write(&start_record(16384, e2e4)).expect_err("ply");
    assert!(matches!(
        err,
        DataError::Unstorable {
            index: 0,
            reason: StoreError::PlyTooLarge(16384),
            ..
        }
    ));
    let err = writer
        .write(&start_record(0, SfMove::NONE))
        .expect_err("none");
    assert!(matches!(
        err,
        DataError::Unstorable {
            reason: StoreError::Record(RecordError::Move(MoveError::MoveNone)),
            ..
        }
    ));
    assert!(err
        .to_string()
        .starts_with(&format!("{}: record 0: ", path.display())));
    writer.write(&start_record(16383, e2e4)).expect("max ply");
    assert_eq!(writer.finish().expect("finish"), 1);
    assert_eq!(read_binpack(&path)[0].game_ply, 16383);
}

#[test]
fn append_adds_chunks_to_whole_files_only() {
    let dir = TempDir::new("binpack-append");
    let path = dir.path("a.binpack");
    let games = random_games(3, 4);
    let (first, second) = games.split_at(games.len() / 2);
    write_binpack(&path, first);
    let mut writer = TrainingDataWriter::append(&path).expect("append");
    writer.write_all(second).expect("write");
    writer.finish().expect("finish");
    assert_eq!(read_binpack(&path), games);

    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("cut");
    let err = TrainingDataWriter::append(&path).err().expect("cut file");
    assert!(matches!(
        err,
        DataError::BadChunk {
            reason: ChunkError::Truncated { .. },
            ..
        }
    ));
}

fn decode_bytes(bytes: Vec<u8>) -> Result<Vec<PackedSfenValue>, DataError> {
    decode_all(&BinpackReader::from_bytes(bytes, "bad.binpack"))
}

fn chunk_error(bytes: Vec<u8>) -> (u64, u64, ChunkError) {
    match decode_bytes(bytes) {
        Err(DataError::BadChunk {
            chunk,
            offset,
            reason,
            ..
        }) => (chunk, offset, reason),
        other => panic!("expected a chunk error, got {other:?}"),
    }
}

#[test]
fn empty_file_has_no_records() {
    assert_eq!(decode_bytes(Vec::new()).expect("empty"), Vec::new());
}

#[test]
fn truncated_files_are_errors_naming_file_and_chunk() {
    let bytes = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    for cut in (1..bytes.len())
        .step_by(97)
        .chain([1, 7, 8, 9, bytes.len() - 1])
    {
        let (chunk, offset, reason) = chunk_error(bytes[..cut].to_vec());
        assert_eq!((chunk, offset), (0, 0), "cut at {cut}");
        let expected = if cut < 8 {
            ChunkError::TruncatedHeader(cut as u64)
        } else {
            ChunkError::Truncated {
                size: 8768,
                available: cut as u64 - 8,
            }
        };
        assert_eq!(reason, expected, "cut at {cut}");
    }
    // A second chunk cut off names its own index and offset.
    let mut two = bytes.clone();
    two.extend_from_slice(&bytes[..100]);
    let (chunk, offset, _) = chunk_error(two.clone());
    assert_eq!((chunk, offset), (1, 8776));
    let err = decode_bytes(two).expect_err("cut");
    assert_eq!(
        err.to_string(),
        "bad.binpack: chunk 1 at byte 8776: truncated file: the header announces 8768 bytes but only 92 remain"
    );
}

#[test]
fn bad_headers_are_errors() {
    let bytes = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    let mut magic = bytes.clone();
    magic[3] = b'X';
    assert_eq!(chunk_error(magic).2, ChunkError::BadMagic(*b"BINX"));
    let mut huge = bytes.clone();
    huge[4..8].copy_from_slice(&(200u32 << 20).to_le_bytes());
    assert_eq!(chunk_error(huge).2, ChunkError::TooLarge(200 << 20));
    let mut garbage = bytes;
    garbage.extend_from_slice(b"trailing");
    let (chunk, offset, reason) = chunk_error(garbage);
    assert_eq!((chunk, offset), (1, 8776));
    assert_eq!(reason, ChunkError::BadMagic(*b"trai"));
}

/// Bit flips in the chains: every one decodes or gives a chunk error,
/// never a panic. Flips in scores cannot be detected (the format has no
/// checksum); flips in positions and moves mostly can, either as an
/// invalid entry or as move text the decoder cannot follow.
#[test]
fn bit_flips_never_panic() {
    let bytes = std::fs::read(data("sf_tools_sample.binpack")).expect("binpack");
    let (mut bad_entry, mut corrupt_text, mut undetected) = (0, 0, 0);
    for i in (8..bytes.len()).step_by(7) {
        let mut flipped = bytes.clone();
        flipped[i] ^= 1 << (i % 8);
        match decode_bytes(flipped) {
            Ok(records) => {
                assert_eq!(records.len(), 3000, "flip at {i}");
                undetected += 1;
            }
            Err(DataError::BadChunk { reason, .. }) => match reason {
                ChunkError::BadEntry { .. } => bad_entry += 1,
                ChunkError::CorruptMoveText { .. } => corrupt_text += 1,
                other => panic!("flip at {i}: {other}"),
            },
            Err(other) => panic!("flip at {i}: {other}"),
        }
    }
    assert!(bad_entry > 0 && corrupt_text > 0 && undetected > 0);
    assert_eq!(
        bad_entry + corrupt_text + undetected,
        (bytes.len() - 8).div_ceil(7)
    );
}

/// The learner sees the same records whichever of Stockfish's files it
/// reads, so training on either gives the same weights.
#[test]
fn binpack_and_bin_give_the_same_training_records() {
    let read = |ext: &str| -> Vec<_> {
        let reader = TrainingDataReader::open(
            data(&format!("sf_tools_sample.{ext}")),
            ReaderOptions::default(),
        )
        .expect("open");
        reader
            .records(Validation::Full)
            .expect("records")
            .map(|r| {
                let r = r.expect("valid");
                (r.raw, r.record)
            })
            .collect()
    };
    let packed = read("binpack");
    assert_eq!(packed.len(), 3000);
    assert_eq!(packed, read("bin"));
    assert_eq!(packed, read("plain"));
}

/// Generator threads share one writer behind a mutex.
#[test]
fn writers_and_readers_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<TrainingDataWriter>();
    send::<BinpackWriter>();
    send::<TrainingDataReader>();
    send::<BinpackReader>();
}

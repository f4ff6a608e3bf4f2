//! viriformat (`.vf`), marlinformat (`.mf`) and bulletformat (`.bf`) against
//! their reference implementations, the published `viriformat` 3.0.0 and
//! `bulletformat` 1.8.0 crates: from the records of Stockfish's
//! `sf_tools_sample.binpack`, grouped into games (a run of consecutive
//! records each reached from the one before by its stored move, with the
//! same result), our writers give exactly the bytes those crates write
//! (viriformat's `Game`, its `splat_to_marlinformat` and
//! `splat_to_bulletformat`), and what they wrote reads back into the same
//! positions, moves, scores and results.
//!
//! The crates' output is also kept in `tests/data/sf_tools_sample.{vf,mf,bf}`
//! (see tests/data/README.md); `cargo test -p nnue-core --test
//! foreign_formats -- --ignored` writes those files again.

use std::ops::Range;

use bulletformat::{BulletFormat, ChessBoard};
use nnue_core::data::{
    decode_full, DataFormat, ReaderOptions, RecordPolicy, TrainingDataReader, TrainingDataWriter,
    TrainingRecord, ValidatedRecord, Validation,
};
use nnue_core::packed::{CastlingFlags, DecodedSfen, GameResult, PackedSfenValue, SfMove};
use nnue_test_support::{test_data, test_data_bytes, TempDir};
use shakmaty::fen::Fen;
use shakmaty::{Board, CastlingMode, Color, EnPassantMode, Piece, Position};
use viriformat::chess::board::{Board as ViriBoard, DrawType, GameOutcome, WinType};
use viriformat::dataformat::{Filter, Game};

/// The sample's records, fully validated, in file order.
fn sample() -> Vec<(PackedSfenValue, ValidatedRecord)> {
    let path = test_data("sf_tools_sample.binpack");
    let reader = TrainingDataReader::open(path, ReaderOptions::default()).expect("open");
    let records = reader.records(Validation::Full).expect("records");
    records
        .map(|r| {
            let raw = r.expect("valid sample").raw;
            (
                raw,
                decode_full(&raw, RecordPolicy::default()).expect("full"),
            )
        })
        .collect()
}

/// FEN in shakmaty's own printing (en passant where a pawn attacks it).
fn fen(pos: &shakmaty::Chess) -> String {
    Fen::from_position(pos, EnPassantMode::PseudoLegal).to_string()
}

/// The game result from White's view (+1 White won).
fn white_result(r: &ValidatedRecord) -> i8 {
    match r.chess.turn() {
        Color::White => r.record.result.to_i8(),
        Color::Black => -r.record.result.to_i8(),
    }
}

/// Runs of records each reached from the one before by its stored move,
/// with the same result.
fn games(records: &[(PackedSfenValue, ValidatedRecord)]) -> Vec<Range<usize>> {
    let mut runs: Vec<Range<usize>> = Vec::new();
    for i in 0..records.len() {
        let follows = i > 0 && {
            let (_, prev) = &records[i - 1];
            let mut next = prev.chess.clone();
            next.play_unchecked(prev.best_move.expect("move"));
            fen(&next) == fen(&records[i].1.chess)
                && white_result(prev) == white_result(&records[i].1)
        };
        match runs.last_mut() {
            Some(run) if follows => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    runs
}

/// viriformat's `Game` of one run, built through its own FEN parser and
/// move generator.
fn reference_game(records: &[(PackedSfenValue, ValidatedRecord)]) -> Game {
    let first = &records[0].1;
    let mut board = ViriBoard::new();
    board
        .set_from_fen(&fen(&first.chess), false)
        .expect("viriformat fen");
    let mut game = Game::new(&board);
    game.set_outcome(match white_result(first) {
        1 => GameOutcome::WhiteWin(WinType::Mate),
        -1 => GameOutcome::BlackWin(WinType::Mate),
        _ => GameOutcome::Draw(DrawType::Adjudication),
    });
    for (_, r) in records {
        let uci = r
            .best_move
            .as_ref()
            .expect("move")
            .to_uci(CastlingMode::Standard)
            .to_string();
        let mv = board
            .legal_moves()
            .into_iter()
            .find(|m| m.display(false).to_string() == uci)
            .expect("viriformat has the move");
        let score = match r.chess.turn() {
            Color::White => r.record.score,
            Color::Black => -r.record.score,
        };
        game.add_move(mv, score);
        assert!(board.make_move_simple(mv));
    }
    game
}

/// The three files the reference crates write from the sample.
struct Reference {
    vf: Vec<u8>,
    mf: Vec<u8>,
    bf: Vec<u8>,
}

fn reference(records: &[(PackedSfenValue, ValidatedRecord)]) -> Reference {
    let (mut vf, mut mf, mut boards) = (Vec::new(), Vec::new(), Vec::<ChessBoard>::new());
    for run in games(records) {
        let game = reference_game(&records[run]);
        game.serialise_into(&mut vf).expect("serialise");
        let unrestricted = Filter::UNRESTRICTED;
        game.splat_to_marlinformat(
            |b| {
                mf.extend_from_slice(&b.as_bytes());
                Ok(())
            },
            &unrestricted,
        )
        .expect("mf");
        game.splat_to_bulletformat(
            |b| {
                boards.push(b);
                Ok(())
            },
            &unrestricted,
        )
        .expect("bf");
    }
    let bf = ChessBoard::as_bytes_slice(&boards).to_vec();
    Reference { vf, mf, bf }
}

/// Our writer's bytes for `records` in `format`.
fn ours(records: &[(PackedSfenValue, ValidatedRecord)], format: DataFormat) -> Vec<u8> {
    let dir = TempDir::new("foreign-ours");
    let path = dir.path(&format!("out.{}", format.extension()));
    let mut writer = TrainingDataWriter::create(&path).expect("create");
    for (raw, _) in records {
        writer.write(raw).expect("write");
    }
    assert_eq!(writer.finish().expect("finish"), records.len() as u64);
    std::fs::read(&path).expect("read back")
}

/// The records our reader gives for `bytes` read as `format`.
fn read(bytes: &[u8], format: DataFormat) -> Vec<TrainingRecord> {
    let dir = TempDir::new("foreign-read");
    let path = dir.path(&format!("in.{}", format.extension()));
    std::fs::write(&path, bytes).expect("write");
    let reader = TrainingDataReader::open(&path, ReaderOptions::default()).expect("open");
    let records = reader.records(Validation::Full).expect("records");
    records.map(|r| r.expect("reads").record).collect()
}

/// The position as bulletformat sees it: the side to move as White at the
/// bottom, no castling, en passant or clocks.
fn stm_view(position: &DecodedSfen) -> DecodedSfen {
    let mut board = Board::empty();
    for (sq, piece) in position.board.clone() {
        let (sq, color) = match position.turn {
            Color::White => (sq, piece.color),
            Color::Black => (sq.flip_vertical(), !piece.color),
        };
        board.set_piece_at(
            sq,
            Piece {
                color,
                role: piece.role,
            },
        );
    }
    DecodedSfen {
        board,
        turn: Color::White,
        castling: CastlingFlags::NONE,
        ep_square: None,
        rule50: 0,
        fullmove: 1,
    }
}

#[test]
fn our_writers_give_the_reference_crates_bytes() {
    let records = sample();
    let reference = reference(&records);
    assert_eq!(ours(&records, DataFormat::Viri), reference.vf, "viriformat");
    assert_eq!(
        ours(&records, DataFormat::Marlin),
        reference.mf,
        "marlinformat"
    );
    assert_eq!(
        ours(&records, DataFormat::Bullet),
        reference.bf,
        "bulletformat"
    );
}

#[test]
fn kept_reference_files_are_the_crates_output() {
    let reference = reference(&sample());
    assert_eq!(test_data_bytes("sf_tools_sample.vf"), reference.vf);
    assert_eq!(test_data_bytes("sf_tools_sample.mf"), reference.mf);
    assert_eq!(test_data_bytes("sf_tools_sample.bf"), reference.bf);
}

#[test]
fn viriformat_written_by_the_crate_reads_back_every_field() {
    let records = sample();
    let back = read(&test_data_bytes("sf_tools_sample.vf"), DataFormat::Viri);
    assert_eq!(back.len(), records.len());
    for (i, ((_, want), got)) in records.iter().zip(&back).enumerate() {
        assert_eq!(got, &want.record, "record {i}");
    }
}

#[test]
fn marlinformat_written_by_the_crate_reads_back_positions_scores_results() {
    let records = sample();
    let back = read(&test_data_bytes("sf_tools_sample.mf"), DataFormat::Marlin);
    assert_eq!(back.len(), records.len());
    for (i, ((_, want), got)) in records.iter().zip(&back).enumerate() {
        let want = &want.record;
        assert_eq!(got.position, want.position, "record {i}");
        assert_eq!(
            (got.score, got.result),
            (want.score, want.result),
            "record {i}"
        );
        assert_eq!(got.game_ply, want.game_ply, "record {i}");
        assert_eq!(got.mv, SfMove::NONE, "record {i}");
    }
}

#[test]
fn bulletformat_written_by_the_crate_reads_back_side_to_move_views() {
    let records = sample();
    let back = read(&test_data_bytes("sf_tools_sample.bf"), DataFormat::Bullet);
    assert_eq!(back.len(), records.len());
    for (i, ((_, want), got)) in records.iter().zip(&back).enumerate() {
        let want = &want.record;
        assert_eq!(got.position, stm_view(&want.position), "record {i}");
        assert_eq!(
            (got.score, got.result),
            (want.score, want.result),
            "record {i}"
        );
    }
}

#[test]
fn results_and_scores_change_perspective_as_the_crates_do() {
    // Every result and both sides to move occur in the sample.
    let records = sample();
    let seen = |turn, result| {
        records
            .iter()
            .any(|(_, r)| r.chess.turn() == turn && r.record.result == result)
    };
    for turn in [Color::White, Color::Black] {
        for result in [GameResult::Win, GameResult::Draw, GameResult::Loss] {
            assert!(seen(turn, result), "{turn:?} {result:?}");
        }
    }
}

/// `--filter-preset viriformat` keeps exactly the positions viriformat's own
/// `Filter::default()` keeps, game by game (its `splat_to_marlinformat` with
/// that filter, against our preset then our marlinformat writer): the same
/// ply, piece-count, score, tactical-move and check rules, and castling, which
/// viriformat writes as the king taking its rook, is not taken for a capture.
#[test]
fn viriformat_preset_keeps_what_viriformats_default_filter_keeps() {
    use nnue_core::data::filter::{Filter as OurFilter, FilterPreset};
    use nnue_core::packed::MoveKind;
    let records = sample();
    let mut reference = Vec::new();
    for run in games(&records) {
        let game = reference_game(&records[run]);
        game.splat_to_marlinformat(
            |b| {
                reference.extend_from_slice(&b.as_bytes());
                Ok(())
            },
            &Filter::default(),
        )
        .expect("mf");
    }
    let preset = FilterPreset::Viriformat.apply(OurFilter::default());
    let kept: Vec<_> = records
        .iter()
        .enumerate()
        .filter(|(i, (_, r))| preset.accepts(&r.record, *i as u64))
        .map(|(_, r)| r.clone())
        .collect();
    assert_eq!(kept.len(), 2160);
    assert_eq!(ours(&kept, DataFormat::Marlin), reference);
    let castles = |rs: &[(PackedSfenValue, ValidatedRecord)]| {
        let castling =
            |r: &&(PackedSfenValue, ValidatedRecord)| r.1.record.mv.kind() == MoveKind::Castling;
        rs.iter().filter(castling).count()
    };
    // Every one of the sample's 29 castling best moves is kept.
    assert_eq!((castles(&records), castles(&kept)), (29, 29));
}

/// Writes the reference crates' output to tests/data (run with --ignored).
#[test]
#[ignore = "rewrites tests/data/sf_tools_sample.{vf,mf,bf} from the reference crates"]
fn write_reference_files() {
    let reference = reference(&sample());
    for (ext, bytes) in [
        ("vf", &reference.vf),
        ("mf", &reference.mf),
        ("bf", &reference.bf),
    ] {
        std::fs::write(test_data(&format!("sf_tools_sample.{ext}")), bytes).expect("write");
    }
}

#[test]
fn sample_covers_every_move_kind_castling_rights_and_en_passant() {
    use nnue_core::packed::MoveKind;
    let records = sample();
    let count = |f: &dyn Fn(&ValidatedRecord) -> bool| records.iter().filter(|(_, r)| f(r)).count();
    assert_eq!(count(&|r| r.record.mv.kind() == MoveKind::Castling), 29);
    assert_eq!(count(&|r| r.record.mv.kind() == MoveKind::EnPassant), 3);
    assert_eq!(count(&|r| r.record.mv.kind() == MoveKind::Promotion), 11);
    assert_eq!(count(&|r| r.record.position.castling.bits() != 0), 568);
    assert_eq!(count(&|r| r.record.position.ep_square.is_some()), 5);
    assert_eq!(games(&records).len(), 87);
}

//! End-to-end viriformat (`.vf`), marlinformat (`.mf`) and bulletformat
//! (`.bf`) support of the real `nnue-gen-sfen` binary: `convert` of
//! Stockfish's `.binpack` gives the files the reference crates wrote
//! (`tests/data/README.md`), and back again gives the same positions,
//! scores and results, game by game.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use nnue_core::data::{
    ReaderOptions, RecordPolicy, TrainingDataReader, TrainingRecord, Validation,
};
use nnue_core::packed::{CastlingFlags, DecodedSfen, SfMove};
use nnue_gensfen::stats::stats;
use shakmaty::{Board, Color, Piece};

use common::{p, run, temp_dir};

fn sf(ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/sf_tools_sample.{ext}"))
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The one line of a failed run's standard error.
fn error_line(out: &Output) -> String {
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.lines().count(), 1, "one-line error expected: {text:?}");
    text.trim_end().to_owned()
}

/// Every record of `path`, moves optional.
fn records(path: &Path) -> Vec<TrainingRecord> {
    let options = ReaderOptions {
        policy: RecordPolicy {
            allow_move_none: true,
        },
        ..ReaderOptions::default()
    };
    let reader = TrainingDataReader::open(path, options).expect("open");
    let records = reader.records(Validation::Full).expect("records");
    records.map(|r| r.expect("valid").record).collect()
}

#[test]
fn binpack_converts_to_the_reference_crates_bytes() {
    let dir = temp_dir("foreign-exact");
    for ext in ["vf", "mf", "bf"] {
        let out = dir.join(format!("x.{ext}"));
        assert_ok(&run(&["convert", p(&sf("binpack")), p(&out)]));
        let got = std::fs::read(&out).expect("output");
        assert!(got == std::fs::read(sf(ext)).expect("reference"), "{ext}");
    }
}

#[test]
fn viriformat_round_trip_gives_back_stockfish_binpack_byte_for_byte() {
    let dir = temp_dir("foreign-vf");
    let vf = dir.join("x.vf");
    let back = dir.join("back.binpack");
    assert_ok(&run(&["convert", p(&sf("binpack")), p(&vf)]));
    assert_ok(&run(&["convert", p(&vf), p(&back), "--validate"]));
    // Every game's positions, moves, scores, plies and results survive, so
    // the chained .binpack is Stockfish's own file again.
    assert!(std::fs::read(&back).expect("back") == std::fs::read(sf("binpack")).expect("sf"));
    assert_eq!(records(&vf), records(&sf("binpack")));
}

#[test]
fn marlinformat_round_trip_keeps_positions_scores_results_and_plies() {
    let dir = temp_dir("foreign-mf");
    let mf = dir.join("x.mf");
    let bin = dir.join("back.bin");
    assert_ok(&run(&["convert", p(&sf("binpack")), p(&mf)]));
    assert_ok(&run(&["convert", p(&mf), p(&bin), "--allow-move-none"]));
    let original = records(&sf("binpack"));
    let back = records(&bin);
    assert_eq!(back.len(), original.len());
    for (i, (got, want)) in back.iter().zip(&original).enumerate() {
        assert_eq!(got.position, want.position, "record {i}");
        let fields = (got.score, got.result, got.game_ply);
        assert_eq!(
            fields,
            (want.score, want.result, want.game_ply),
            "record {i}"
        );
        assert_eq!(
            got.mv,
            SfMove::NONE,
            "record {i}: marlinformat stores no move"
        );
    }
}

/// A position as bulletformat holds it: the side to move as White.
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
fn bulletformat_round_trip_keeps_side_to_move_views_scores_and_results() {
    let dir = temp_dir("foreign-bf");
    let bf = dir.join("x.bf");
    let plain = dir.join("back.plain");
    assert_ok(&run(&["convert", p(&sf("binpack")), p(&bf)]));
    assert_ok(&run(&["convert", p(&bf), p(&plain), "--allow-move-none"]));
    let original = records(&sf("binpack"));
    let back = records(&plain);
    assert_eq!(back.len(), original.len());
    for (i, (got, want)) in back.iter().zip(&original).enumerate() {
        assert_eq!(got.position, stm_view(&want.position), "record {i}");
        assert_eq!(
            (got.score, got.result),
            (want.score, want.result),
            "record {i}"
        );
    }
}

#[test]
fn a_format_without_moves_cannot_become_a_game_format() {
    let dir = temp_dir("foreign-no-moves");
    for (to, why) in [
        (
            "binpack",
            "cannot be written to .binpack: no move (MOVE_NONE)",
        ),
        ("vf", "cannot be written to .vf: no best move (MOVE_NONE)"),
    ] {
        let out = dir.join(format!("y.{to}"));
        let line = error_line(&run(&["convert", p(&sf("mf")), p(&out)]));
        assert!(line.contains("record 0: ") && line.contains(why), "{line}");
        assert!(!out.exists(), "no output after an error");
    }
}

#[test]
fn formats_are_named_where_the_extension_does_not_say() {
    let dir = temp_dir("foreign-named");
    // viriformat files in the wild are often called .bin or .binpack.
    let games = dir.join("games.bin");
    std::fs::copy(sf("vf"), &games).expect("copy");
    let back = dir.join("back.binpack");
    let line = error_line(&run(&["convert", p(&games), p(&back)]));
    assert!(
        line.contains("(the file looks like viriformat data, .vf)"),
        "{line}"
    );
    let named = [
        "convert",
        p(&games),
        p(&back),
        "--input-format",
        "viriformat",
    ];
    assert_ok(&run(&named));
    assert!(std::fs::read(&back).expect("back") == std::fs::read(sf("binpack")).expect("sf"));
    let boards = dir.join("boards.data");
    assert_ok(&run(&[
        "convert",
        p(&sf("binpack")),
        p(&boards),
        "--output-format",
        "mf",
    ]));
    assert!(std::fs::read(&boards).expect("mf") == std::fs::read(sf("mf")).expect("sf"));
    let unknown = ["convert", p(&games), p(&back), "--input-format", "pgn"];
    let out = run(&unknown);
    assert_eq!(out.status.code(), Some(2));
    assert!(error_line(&out).contains("unknown format \"pgn\""));
}

#[test]
fn stats_reads_every_format_with_the_same_results() {
    let want = stats(&[sf("binpack")], false).expect("binpack");
    for ext in ["vf", "mf", "bf"] {
        let got = stats(&[sf(ext)], false).expect(ext);
        assert_eq!(got.records, 3000, "{ext}");
        let results = (got.wins, got.draws, got.losses);
        assert_eq!(results, (want.wins, want.draws, want.losses), "{ext}");
        assert_eq!(got.score_histogram, want.score_histogram, "{ext}");
        assert_eq!(got.in_check, want.in_check, "{ext}");
    }
    assert_eq!(
        stats(&[sf("vf")], false).expect("vf").captures,
        want.captures
    );
    let dir = temp_dir("foreign-stats");
    let named = dir.join("boards.dat");
    std::fs::copy(sf("bf"), &named).expect("copy");
    let out = run(&["stats", p(&named), "--format", "bulletformat"]);
    assert_ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("records: 3000\n"));
}

#[test]
fn shuffle_takes_and_gives_the_new_formats() {
    let dir = temp_dir("foreign-shuffle");
    let out = dir.join("mixed.mf");
    assert_ok(&run(&[
        "shuffle",
        p(&sf("vf")),
        p(&sf("bin")),
        p(&out),
        "--seed",
        "1",
    ]));
    let got = stats(&[out], false).expect("stats");
    let want = stats(&[sf("vf"), sf("bin")], false).expect("stats");
    assert_eq!(got.records, 6000);
    assert_eq!(
        (got.wins, got.draws, got.losses),
        (want.wins, want.draws, want.losses)
    );
    assert_eq!(got.score_histogram, want.score_histogram);
}

#[test]
fn append_adds_whole_games_and_records_and_refuses_cut_files() {
    let dir = temp_dir("foreign-append");
    for ext in ["vf", "mf", "bf"] {
        let out = dir.join(format!("twice.{ext}"));
        std::fs::copy(sf(ext), &out).expect("copy");
        assert_ok(&run(&["convert", p(&sf("binpack")), p(&out), "--append"]));
        let want = std::fs::read(sf(ext)).expect("sample").repeat(2);
        assert!(std::fs::read(&out).expect("out") == want, "{ext}");
        let cut = dir.join(format!("cut.{ext}"));
        std::fs::write(&cut, &want[..want.len() - 3]).expect("write");
        let line = error_line(&run(&["convert", p(&sf("binpack")), p(&cut), "--append"]));
        assert!(line.contains(&format!("{}: ", cut.display())), "{line}");
        assert_eq!(
            std::fs::read(&cut).expect("cut").len(),
            want.len() - 3,
            "left as it was"
        );
    }
}

#[test]
fn rescale_multiplies_scores_and_refuses_ones_that_leave_16_bits() {
    let dir = temp_dir("foreign-rescale");
    let out = dir.join("half.vf");
    assert_ok(&run(&[
        "convert",
        p(&sf("binpack")),
        p(&out),
        "--rescale",
        "0.5",
    ]));
    let original = records(&sf("binpack"));
    let half = records(&out);
    for (i, (got, want)) in half.iter().zip(&original).enumerate() {
        let expected = (f64::from(want.score) * 0.5).round() as i16;
        assert_eq!(got.score, expected, "record {i}");
        assert_eq!(
            (&got.position, got.mv, got.result),
            (&want.position, want.mv, want.result)
        );
    }
    let big = dir.join("big.mf");
    let line = error_line(&run(&[
        "convert",
        p(&sf("binpack")),
        p(&big),
        "--rescale",
        "1000",
    ]));
    assert!(
        line.contains("times 1000 leaves the 16-bit score range"),
        "{line}"
    );
    assert!(!big.exists());
    let bad = run(&["convert", p(&sf("binpack")), p(&big), "--rescale", "-1"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `rescore` reads and writes the three formats: every position of the
/// reference crates' files gets the classical evaluation, every other field
/// (position, move, result, ply) is kept.
#[test]
fn rescore_reads_and_writes_the_new_formats() {
    use nnue_engine::eval::classical;
    use nnue_engine::search::score::EVAL_MAX;
    let dir = temp_dir("foreign-rescore");
    for ext in ["vf", "mf", "bf"] {
        let out = dir.join(format!("static.{ext}"));
        assert_ok(&run(&[
            "rescore",
            p(&sf(ext)),
            p(&out),
            "--static",
            "--quiet",
        ]));
        let (before, after) = (records(&sf(ext)), records(&out));
        assert_eq!(after.len(), 3000, "{ext}");
        let mut changed = 0;
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let pos = b.position.to_chess().expect("legal");
            let want = classical::evaluate(&pos).clamp(-EVAL_MAX, EVAL_MAX);
            assert_eq!(i32::from(a.score), want, "{ext} record {i}");
            let kept = |r: &TrainingRecord| (r.position.clone(), r.mv, r.result, r.game_ply);
            assert_eq!(kept(a), kept(b), "{ext} record {i}");
            changed += usize::from(a.score != b.score);
        }
        assert!(changed > 2500, "{ext}: {changed}");
    }
}

/// nnue-pytorch's preset (`--smart-fen-skipping --wld-fen-skipping`) through
/// `convert`: the records the shared filter keeps with `--skip-seed` as its
/// seed; a preset beside an option it sets is a usage error.
#[test]
fn convert_applies_nnue_pytorchs_wld_skipping() {
    use nnue_core::data::filter::{Filter, FilterPreset};
    let dir = temp_dir("foreign-wld");
    let out = dir.join("wld.bin");
    let args = ["--filter-preset", "nnue-pytorch", "--skip-seed", "5"];
    let vf = sf("vf");
    let run_args = [&["convert", p(&vf), p(&out)][..], &args[..]].concat();
    assert_ok(&run(&run_args));
    let preset = FilterPreset::NnuePytorch.apply(Filter {
        seed: 5,
        ..Filter::default()
    });
    let input = records(&sf("vf"));
    let numbered = input.iter().enumerate();
    let want: Vec<_> = numbered
        .filter(|(i, r)| preset.accepts(r, *i as u64))
        .map(|(_, r)| r.clone())
        .collect();
    assert_eq!(records(&out), want);
    assert_eq!(want.len(), 1665);
    let both = run(&[
        "convert",
        p(&sf("vf")),
        p(&dir.join("never.bin")),
        "--filter-preset",
        "bullet",
        "--wld-fen-skipping",
    ]);
    assert_eq!(both.status.code(), Some(2));
}

/// `convert` and `shuffle` apply the trainer's filter (one type, the same
/// options and presets): what they keep of the sample is exactly what the
/// filter accepts, in order for `convert`.
#[test]
fn convert_and_shuffle_keep_what_the_shared_filter_accepts() {
    use nnue_core::data::filter::{Filter, FilterPreset};
    let dir = temp_dir("foreign-filter");
    let input = records(&sf("vf"));
    let kept = |filter: &Filter| -> Vec<TrainingRecord> {
        let accepted = input.iter().enumerate();
        accepted
            .filter(|(i, r)| filter.accepts(r, *i as u64))
            .map(|(_, r)| r.clone())
            .collect()
    };
    let viri = dir.join("viri.bin");
    let out = run(&[
        "convert",
        p(&sf("vf")),
        p(&viri),
        "--filter-preset",
        "viriformat",
    ]);
    assert_ok(&out);
    let preset = FilterPreset::Viriformat.apply(Filter::default());
    assert_eq!(records(&viri), kept(&preset));
    assert_eq!(records(&viri).len(), 2160);
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(
        line.starts_with("converted 2160 records (0 invalid skipped, 840 filtered out)"),
        "{line}"
    );
    let random = dir.join("random.mf");
    let args = [
        "--random-fen-skipping",
        "3",
        "--skip-seed",
        "5",
        "--min-pieces",
        "6",
    ];
    assert_ok(&run(&[
        &["convert", p(&sf("vf")), p(&random)][..],
        &args[..],
    ]
    .concat()));
    let by_hand = Filter {
        random_fen_skipping: 3,
        seed: 5,
        min_pieces: 6,
        ..Filter::default()
    };
    let want = kept(&by_hand);
    let got = records(&random);
    assert_eq!(got.len(), want.len());
    assert!(got
        .iter()
        .zip(&want)
        .all(|(g, w)| g.position == w.position && g.score == w.score));
    let shuffled = dir.join("shuffled.bin");
    assert_ok(&run(&[
        "shuffle",
        p(&sf("bin")),
        p(&shuffled),
        "--filter-preset",
        "bullet",
    ]));
    let mut got: Vec<_> = records(&shuffled)
        .iter()
        .map(|r| r.position.fen())
        .collect();
    let bullet = FilterPreset::Bullet.apply(Filter::default());
    let mut want: Vec<_> = kept(&bullet).iter().map(|r| r.position.fen()).collect();
    got.sort();
    want.sort();
    assert_eq!((got.len(), got), (2149, want));
}

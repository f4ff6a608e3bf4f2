//! `generate --random-opening-plies` (verified random openings) and
//! `--soft-nodes` (the soft node limit), end to end and through the search
//! library.

mod common;

use common::{
    bin_records as records, generate_args as parse, generate_in_process as run, generate_twice,
    temp_dir, EVERY_POSITION,
};
use nnue_core::data::{decode_full, RecordPolicy};
use nnue_core::packed::PackedSfenValue;
use nnue_engine::eval::EvalKind;
use nnue_engine::search::{key, Limits, SearchControl, Searcher};
use nnue_gensfen::generate::opening::{
    OpeningChecker, PlyRange, RandomOpening, OPENING_ATTEMPTS_MAX, OPENING_CHECK_HASH_MB,
};
use nnue_gensfen::rng::{worker_seed, GenRng};
use shakmaty::{Chess, Color, Position};

/// Each game's first record (a ply not above the one before starts a game).
fn game_starts(recs: &[PackedSfenValue]) -> Vec<&PackedSfenValue> {
    let mut previous = None;
    let mut starts = Vec::new();
    for r in recs {
        if previous.is_none_or(|p| r.game_ply <= p) {
            starts.push(r);
        }
        previous = Some(r.game_ply);
    }
    starts
}

/// The verification score as the generator computes it: a fresh one-thread
/// searcher with the checker's table size, classical evaluation.
fn check_score(pos: &Chess, depth: u32) -> i32 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Searcher::new(OPENING_CHECK_HASH_MB, 1)
        .search(pos, &limits)
        .value
}

/// A seeded run from random openings of 8 or 9 plies, checked at depth 4 to
/// be within 60; with [`EVERY_POSITION`].
fn openings() -> Vec<&'static str> {
    let run = [
        "--loop", "1500", "--depth", "2", "--seed", "5", "--hash", "2",
    ];
    let openings = [
        "--random-opening-plies",
        "8-9",
        "--opening-check-depth",
        "4",
    ];
    let check = ["--opening-max-score", "60"];
    [&run[..], &openings, &check, EVERY_POSITION].concat()
}

#[test]
fn random_openings_are_reproducible_verified_and_not_written() {
    let (summary, recs) = generate_twice("openings", &openings());
    let starts = game_starts(&recs);
    // The seeded run's first game starts after exactly this many random plies:
    // the records begin at the game's real ply, not at 0.
    assert_eq!(starts[0].game_ply, 9, "first game's plies");
    // ... which is the opening the worker's seeded stream draws through the
    // library: same plies, same position.
    let settings = parse(&openings())
        .unwrap()
        .resolve(0)
        .unwrap()
        .random_opening
        .unwrap();
    let mut rng = GenRng::new(worker_seed(5, 0, 0));
    let first = OpeningChecker::new(settings, &EvalKind::Classical).draw(
        &Chess::default(),
        &mut rng,
        &SearchControl::default(),
    );
    assert_eq!((first.plies, first.fallback), (9, false));
    let v = decode_full(starts[0], RecordPolicy::default()).unwrap();
    assert_eq!(key(&v.chess), key(&first.position));
    for (i, r) in starts.iter().enumerate() {
        let v = decode_full(r, RecordPolicy::default()).unwrap();
        let plies = u32::from(r.game_ply);
        assert!((8..=9).contains(&plies), "game {i}: {plies}");
        // The position is that many plies from the start position.
        let white = if plies % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(v.chess.turn(), white, "game {i}");
        assert_eq!(v.chess.fullmoves().get(), 1 + plies / 2, "game {i}");
        let score = check_score(&v.chess, 4);
        assert!(score.abs() <= 60, "game {i}: {score}");
    }
    // Pinned counts: they follow the search (the games' lengths, the check's
    // values), re-pinned with issue 26's search improvements.
    assert_eq!(starts.len(), 16, "games");
    assert_eq!(
        (summary.opening_rejections, summary.opening_fallbacks),
        (20, 0)
    );
    let text = summary.to_string();
    assert!(
        text.contains(&format!(
            "random openings: {} rejected, 0 games from the base position after 64 rejections",
            summary.opening_rejections
        )),
        "{text}"
    );
}

#[test]
fn an_opening_no_draw_can_pass_falls_back_to_the_base_position() {
    let dir = temp_dir("openings-fallback");
    let book = dir.join("queen-up.epd");
    let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    std::fs::write(&book, format!("{fen}\n")).unwrap();
    let out = dir.join("f.bin");
    let run_args = [
        "--loop", "300", "--depth", "1", "--seed", "2", "--hash", "2",
    ];
    let book = ["--book", book.to_str().unwrap()];
    let openings = ["--random-opening-plies", "0", "--opening-check-depth", "1"];
    let summary = run(
        &out,
        &[&run_args[..], &book, &openings, EVERY_POSITION].concat(),
    );
    // A queen up is never within 200: every draw is rejected, every game starts
    // from the book position at ply 0.
    assert_eq!(summary.games, 7, "{summary}");
    let games = summary.ends.values().sum::<u64>();
    assert_eq!(summary.opening_fallbacks, games);
    assert_eq!(
        summary.opening_rejections,
        games * u64::from(OPENING_ATTEMPTS_MAX)
    );
    let recs = records(&out);
    assert!(game_starts(&recs).iter().all(|r| r.game_ply == 0));
    assert!(check_score(&Chess::default(), 1).abs() <= 200);
}

#[test]
fn opening_options_resolve_and_check_their_ranges() {
    let config = parse(&["--random-opening-plies", "8-9"])
        .unwrap()
        .resolve(0)
        .unwrap();
    assert_eq!(
        config.random_opening,
        Some(RandomOpening {
            plies: PlyRange { min: 8, max: 9 },
            check_depth: 8,
            max_score: 200,
        })
    );
    assert_eq!(parse(&[]).unwrap().resolve(0).unwrap().random_opening, None);
    let first_line = |args: &[&str]| {
        let e = parse(args).unwrap_err();
        e.lines().next().unwrap().to_owned()
    };
    assert_eq!(
        first_line(&["--random-opening-plies", "9-8"]),
        "error: invalid value '9-8' for '--random-opening-plies <MIN-MAX>': \
         '9-8' is not a ply range: expected MIN-MAX with 0 <= MIN <= MAX <= 100, e.g. 8-9"
    );
    assert_eq!(
        first_line(&[
            "--random-opening-plies",
            "1-2",
            "--opening-check-depth",
            "0"
        ]),
        "error: invalid value '0' for '--opening-check-depth <OPENING_CHECK_DEPTH>': \
         0 is not in 1..=100"
    );
    assert_eq!(
        first_line(&["--random-opening-plies", "1-2", "--opening-max-score", "-1"]),
        "error: invalid value '-1' for '--opening-max-score <OPENING_MAX_SCORE>': \
         -1 is not in 0..=31998"
    );
    assert_eq!(
        first_line(&["--opening-check-depth", "4"]),
        "error: the following required arguments were not provided:"
    );
}

#[test]
fn soft_nodes_resolve_and_check_their_range() {
    let config = parse(&["--soft-nodes", "5000"])
        .unwrap()
        .resolve(0)
        .unwrap();
    assert_eq!(
        (
            config.soft_nodes,
            config.nodes,
            config.depth_min,
            config.depth_max
        ),
        (Some(5000), None, 100, 100),
        "without --depth the soft limit alone ends a search"
    );
    let config = parse(&["--soft-nodes", "5000", "--depth", "7", "--nodes", "20000"])
        .unwrap()
        .resolve(0)
        .unwrap();
    assert_eq!(
        (config.soft_nodes, config.nodes, config.depth_min),
        (Some(5000), Some(20000), 7)
    );
    assert_eq!(parse(&[]).unwrap().resolve(0).unwrap().soft_nodes, None);
    let e = parse(&["--soft-nodes", "0"]).unwrap_err();
    assert_eq!(
        e.lines().next().unwrap(),
        "error: invalid value '0' for '--soft-nodes <SOFT_NODES>': \
         0 is not in 1..9223372036854775807"
    );
}

const SOFT: &[&str] = &["--loop", "600", "--seed", "9", "--hash", "2"];

#[test]
fn soft_nodes_end_every_search_after_the_iteration_that_crosses_them() {
    let dir = temp_dir("soft-nodes");
    let with = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut all = SOFT.to_vec();
        all.extend_from_slice(extra);
        run(&out, &all);
        std::fs::read(out).unwrap()
    };
    // One node: every search stops after iteration 1, so the data is exactly
    // that of depth 1 (depth 5 or unlimited notwithstanding).
    let depth1 = with("d1.bin", &["--depth", "1"]);
    assert_eq!(
        with("s1.bin", &["--soft-nodes", "1", "--depth", "5"]),
        depth1
    );
    assert_eq!(with("s1u.bin", &["--soft-nodes", "1"]), depth1);
    // A soft limit larger than any depth-3 search changes nothing at depth 3.
    let depth3 = with("d3.bin", &["--depth", "3"]);
    assert_eq!(
        with("s3.bin", &["--soft-nodes", "100000000", "--depth", "3"]),
        depth3
    );
    // A real soft limit is reproducible from the seed, and differs from both.
    let a = with("a.bin", &["--soft-nodes", "300"]);
    assert_eq!(with("b.bin", &["--soft-nodes", "300"]), a);
    assert_ne!(a, depth1);
    assert_ne!(a, depth3);
}

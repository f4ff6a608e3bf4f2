//! `generate --adjudicate-win SCORE:PLIES` and `--adjudicate-draw
//! SCORE:PLIES:FROM`: games end exactly when the score streak completes (not
//! before, not after), results follow the rule, seeded runs reproduce, the
//! defaults leave them off, and bad values are refused naming option and value.

mod common;

use common::{
    bin_records as records, failure, generate_config as config,
    generate_in_process as run_in_process, p, run, temp_dir,
};
use nnue_core::packed::{GameResult, PackedSfenValue};
use nnue_engine::search::{SearchControl, Searcher};
use nnue_gensfen::generate::adjudicate::{DrawAdjudication, WinAdjudication};
use nnue_gensfen::generate::dedup::Dedup;
use nnue_gensfen::generate::game::{Game, GameEnd, Player};
use nnue_gensfen::generate::options::GenConfig;
use nnue_gensfen::rng::GenRng;
use shakmaty::{Chess, Color};

/// Low bounds and short streaks, so a few shallow games meet both rules.
const WIN: WinAdjudication = WinAdjudication {
    score: 400,
    plies: 4,
};
const DRAW: DrawAdjudication = DrawAdjudication {
    score: 20,
    plies: 6,
    from_ply: 20,
};
const OPTIONS: &[&str] = &[
    "--depth",
    "2",
    "--hash",
    "2",
    "--write-minply",
    "0",
    "--dedup-mib",
    "0",
    "--random-move-count",
    "4",
    "--adjudicate-win",
    "400:4",
    "--adjudicate-draw",
    "20:6:20",
];

/// The index of the first searched ply at which a streak completes, and what
/// it decided, recomputed from the values alone (each from its side to move;
/// the first is from White's view at ply `first_ply`, the start position).
fn first_verdict(values: &[i32], first_ply: usize) -> Option<(usize, GameEnd, Option<Color>)> {
    let (mut white, mut black, mut draw) = (0u32, 0u32, 0u32);
    for (i, &v) in values.iter().enumerate() {
        let ply = first_ply + i;
        let white_view = if ply.is_multiple_of(2) { v } else { -v };
        draw = if ply >= DRAW.from_ply as usize && v.abs() <= DRAW.score {
            draw + 1
        } else {
            0
        };
        if draw >= DRAW.plies {
            return Some((i, GameEnd::DrawAdjudication, None));
        }
        white = if white_view >= WIN.score {
            white + 1
        } else {
            0
        };
        black = if -white_view >= WIN.score {
            black + 1
        } else {
            0
        };
        if white >= WIN.plies {
            return Some((i, GameEnd::WinAdjudication, Some(Color::White)));
        }
        if black >= WIN.plies {
            return Some((i, GameEnd::WinAdjudication, Some(Color::Black)));
        }
    }
    None
}

/// Every record's result is the game's result from its own side to move.
fn assert_results_follow(records: &[PackedSfenValue], white: GameResult) {
    for r in records {
        let own = if r.game_ply.is_multiple_of(2) {
            white
        } else {
            white.flip()
        };
        assert_eq!(r.game_result, own.to_i8(), "ply {}", r.game_ply);
    }
}

fn play_games(config: &GenConfig, count: usize) -> Vec<Game> {
    let mut searcher = Searcher::new(2, 1);
    let mut rng = GenRng::new(11);
    let dedup = Dedup::new(0);
    let control = SearchControl::default();
    (0..count)
        .map(|_| {
            Player {
                config,
                searcher: &mut searcher,
                rng: &mut rng,
                dedup: &dedup,
                control: &control,
            }
            .play(&Chess::default())
        })
        .collect()
}

#[test]
fn games_end_exactly_when_a_streak_completes_with_the_rules_result() {
    let config = config(OPTIONS);
    assert_eq!(
        (config.adjudicate_win, config.adjudicate_draw),
        (Some(WIN), Some(DRAW))
    );
    let games = play_games(&config, 40);
    let mut ends = std::collections::BTreeMap::new();
    for (g, game) in games.iter().enumerate() {
        *ends.entry(game.end).or_insert(0) += 1;
        // Every ply from 0 is written (no minimum ply, no duplicate filter).
        assert_eq!(game.records.len(), game.plies, "game {g}");
        let mut values: Vec<i32> = game.records.iter().map(|r| i32::from(r.score)).collect();
        values.push(game.last_value);
        let verdict = first_verdict(&values, 0);
        let last = values.len() - 1;
        let white = game.white_result.expect("every game here has a result");
        assert_results_follow(&game.records, white);
        match game.end {
            GameEnd::WinAdjudication | GameEnd::DrawAdjudication => {
                let (at, end, winner) = verdict.expect("a streak completed");
                assert_eq!((at, end), (last, game.end), "game {g}: {values:?}");
                let want = match winner {
                    None => GameResult::Draw,
                    Some(Color::White) => GameResult::Win,
                    Some(Color::Black) => GameResult::Loss,
                };
                assert_eq!(white, want, "game {g}");
            }
            // Another rule may end the game at the ply a streak completes (it
            // is checked first), never later.
            other => assert!(
                verdict.is_none_or(|(at, _, _)| at == last),
                "game {g} ended by {other:?} after a streak completed: {values:?}"
            ),
        }
    }
    assert!(
        ends.contains_key(&GameEnd::WinAdjudication)
            && ends.contains_key(&GameEnd::DrawAdjudication),
        "{ends:?}"
    );
}

#[test]
fn a_seeded_run_counts_each_adjudication_and_writes_consistent_games() {
    let dir = temp_dir("adjudicate");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let mut options = vec!["--loop", "1500", "--seed", "3"];
    options.extend_from_slice(OPTIONS);
    let summary = run_in_process(&a, &options);
    run_in_process(&b, &options);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let wins = summary.ends.get(&GameEnd::WinAdjudication).copied();
    let draws = summary.ends.get(&GameEnd::DrawAdjudication).copied();
    assert!(wins.unwrap_or(0) > 0 && draws.unwrap_or(0) > 0, "{summary}");
    let text = summary.to_string();
    assert!(
        text.contains("win adjudication") && text.contains("draw adjudication"),
        "{text}"
    );
    // Every game starts at ply 0 here; each game's records agree on its result.
    let recs = records(&a);
    assert_eq!(recs.len(), 1500);
    let mut starts: Vec<usize> = (0..recs.len()).filter(|&i| recs[i].game_ply == 0).collect();
    starts.push(recs.len());
    let games = starts.len() as u64 - 1;
    for w in starts.windows(2) {
        let game = &recs[w[0]..w[1]];
        let white = GameResult::from_i8(game[0].game_result).unwrap();
        assert_results_follow(game, white);
        assert!(game.windows(2).all(|w| w[1].game_ply == w[0].game_ply + 1));
    }
    // The last game may be cut by --loop; every other one was counted.
    assert!(summary.games == games || summary.games + 1 == games);
}

#[test]
fn adjudication_is_off_by_default() {
    let config = config(&[]);
    assert_eq!(
        (config.adjudicate_win, config.adjudicate_draw),
        (None, None)
    );
}

#[test]
fn bad_values_name_the_option_and_the_value() {
    let dir = temp_dir("adjudicate-bad");
    let out = dir.join("o.bin");
    let cases: &[(&str, &str, &str)] = &[
        ("--adjudicate-win", "0:8", "'0:8' is not a win adjudication"),
        (
            "--adjudicate-win",
            "1000",
            "'1000' is not a win adjudication",
        ),
        (
            "--adjudicate-win",
            "1000:0",
            "'1000:0' is not a win adjudication",
        ),
        (
            "--adjudicate-win",
            "-5:8",
            "'-5:8' is not a win adjudication",
        ),
        (
            "--adjudicate-draw",
            "10:10",
            "'10:10' is not a draw adjudication",
        ),
        (
            "--adjudicate-draw",
            "-1:10:40",
            "'-1:10:40' is not a draw adjudication",
        ),
        (
            "--adjudicate-draw",
            "10:10:x",
            "'10:10:x' is not a draw adjudication",
        ),
    ];
    // `generate --loop 1 -o out <extra>`: its exit code and error line.
    let refused = |extra: &[&str]| {
        let one_record = ["generate", "--loop", "1", "-o", p(&out)];
        failure(&run(&[&one_record[..], extra].concat()))
    };
    for (option, value, problem) in cases {
        let (code, message) = refused(&[option, value]);
        assert_eq!(code, 2, "{message}");
        let placeholder = if *option == "--adjudicate-win" {
            "SCORE:PLIES"
        } else {
            "SCORE:PLIES:FROM"
        };
        let head = format!("invalid value '{value}' for '{option} <{placeholder}>': {problem}");
        assert!(message.starts_with(&head), "{message}");
    }
    let (code, message) = refused(&["--adjudicate-win", "100:8", "--adjudicate-draw", "100:8:0"]);
    assert_eq!(
        (code, message.as_str()),
        (
            2,
            "--adjudicate-draw 100:8:0 with --adjudicate-win 100:8: \
             the draw score must be smaller than the win score"
        )
    );
    assert!(!out.exists());
}

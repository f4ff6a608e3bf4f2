//! `nnue-gen-sfen rescore`: new scores from the classical evaluation, every other
//! byte kept, the same output for any thread count, and usage errors.
//!
//! The input is the Stockfish-packed vectors (`common::reference_bin`). The
//! depth-0 check does not trust our quiescence search: for a position with no
//! capture, promotion or check available, the quiescence value must be the static
//! evaluation itself, and elsewhere it can only be at least that (stand pat).

mod common;

use nnue_core::packed::{PackedSfenValue, SfMove, PACKED_SFEN_VALUE_SIZE};
use nnue_engine::eval::classical;
use nnue_engine::search::score::EVAL_MAX;
use nnue_engine::search::{Limits, Searcher};
use shakmaty::{Chess, Position};

use nnue_gensfen::rescore::RESCORE_DEPTH_MAX;

use common::{failure, listing, p, reference_bin, run, stdout, temp_dir};

fn records(bytes: &[u8]) -> Vec<PackedSfenValue> {
    bytes
        .chunks(PACKED_SFEN_VALUE_SIZE)
        .map(|c| PackedSfenValue::from_bytes(c.try_into().expect("40 bytes")))
        .collect()
}

fn position(rec: &PackedSfenValue) -> Chess {
    rec.sfen
        .decode()
        .expect("decodes")
        .to_chess()
        .expect("legal")
}

/// Rescores the reference records at `depth` with `threads` and returns them.
fn rescored(depth: u32, threads: usize) -> Vec<PackedSfenValue> {
    rescored_with(&[
        "--depth",
        &depth.to_string(),
        "--threads",
        &threads.to_string(),
    ])
}

/// Rescores the reference records with `args`: the label the summary names
/// and the records.
fn rescore_reference(args: &[&str]) -> (String, Vec<PackedSfenValue>) {
    let dir = temp_dir("rescore");
    let (input, output) = (dir.join("in.bin"), dir.join("out.bin"));
    std::fs::write(&input, reference_bin()).expect("write");
    let mut all = vec!["rescore", p(&input), p(&output), "--quiet"];
    all.extend_from_slice(args);
    let text = stdout(&run(&all));
    let rest = text
        .strip_prefix("rescored 106 records with ")
        .unwrap_or_else(|| panic!("summary: {text}"));
    let label = rest.split(" (").next().expect("label").to_string();
    (label, records(&std::fs::read(&output).expect("output")))
}

/// Rescores the reference records with `args` and returns them.
fn rescored_with(args: &[&str]) -> Vec<PackedSfenValue> {
    rescore_reference(args).1
}

#[test]
fn depth_0_is_the_static_evaluation_of_quiet_positions_and_keeps_everything_else() {
    let before = records(&reference_bin());
    let after = rescored(0, 2);
    assert_eq!(after.len(), before.len());
    let mut quiet = 0;
    for (i, (old, new)) in before.iter().zip(&after).enumerate() {
        let unchanged = PackedSfenValue {
            score: old.score,
            ..*new
        };
        assert_eq!(unchanged.to_bytes(), old.to_bytes(), "record {i}");
        let pos = position(old);
        let stand_pat = classical::evaluate(&pos);
        let noisy = pos.is_check()
            || pos
                .legal_moves()
                .iter()
                .any(|m| m.is_capture() || m.is_promotion() || gives_check(&pos, m));
        if noisy {
            assert!(
                pos.is_check() || i32::from(new.score) >= stand_pat,
                "record {i}"
            );
        } else {
            quiet += 1;
            assert_eq!(i32::from(new.score), stand_pat, "record {i}");
        }
    }
    assert!(quiet >= 10, "only {quiet} quiet positions checked");
}

fn gives_check(pos: &Chess, m: &shakmaty::Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    after.is_check()
}

#[test]
fn static_is_the_classical_evaluation_of_every_position() {
    for (i, rec) in rescored_with(&["--static"]).iter().enumerate() {
        let pos = position(rec);
        let want = classical::evaluate(&pos).clamp(-EVAL_MAX, EVAL_MAX);
        assert_eq!(i32::from(rec.score), want, "record {i}");
    }
}

#[test]
fn depth_n_is_the_search_value_and_threads_do_not_change_it() {
    let after = rescored(2, 1);
    assert_eq!(after, rescored(2, 3));
    let mut searcher = Searcher::new(16, 1);
    for (i, rec) in after.iter().enumerate() {
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        searcher.clear();
        let value = searcher.search(&position(rec), &limits).value;
        assert_eq!(i32::from(rec.score), value, "record {i}");
    }
}

#[test]
fn node_limits_are_the_searchs_with_those_limits() {
    let soft = rescored_with(&["--soft-nodes", "3000", "--threads", "2"]);
    assert_eq!(
        soft,
        rescored_with(&["--soft-nodes", "3000", "--threads", "1"])
    );
    let hard = rescored_with(&["--nodes", "3000", "--depth", "6", "--threads", "2"]);
    // The rescorer's own searcher: a 1 MiB table, cleared before every position.
    let mut searcher = Searcher::new(1, 1);
    let mut differ = 0;
    for (i, (s, h)) in soft.iter().zip(&hard).enumerate() {
        let pos = position(s);
        for (rec, limits) in [
            (
                s,
                Limits {
                    depth: Some(RESCORE_DEPTH_MAX),
                    soft_nodes: Some(3000),
                    ..Limits::default()
                },
            ),
            (
                h,
                Limits {
                    depth: Some(6),
                    nodes: Some(3000),
                    ..Limits::default()
                },
            ),
        ] {
            searcher.clear();
            let value = searcher.search(&pos, &limits).value;
            assert_eq!(i32::from(rec.score), value, "record {i}, {limits:?}");
        }
        differ += usize::from(s.score != h.score);
    }
    assert!(
        differ > 10,
        "only {differ} of 106 scores differ between the two limits"
    );
    for (args, label) in [
        (&["--soft-nodes", "3000"][..], "soft nodes 3000"),
        (
            &["--nodes", "3000", "--depth", "6"][..],
            "nodes 3000, depth 6",
        ),
        (&["--depth", "2"][..], "depth 2"),
    ] {
        assert_eq!(rescore_reference(args).0, label);
    }
}

#[test]
fn best_move_takes_the_searchs_move_with_its_value() {
    let before = records(&reference_bin());
    let after = rescored_with(&["--depth", "2", "--best-move", "--threads", "2"]);
    let scores_only = rescored(2, 1);
    let mut searcher = Searcher::new(16, 1);
    let mut moves_changed = 0;
    for (i, ((old, new), plain)) in before.iter().zip(&after).zip(&scores_only).enumerate() {
        assert_eq!(
            new.score, plain.score,
            "record {i}: the same value as without --best-move"
        );
        let kept = PackedSfenValue {
            score: old.score,
            mv: old.mv,
            ..*new
        };
        assert_eq!(kept.to_bytes(), old.to_bytes(), "record {i}");
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        searcher.clear();
        let best = searcher
            .search(&position(old), &limits)
            .best_move
            .expect("a move");
        assert_eq!(new.mv, SfMove::from_move(&best), "record {i}");
        moves_changed += usize::from(new.mv != old.mv);
    }
    assert!(moves_changed > 50, "only {moves_changed} moves changed");
}

#[test]
fn bad_arguments_are_usage_errors_and_write_nothing() {
    // A bad record is checked with `stats` and `convert` in cli_errors.rs.
    let dir = temp_dir("rescore-bad");
    let input = dir.join("in.bin");
    std::fs::write(&input, reference_bin()).expect("write");
    let out = dir.join("out.bin");

    let (code, msg) = failure(&run(&["rescore", p(&input), p(&out), "--depth", "101"]));
    assert_eq!(
        (code, msg.as_str()),
        (
            2,
            "invalid value '101' for '--depth <DEPTH>': 101 is out of range (0 to 100) \
             (see nnue-gen-sfen --help)"
        )
    );
    let (code, msg) = failure(&run(&[
        "rescore",
        p(&input),
        p(&out),
        "--static",
        "--depth",
        "3",
    ]));
    assert_eq!(
        (code, msg.as_str()),
        (
            2,
            "--static with --depth 3: a static evaluation has no depth"
        )
    );
    for (depth, label) in [
        ("--depth=0", "depth 0 (quiescence)"),
        ("--static", "the static evaluation"),
    ] {
        let (code, msg) = failure(&run(&["rescore", p(&input), p(&out), depth, "--best-move"]));
        assert_eq!(
            (code, msg),
            (
                2,
                format!(
                    "--best-move with {label}: the best move needs a search \
                     (--depth 1 or more, --soft-nodes or --nodes)"
                )
            )
        );
    }
    for limit in ["--soft-nodes", "--nodes"] {
        let (code, msg) = failure(&run(&[
            "rescore",
            p(&input),
            p(&out),
            "--static",
            limit,
            "1000",
        ]));
        assert_eq!(
            (code, msg.as_str()),
            (
                2,
                "--static with --soft-nodes or --nodes: a static evaluation has no search to limit"
            )
        );
        let (code, _) = failure(&run(&["rescore", p(&input), p(&out), limit, "0"]));
        assert_eq!(code, 2, "{limit} 0 is out of range");
    }
    let (code, msg) = failure(&run(&["rescore", p(&input), p(&input)]));
    assert_eq!(code, 2);
    assert_eq!(
        msg,
        format!(
            "{0}: the output is also an input ({0}); refusing to overwrite it",
            input.display()
        )
    );
    assert_eq!(listing(&dir), ["in.bin"]);
}

//! Bad input: one `nnue-learn: error:` line naming the file, record or option,
//! a non-zero exit code (2 for usage), and the output net left as it was.

mod common;

use std::path::Path;

use common::Train;

/// Runs `nnue-learn train --force` with `args` plus a small model writing
/// `out`; returns (exit code, stderr).
fn train(out: &Path, args: &[&str]) -> (i32, String) {
    let mut forced = vec!["--force"];
    forced.extend(args);
    train_as_given(out, &forced)
}

/// Runs `nnue-learn train` with `args` plus a small model (All 768->16x2-4-1,
/// one epoch of six batches) writing `out`.
fn train_as_given(out: &Path, args: &[&str]) -> (i32, String) {
    let (_, code, _, err) = Train::new()
        .all("16")
        .hidden("4")
        .run("1", "3000", "500")
        .no_progress()
        .output(out)
        .args(args)
        .learn();
    (code, err)
}

/// Asserts that the run of `args` failed with `code` and one stderr line,
/// `err`, holding every needle.
fn assert_one_error_line(args: &[&str], (got, err): (i32, String), code: i32, needles: &[&str]) {
    assert_eq!(got, code, "{args:?}: {err}");
    assert!(err.starts_with("nnue-learn: error: "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for needle in needles {
        assert!(
            err.contains(needle),
            "{args:?}: missing {needle:?} in {err}"
        );
    }
}

const SENTINEL: &[u8] = b"previous net";

/// Asserts a failure with `code` whose one stderr line contains every needle,
/// and that `out` still holds the sentinel.
fn fails(out: &Path, args: &[&str], code: i32, needles: &[&str]) {
    std::fs::write(out, SENTINEL).unwrap();
    assert_one_error_line(args, train(out, args), code, needles);
    assert_eq!(
        std::fs::read(out).unwrap(),
        SENTINEL,
        "{args:?} overwrote the net"
    );
}

#[test]
fn bad_data_is_one_clear_line() {
    let dir = common::temp_dir("errors-data");
    let out = dir.join("out.nnue");
    let sample = std::fs::read(common::sample_bin()).unwrap();

    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let e = empty.to_str().unwrap();
    fails(&out, &["--train", e], 1, &["no records read from", e]);

    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &sample[..4001]).unwrap();
    let c = cut.to_str().unwrap();
    fails(
        &out,
        &["--train", c],
        1,
        &[c, "record 100", "not a multiple of 40"],
    );

    // Record 7's game result byte (offset 38) set to 5.
    let mut corrupt = sample.clone();
    corrupt[7 * 40 + 38] = 5;
    let bad = dir.join("corrupt.bin");
    std::fs::write(&bad, &corrupt).unwrap();
    let b = bad.to_str().unwrap();
    fails(&out, &["--train", b], 1, &[b, "record 7", "game result 5"]);
    // With --skip-invalid the record is skipped and training succeeds.
    let (code, err) = train(&out, &["--train", b, "--skip-invalid"]);
    assert_eq!(code, 0, "{err}");

    let missing = dir.join("missing.bin");
    let m = missing.to_str().unwrap();
    fails(&out, &["--train", m], 1, &[m]);

    // Every position filtered out.
    let s = common::sample_bin();
    let s = s.to_str().unwrap();
    fails(
        &out,
        &["--train", s, "--eval-limit=-1"],
        1,
        &["no validation position"],
    );
}

#[test]
fn bad_binpack_plain_and_paths_are_one_clear_line() {
    let dir = common::temp_dir("errors-formats");
    let out = dir.join("out.nnue");
    let s = common::sample_bin();
    let s = s.to_str().unwrap();
    let binpack = std::fs::read(common::sample("binpack")).unwrap();

    // The sample is one chunk: cut inside it.
    let cut = dir.join("cut.binpack");
    std::fs::write(&cut, &binpack[..binpack.len() / 2]).unwrap();
    let c = cut.to_str().unwrap();
    let needles = [c, "chunk 0 at byte 0", "truncated file"];
    fails(&out, &["--train", c], 1, &needles);
    fails(&out, &["--train", s, "--validation", c], 1, &needles);

    let empty = dir.join("empty.binpack");
    std::fs::write(&empty, b"").unwrap();
    let e = empty.to_str().unwrap();
    fails(&out, &["--train", e], 1, &["no records read from", e]);
    fails(
        &out,
        &["--train", s, "--validation", e],
        1,
        &["no records read from", e],
    );

    // Line 3 of the first record (its score) made unreadable.
    let plain = std::fs::read_to_string(common::sample("plain")).unwrap();
    let mut lines: Vec<&str> = plain.lines().collect();
    assert!(lines[2].starts_with("score "), "{}", lines[2]);
    lines[2] = "score x";
    let bad = dir.join("bad.plain");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let b = bad.to_str().unwrap();
    fails(&out, &["--train", b], 1, &[&format!("{b}:3:"), "score"]);
    // With --skip-invalid the record is skipped and training succeeds.
    let (code, err) = train(&out, &["--train", b, "--skip-invalid"]);
    assert_eq!(code, 0, "{err}");

    let d = dir.to_str().unwrap();
    fails(&out, &["--train", d], 1, &[d, "is a directory"]);
    let other = dir.join("games.txt");
    std::fs::write(&other, b"").unwrap();
    let o = other.to_str().unwrap();
    // Refused as a usage error before training starts (status 2).
    fails(&out, &["--train", o], 2, &[o, "unsupported extension"]);
}

/// A usage error: the options after `--train SAMPLE` and the texts its line holds.
type UsageCase = (&'static [&'static str], &'static [&'static str]);

/// Asserts that each case, after `--train` with the sample and `lead`, fails as
/// a usage error (exit 2) naming its texts.
fn usage_errors(name: &str, lead: &[&str], cases: &[UsageCase]) {
    let dir = common::temp_dir(name);
    let out = dir.join("out.nnue");
    let sample = common::sample_bin();
    for (options, needles) in cases {
        let mut args = vec!["--train", sample.to_str().unwrap()];
        args.extend(lead);
        args.extend(*options);
        fails(&out, &args, 2, needles);
    }
}

#[test]
fn bad_options_are_usage_errors() {
    usage_errors(
        "errors-options",
        &[],
        &[
            (&["--feature-set", "Allx"], &["unknown block 'Allx'"]),
            (&["--ft-size", "0"], &["transformer width 0"]),
            (&["--hidden", "4,x"], &["'x' is not a layer width"]),
            (&["--factorize"], &["feature set All has no factoriser"]),
            (
                &["--activation", "relu"],
                &["unknown activation 'relu' (expected crelu or screlu)"],
            ),
            (
                &["--output-buckets", "3"],
                &["3 output buckets (expected one of 1, 2, 4, 8, 16, 32)"],
            ),
            (&["--lambda", "1.5"], &["--lambda 1.5"]),
            (&["--resume"], &["--resume needs --checkpoint-dir"]),
            (&["--threads", "0"], &["--threads"]),
            (&["--loss", "l1"], &["invalid value 'l1'"]),
        ],
    );
}

#[test]
fn bad_learning_rate_schedules_are_usage_errors() {
    usage_errors(
        "errors-schedule-cosine",
        &["--lr-schedule", "cosine"],
        &[
            (
                &["--lr-final", "-1"],
                &["--lr-final -1 is not a rate of 0 or more"],
            ),
            (
                &["--lr-final", "0.01"],
                &["--lr-final 0.01 is above --lr 0.001"],
            ),
            (
                &["--newbob-decay", "0.5"],
                &["--lr-schedule cosine", "--newbob-decay 0.5"],
            ),
            (&["--lr-steps", "1"], &["--lr-steps 1"]),
        ],
    );
    usage_errors(
        "errors-schedule",
        &[],
        &[
            (
                &["--lr-final", "0.0001"],
                &["--lr-final 0.0001 needs --lr-schedule cosine"],
            ),
            // One epoch of 3000 positions in batches of 500 is 6 batches.
            (
                &["--lr-warmup-batches", "7"],
                &["--lr-warmup-batches 7 is longer than the run (6 batches)"],
            ),
            (
                &["--lr-warmup-batches", "-5"],
                &["'-5'", "--lr-warmup-batches"],
            ),
            (
                &["--lr-schedule", "linear"],
                &["invalid value 'linear'", "--lr-schedule"],
            ),
        ],
    );
}

/// Asserts that `args` (no `--force`) fail with `code` and one line holding
/// every needle, and that `out` was not created.
fn fails_fresh(out: &Path, args: &[&str], code: i32, needles: &[&str]) {
    let _ = std::fs::remove_file(out);
    assert_one_error_line(args, train_as_given(out, args), code, needles);
    assert!(!out.exists(), "{args:?} wrote the net");
}

#[test]
fn an_incompatible_resume_is_refused() {
    let dir = common::temp_dir("errors-resume");
    let out = dir.join("out.nnue");
    let ckpt = dir.join("ckpt");
    let (s, c) = (common::sample_bin(), ckpt.to_str().unwrap().to_string());
    let s = s.to_str().unwrap();
    let first = dir.join("first.nnue");
    let (code, err) = train(&first, &["--train", s, "--checkpoint-dir", &c]);
    assert_eq!(code, 0, "{err}");
    let resume = |extra: &[&str]| {
        let mut args = vec!["--train", s, "--checkpoint-dir", &c, "--resume"];
        args.extend(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let refused = |extra: &[&str], needles: &[&str]| {
        let args = resume(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_fresh(&out, &args, 1, needles);
    };
    refused(
        &["--ft-size", "8"],
        &["checkpoint.bin: cannot --resume: --ft-size: checkpoint 16, command line 8"],
    );
    // The shape cannot be forced: the saved weights would not fit.
    refused(
        &["--ft-size", "8", "--force"],
        &["--ft-size: checkpoint 16, command line 8"],
    );
    // The schedule's options are part of the checkpoint's.
    refused(
        &["--lr-warmup-batches", "2"],
        &["--lr-warmup-batches: checkpoint 0, command line 2 (--force resumes anyway)"],
    );
    refused(
        &["--lr-schedule", "cosine", "--lr-final", "0.0001"],
        &[
            "--lr-schedule: checkpoint step, command line cosine",
            "--lr-final: checkpoint none, command line 0.0001",
        ],
    );
    refused(
        &["--optimizer", "sgd"],
        &["--optimizer: checkpoint adam, command line sgd"],
    );
    // Every difference is named, and --force is offered.
    refused(
        &["--seed", "9", "--lr", "0.002"],
        &[
            "--lr: checkpoint 0.001, command line 0.002; --seed: checkpoint 0, command line 9 (--force resumes anyway)",
        ],
    );
    refused(
        &["--loss", "mse-value", "--validation-fraction", "0.1"],
        &[
            "--validation-fraction: checkpoint 0.05, command line 0.1",
            "--loss: checkpoint elmo, command line mse-value",
        ],
    );
    let other = dir.join("other.bin");
    std::fs::copy(common::sample_bin(), &other).unwrap();
    refused(
        &["--train", other.to_str().unwrap()],
        &[
            "--train: checkpoint ",
            "sf_tools_sample.bin, command line ",
            "other.bin",
        ],
    );
    // With --force a run whose learning rate differs resumes.
    let (code, err) = train_as_given(
        &out,
        &resume(&["--lr", "0.002", "--force"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    let empty = dir.join("empty");
    let e = empty.to_str().unwrap();
    fails(
        &out,
        &["--train", s, "--checkpoint-dir", e, "--resume"],
        1,
        &["checkpoint.bin", "cannot read checkpoint"],
    );
    // A damaged checkpoint.
    let bytes = std::fs::read(ckpt.join("checkpoint.bin")).unwrap();
    std::fs::write(ckpt.join("checkpoint.bin"), &bytes[..bytes.len() / 2]).unwrap();
    fails(
        &out,
        &["--train", s, "--checkpoint-dir", &c, "--resume"],
        1,
        &["cannot --resume", "do not fit"],
    );
}

#[test]
fn a_bad_init_net_is_one_clear_line() {
    use nnue_core::nnue::{random_network, Architecture};
    let dir = common::temp_dir("errors-init-net");
    let out = dir.join("out.nnue");
    let s = common::sample_bin();
    let s = s.to_str().unwrap();
    // `train` trains All 768->16x2-4-1.
    let net = |name: &str, spec: &str, half: usize, hidden: &[usize]| {
        let path = dir.join(name);
        let arch = Architecture::new(spec, half, hidden).unwrap();
        random_network(&arch, 1).unwrap().save(&path).unwrap();
        path.to_str().unwrap().to_string()
    };
    // `option net` is refused (exit 1) in one line naming `net` and `reasons`.
    let refused = |option: &str, net: &str, reasons: &[&str]| {
        let needles: Vec<&str> = [net].into_iter().chain(reasons.iter().copied()).collect();
        fails(&out, &["--train", s, option, net], 1, &needles);
    };
    let halfkp = net("halfkp.nnue", "HalfKP", 16, &[4]);
    refused(
        "--init-net",
        &halfkp,
        &["feature set HalfKP, training uses All (--feature-set)"],
    );
    let wide = net("wide.nnue", "All", 32, &[4, 4]);
    refused(
        "--init-net",
        &wide,
        &[
            "transformer 32x2, training uses 16x2 (--ft-size)",
            "hidden layers 4,4, training uses 4 (--hidden)",
        ],
    );
    let variant = dir.join("variant.nnue");
    let arch = Architecture::new("All", 16, &[4])
        .unwrap()
        .with_activation(nnue_core::nnue::Activation::SquaredClippedRelu)
        .with_output_buckets(8);
    random_network(&arch, 1).unwrap().save(&variant).unwrap();
    refused(
        "--init-net",
        variant.to_str().unwrap(),
        &[
            "activation screlu, training uses crelu (--activation)",
            "8 output buckets, training uses 1 (--output-buckets)",
        ],
    );
    // nodchip's name for the net a run starts from.
    let good = net("good.nnue", "All", 16, &[4]);
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.join("cut.nnue");
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    refused("--eval-file", cut.to_str().unwrap(), &["truncated"]);
    let missing = dir.join("missing.nnue");
    refused("--init-net", missing.to_str().unwrap(), &["cannot read"]);
    let ckpt = dir.join("ckpt");
    let k = ckpt.to_str().unwrap();
    fails(
        &out,
        &[
            "--train",
            s,
            "--init-net",
            &good,
            "--checkpoint-dir",
            k,
            "--resume",
        ],
        2,
        &["--init-net and --resume exclude each other"],
    );
}

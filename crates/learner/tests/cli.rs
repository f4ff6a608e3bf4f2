//! The command line's names and ranges: one spelling for one thing in every
//! subcommand (the older ones kept as hidden aliases), and out-of-range
//! numbers answered with the range (exit 2, one line).

mod common;

fn usage(args: &[&str], line: &str) {
    let (ok, code, _, stderr) = common::learn(args);
    assert!(!ok && code == 2, "{args:?}: {stderr}");
    assert_eq!(
        stderr,
        format!("nnue-learn: error: {line} (see nnue-learn --help)\n")
    );
}

#[test]
fn out_of_range_numbers_name_the_range() {
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    let train = |extra: &[&str]| {
        let mut args = vec!["train", "--train", d, "--output-net", "never-written.nnue"];
        args.extend(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let cases: [(&[&str], &str); 5] = [
        (
            &["--epochs", "-1"],
            "invalid value '-1' for '--epochs <EPOCHS>': -1 is out of range (at least 0)",
        ),
        (
            &["--lr", "0"],
            "invalid value '0' for '--lr <LR>': '0' is not a positive number",
        ),
        (
            &["--threads", "0"],
            "invalid value '0' for '--threads <THREADS>': 0 is out of range (at least 1)",
        ),
        (
            &["--batch-size", "-5"],
            "invalid value '-5' for '--batch-size <BATCH_SIZE>': -5 is out of range (at least 1)",
        ),
        (
            &["--validation-fraction", "1"],
            "invalid value '1' for '--validation-fraction <VALIDATION_FRACTION>': '1' is not a fraction in [0, 1)",
        ),
    ];
    for (extra, line) in cases {
        let args = train(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        usage(&args, line);
    }
    assert!(!std::path::Path::new("never-written.nnue").exists());
}

#[test]
fn the_shape_options_are_the_same_everywhere() {
    let dir = common::temp_dir("cli-shape");
    let (a, b) = (dir.join("a.nnue"), dir.join("b.nnue"));
    let (ok, _, _, err) = common::learn(&[
        "random-net",
        "--feature-set",
        "All",
        "--ft-size",
        "8",
        "--hidden",
        "4",
        "--output-net",
        a.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // The older spellings are hidden aliases.
    let (ok, _, _, err) = common::learn(&[
        "random-net",
        "--features",
        "All",
        "--half",
        "8",
        "--hidden",
        "4",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (ok, _, help, _) = common::learn(&["random-net", "--help"]);
    assert!(ok);
    assert!(
        help.contains("--feature-set") && help.contains("--output-net"),
        "{help}"
    );
    assert!(
        !help.contains("--features") && !help.contains("--half"),
        "{help}"
    );
    let (ok, code, _, err) =
        common::learn(&["random-net", "--factorize", "--output-net", "x.nnue"]);
    assert!(!ok && code == 2);
    assert_eq!(
        err,
        "nnue-learn: error: --factorize only applies to training (a .nnue file holds the merged rows)\n"
    );
    // bench takes its data as --train (--data still works) and the same shape.
    let data = common::sample_bin();
    for flag in ["--train", "--data"] {
        let (ok, _, out, err) = common::learn(&[
            "bench",
            flag,
            data.to_str().unwrap(),
            "--feature-set",
            "All",
            "--ft-size",
            "8",
            "--hidden",
            "4",
            "--batch-size",
            "64",
            "--batches",
            "1",
            "--threads",
            "1",
        ]);
        assert!(ok, "{err}");
        assert!(
            out.starts_with("All 768->8x2-4 batch 64 on 1 thread"),
            "{out}"
        );
    }
}

#[test]
fn quiet_is_one_flag() {
    let dir = common::temp_dir("cli-quiet");
    for (k, flag) in ["-q", "--quiet", "--no-progress"].iter().enumerate() {
        let out = dir.join(format!("{k}.nnue"));
        let (ok, _, _, err) = common::Train::on_sample()
            .all("8")
            .hidden("")
            .run("1", "200", "100")
            .arg(flag)
            .output(&out)
            .learn();
        assert!(ok, "{flag}: {err}");
        assert_eq!(err, "", "{flag} printed a progress bar");
    }
}

#[test]
fn a_filter_preset_replaces_the_options_it_names() {
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    let args = [
        "train",
        "--train",
        d,
        "--output-net",
        "never-written.nnue",
        "--filter-preset",
        "viriformat",
        "--eval-limit",
        "5",
    ];
    usage(
        &args,
        "the argument '--filter-preset <FILTER_PRESET>' cannot be used with '--eval-limit <EVAL_LIMIT>'",
    );
    let wld = [
        &args[..5],
        &["--filter-preset", "nnue-pytorch", "--wld-fen-skipping"],
    ]
    .concat();
    usage(
        &wld,
        "the argument '--filter-preset <FILTER_PRESET>' cannot be used with '--wld-fen-skipping'",
    );
}

//! The `nnue-gen-sfen` binary on bad input: exit codes (0 ok, 1 failure, 2 usage),
//! one `nnue-gen-sfen: error: ...` line, the same message for the same condition in
//! `stats`, `convert` and `rescore`, `--skip-invalid`; and Stockfish's own sample
//! converted both ways byte for byte.

mod common;

use common::{
    failure, listing, p, reference_bin, run, stdout, temp_dir, test_data, test_data_bytes,
};

const PREFIX: &str = common::ERROR_PREFIX;

#[test]
fn an_invalid_record_fails_stats_convert_and_rescore_with_the_same_message() {
    let dir = temp_dir("invalid");
    let bin = dir.join("bad.bin");
    let mut bytes = reference_bin();
    bytes[10 * 40 + 38] = 7; // record 10: result out of range
    std::fs::write(&bin, &bytes).expect("write");

    let (code, stats_msg) = failure(&run(&["stats", p(&bin)]));
    assert_eq!(code, 1);
    let want = format!("{}: record 10: game result 7 outside -1..1", bin.display());
    assert_eq!(stats_msg, want);
    let (code, convert_msg) = failure(&run(&["convert", p(&bin), p(&dir.join("o.plain"))]));
    assert_eq!(code, 1);
    assert_eq!(convert_msg, want);
    let (code, rescore_msg) = failure(&run(&["rescore", p(&bin), p(&dir.join("o.bin"))]));
    assert_eq!(code, 1);
    assert_eq!(rescore_msg, want);
    assert_eq!(listing(&dir), ["bad.bin"]);

    let text = stdout(&run(&["stats", p(&bin), "--skip-invalid"]));
    assert!(
        text.starts_with("records: 105\ninvalid (skipped): 1\n"),
        "{text}"
    );
    let text = stdout(&run(&[
        "convert",
        p(&bin),
        p(&dir.join("o.bin")),
        "--skip-invalid",
    ]));
    assert!(
        text.starts_with("converted 105 records (1 invalid skipped)"),
        "{text}"
    );
    assert_eq!(
        std::fs::metadata(dir.join("o.bin")).expect("o.bin").len(),
        105 * 40
    );
}

#[test]
fn reading_nothing_is_a_failure_and_writes_nothing() {
    let dir = temp_dir("empty");
    let empty = dir.join("empty.plain");
    std::fs::write(&empty, "").expect("write");
    let want = format!(
        "no records read from {} (0 invalid skipped)",
        empty.display()
    );
    assert_eq!(failure(&run(&["stats", p(&empty)])), (1, want.clone()));
    let out = dir.join("o.bin");
    assert_eq!(
        failure(&run(&["convert", p(&empty), p(&out), "--skip-invalid"])),
        (1, want)
    );
    // Only invalid records: nothing usable either.
    let junk = dir.join("junk.plain");
    std::fs::write(&junk, "hello\n").expect("write");
    let (code, msg) = failure(&run(&["stats", p(&junk), "--skip-invalid"]));
    assert_eq!(code, 1);
    assert_eq!(
        msg,
        format!(
            "no records read from {} (1 invalid skipped)",
            junk.display()
        )
    );
    assert_eq!(listing(&dir), ["empty.plain", "junk.plain"]);
}

#[test]
fn a_directory_is_named_as_such() {
    let dir = temp_dir("dir");
    for name in ["data.bin", "data.plain", "data"] {
        let sub = dir.join(name);
        std::fs::create_dir(&sub).expect("mkdir");
        let want = format!("{}: is a directory, not a data file", sub.display());
        assert_eq!(failure(&run(&["stats", p(&sub)])), (1, want.clone()));
        let out = dir.join("o.bin");
        assert_eq!(failure(&run(&["convert", p(&sub), p(&out)])), (1, want));
    }
}

#[test]
fn a_bad_plain_line_fails_unless_skip_invalid() {
    let dir = temp_dir("plainskip");
    let good = "fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nmove e1e2\nscore 12\nply 3\nresult 0\ne\n";
    let plain = dir.join("in.plain");
    std::fs::write(
        &plain,
        format!("{good}{}{good}", good.replace("move e1e2", "move e1e3")),
    )
    .expect("write");
    let want = format!("{}:8: bad UCI move \"e1e3\"", plain.display());
    assert_eq!(failure(&run(&["stats", p(&plain)])), (1, want.clone()));
    assert_eq!(
        failure(&run(&["convert", p(&plain), p(&dir.join("o.bin"))])),
        (1, want)
    );
    let text = stdout(&run(&["stats", p(&plain), "--skip-invalid"]));
    assert!(
        text.starts_with("records: 2\ninvalid (skipped): 1\n"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2() {
    // One line: what is wrong, then where help is. (clap's own usage lines
    // are cut by the shared convention; the unknown subcommand keeps the
    // second usage form in the line.)
    let cases: [(&[&str], &str); 3] = [
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (
            &["stats"],
            "the following required arguments were not provided: <FILES>...",
        ),
        (
            &["stats", "x.txt"],
            "x.txt: unsupported extension (expected .bin, .binpack, .plain, .vf, .mf or .bf, or name the format)",
        ),
    ];
    for (args, want) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("{PREFIX}{want}")),
            "{args:?}: {err}"
        );
    }
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: nnue-gen-sfen"));
}

#[test]
fn stockfish_sample_converts_both_ways_byte_for_byte() {
    let dir = temp_dir("sfsample");
    let bin = dir.join("out.bin");
    let plain = dir.join("out.plain");
    let sf_plain = test_data("sf_tools_sample.plain");
    let sf_bin = test_data("sf_tools_sample.bin");
    stdout(&run(&["convert", p(&sf_plain), p(&bin), "--validate"]));
    assert!(std::fs::read(&bin).expect("bin") == test_data_bytes("sf_tools_sample.bin"));
    stdout(&run(&["convert", p(&sf_bin), p(&plain), "--validate"]));
    assert!(std::fs::read(&plain).expect("plain") == test_data_bytes("sf_tools_sample.plain"));
}

#[test]
fn no_arguments_print_the_help_and_options_alone_generate() {
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{out:?}");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.starts_with(
            "nnue-gen-sfen: self-play training data for NNUE, and shuffle, convert, \
             rescore and stats of .bin, .binpack and .plain files\n"
        ),
        "{help}"
    );
    assert!(help.contains("Usage: nnue-gen-sfen [OPTIONS]"), "{help}");
    assert!(help.contains("shuffle"), "{help}");
    // Options without a subcommand still generate, as Stockfish's tools do.
    let dir = temp_dir("bare-options");
    let file = dir.join("g.bin");
    let args = [
        "--loop",
        "30",
        "--depth",
        "1",
        "--seed",
        "1",
        "-q",
        "-o",
        p(&file),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::metadata(&file).expect("written").len(), 30 * 40);
}

#[test]
fn a_directory_given_as_input_is_a_failure_in_every_subcommand() {
    let dir = temp_dir("dir-input");
    let data = dir.join("d.bin");
    let net = dir.join("d.nnue");
    let book = dir.join("d.epd");
    for sub in [&data, &net, &book] {
        std::fs::create_dir(sub).expect("mkdir");
    }
    let file = dir.join("x.bin");
    std::fs::copy(test_data("sf_tools_sample.bin"), &file).expect("copy");
    let out = dir.join("o.bin");
    let not_data = format!("{}: is a directory, not a data file", data.display());
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["stats", p(&data)], not_data.clone()),
        (vec!["convert", p(&data), p(&out)], not_data.clone()),
        (vec!["rescore", p(&data), p(&out)], not_data.clone()),
        (
            vec!["shuffle", p(&file), p(&data), p(&out)],
            not_data.clone(),
        ),
        (vec!["bench-decode", p(&data)], not_data),
        (
            vec!["rescore", p(&file), p(&out), "--eval-file", p(&net)],
            format!(
                "{}: cannot read file: Is a directory (os error 21)",
                net.display()
            ),
        ),
        (
            vec![
                "generate",
                "--loop",
                "5",
                "-o",
                p(&out),
                "--eval-file",
                p(&net),
            ],
            format!(
                "{}: cannot read file: Is a directory (os error 21)",
                net.display()
            ),
        ),
        (
            vec!["generate", "--loop", "5", "-o", p(&out), "--book", p(&book)],
            format!(
                "{}: cannot read: Is a directory (os error 21)",
                book.display()
            ),
        ),
    ];
    for (args, want) in cases {
        assert_eq!(failure(&run(&args)), (1, want), "{args:?}");
    }
    assert_eq!(listing(&dir), ["d.bin", "d.epd", "d.nnue", "x.bin"]);
}

#[test]
fn numbers_out_of_range_name_the_range_even_when_negative() {
    let dir = temp_dir("ranges");
    let file = dir.join("x.bin");
    std::fs::copy(test_data("sf_tools_sample.bin"), &file).expect("copy");
    let out = dir.join("o.bin");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["generate", "--depth", "-1"],
            "invalid value '-1' for '--depth <DEPTH>': -1 is out of range (1 to 100)",
        ),
        (
            vec!["--depth2", "101"],
            "invalid value '101' for '--depth2 <DEPTH2>': 101 is out of range (1 to 100)",
        ),
        (
            vec!["--loop", "-1"],
            "invalid value '-1' for '--loop <LOOP_COUNT>': -1 is out of range (at least 1)",
        ),
        (
            vec!["generate", "--save-every", "0"],
            "invalid value '0' for '--save-every <SAVE_EVERY>': 0 is out of range (at least 1)",
        ),
        (
            vec!["generate", "--nodes", "-5"],
            "invalid value '-5' for '--nodes <NODES>': -5 is out of range (at least 0)",
        ),
        (
            vec!["generate", "--threads", "0"],
            "invalid value '0' for '--threads <THREADS>': 0 is out of range (1 to 1024)",
        ),
        (
            vec!["generate", "--hash", "-16"],
            "invalid value '-16' for '--hash <HASH>': -16 is out of range (1 to 65536)",
        ),
        (
            vec!["generate", "--eval-limit", "-5"],
            "invalid value '-5' for '--eval-limit <EVAL_LIMIT>': -5 is out of range (at least 1)",
        ),
        (
            vec!["generate", "--random-move-minply", "-2"],
            "invalid value '-2' for '--random-move-minply <RANDOM_MOVE_MINPLY>': \
             -2 is out of range (-1 to 65535)",
        ),
        (
            vec!["generate", "--write-maxply", "70000"],
            "invalid value '70000' for '--write-maxply <WRITE_MAXPLY>': \
             70000 is out of range (0 to 65535)",
        ),
        (
            vec!["rescore", p(&file), p(&out), "--depth", "-1"],
            "invalid value '-1' for '--depth <DEPTH>': -1 is out of range (0 to 100)",
        ),
        (
            vec!["rescore", p(&file), p(&out), "--threads", "-2"],
            "invalid value '-2' for '--threads <THREADS>': -2 is out of range (0 to 1024)",
        ),
        (
            vec!["shuffle", p(&file), p(&out), "--memory-mib", "0"],
            "invalid value '0' for '--memory-mib <MEMORY_MIB>': 0 is out of range (1 to 1048576)",
        ),
        (
            vec!["bench-decode", "--records", "-1"],
            "invalid value '-1' for '--records <RECORDS>': -1 is out of range (1 to 1000000000)",
        ),
    ];
    for (args, want) in cases {
        let want = format!("{want} (see nnue-gen-sfen --help)");
        assert_eq!(failure(&run(&args)), (2, want), "{args:?}");
    }
    // What a range cannot say is checked before any work, also exit 2.
    let (code, msg) = failure(&run(&["generate", "--random-move-minply", "0"]));
    assert_eq!(
        (code, msg.as_str()),
        (2, "--random-move-minply 0: expected -1 or a ply >= 1")
    );
    assert_eq!(listing(&dir), ["x.bin"]);
}

#[test]
fn help_names_what_exists_and_one_spelling_of_quiet_and_output() {
    let help = stdout(&run(&["generate", "--help"]));
    assert!(
        help.contains("-o, --output <OUTPUT>")
            && help.contains("Output file: `.bin`, `.binpack` or `.plain` by extension"),
        "{help}"
    );
    for sub in ["generate", "rescore"] {
        let help = stdout(&run(&[sub, "--help"]));
        assert!(help.contains("-q, --quiet"), "{sub}: {help}");
    }
    let help = stdout(&run(&["shuffle", "--help"]));
    assert!(
        help.contains("Usage: nnue-gen-sfen shuffle [OPTIONS] <INPUTS>... <OUTPUT>"),
        "{help}"
    );
    assert!(!help.contains("--append"), "{help}");
}

//! The output rule in every subcommand that writes (`generate`, `shuffle`,
//! `convert`, `rescore`): an output that is also an input is refused even with
//! `--force`, however it is spelled; an existing output needs `--force`
//! (`--append` where the command appends); a missing folder is named. Each is
//! exit status 2, one line naming the path, checked before any work, and
//! nothing is written.

mod common;

use std::path::Path;
use std::process::Output;

use common::{failure, listing, temp_dir, test_data};

/// Runs the binary in `dir`, so that paths can be spelled relative to it.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_nnue-gen-sfen"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

/// A folder holding `x.bin` (Stockfish's 3000-record sample).
fn folder_with_data(tag: &str) -> common::TempDir {
    let dir = temp_dir(tag);
    std::fs::copy(test_data("sf_tools_sample.bin"), dir.join("x.bin")).expect("copy");
    dir
}

/// Each subcommand with `INPUT` as its data input and `OUTPUT` as its output.
const COMMANDS: [&[&str]; 4] = [
    &["convert", "INPUT", "OUTPUT"],
    &["rescore", "INPUT", "OUTPUT", "--static", "-q"],
    &["shuffle", "INPUT", "OUTPUT"],
    &["shuffle", "other.bin", "INPUT", "OUTPUT"],
];

fn with(command: &[&'static str], input: &'static str, output: &'static str) -> Vec<&'static str> {
    command
        .iter()
        .map(|&a| match a {
            "INPUT" => input,
            "OUTPUT" => output,
            a => a,
        })
        .collect()
}

#[test]
fn an_input_is_never_the_output_even_with_force() {
    let dir = folder_with_data("out-same");
    std::fs::copy(dir.join("x.bin"), dir.join("other.bin")).expect("copy");
    let before = std::fs::read(dir.join("x.bin")).expect("read");
    for command in COMMANDS {
        for (input, output) in [
            ("x.bin", "x.bin"),
            ("x.bin", "./x.bin"),
            ("./x.bin", "x.bin"),
        ] {
            let mut args = with(command, input, output);
            args.push("--force");
            let (code, msg) = failure(&run_in(&dir, &args));
            assert_eq!(code, 2, "{args:?}");
            assert_eq!(
                msg,
                format!(
                    "{output}: the output is also an input ({input}); refusing to overwrite it"
                ),
                "{args:?}"
            );
        }
    }
    assert_eq!(std::fs::read(dir.join("x.bin")).expect("read"), before);
    assert_eq!(listing(&dir), ["other.bin", "x.bin"]);
}

#[test]
fn an_existing_output_needs_force() {
    let dir = folder_with_data("out-exists");
    std::fs::copy(dir.join("x.bin"), dir.join("other.bin")).expect("copy");
    std::fs::write(dir.join("old.plain"), "keep me\n").expect("write");
    for command in COMMANDS {
        let args = with(command, "x.bin", "old.plain");
        let (code, msg) = failure(&run_in(&dir, &args));
        assert_eq!(code, 2, "{args:?}");
        // Only convert can append; shuffle and rescore must not suggest it.
        let want = if command[0] == "convert" {
            "old.plain: already exists (use --append to add to it or --force to replace it)"
        } else {
            "old.plain: already exists (use --force to replace it)"
        };
        assert_eq!(msg, want, "{args:?}");
        assert_eq!(
            std::fs::read_to_string(dir.join("old.plain")).unwrap(),
            "keep me\n"
        );
    }
    // With --force each replaces it.
    for command in COMMANDS {
        let mut args = with(command, "x.bin", "old.plain");
        args.push("--force");
        let out = run_in(&dir, &args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert!(std::fs::read_to_string(dir.join("old.plain"))
            .unwrap()
            .starts_with("fen "));
    }
}

#[test]
fn a_missing_folder_is_named_before_any_work() {
    let dir = folder_with_data("out-nofolder");
    std::fs::copy(dir.join("x.bin"), dir.join("other.bin")).expect("copy");
    for command in COMMANDS {
        let args = with(command, "x.bin", "nodir/o.bin");
        let (code, msg) = failure(&run_in(&dir, &args));
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(
            msg, "nodir/o.bin: the folder nodir does not exist",
            "{args:?}"
        );
    }
    assert_eq!(listing(&dir), ["other.bin", "x.bin"]);
}

#[test]
fn generate_never_overwrites_its_book_or_net() {
    let dir = temp_dir("out-gen-inputs");
    std::fs::write(dir.join("book.plain"), "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n").expect("write");
    std::fs::write(dir.join("net.bin"), b"not really a net").expect("write");
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["--book", "book.plain", "-o", "./book.plain"],
            "./book.plain",
            "book.plain",
        ),
        (
            &["--eval-file", "net.bin", "-o", "net.bin"],
            "net.bin",
            "net.bin",
        ),
        (
            &["--eval-file", "./net.bin", "--output-file-name", "net.bin"],
            "net.bin",
            "./net.bin",
        ),
    ];
    for (extra, output, input) in cases {
        let mut args = vec!["generate", "--loop", "10", "--depth", "1", "--force", "-q"];
        args.extend_from_slice(extra);
        let (code, msg) = failure(&run_in(&dir, &args));
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(
            msg,
            format!("{output}: the output is also an input ({input}); refusing to overwrite it")
        );
    }
    assert_eq!(listing(&dir), ["book.plain", "net.bin"]);
    assert_eq!(
        std::fs::read(dir.join("net.bin")).unwrap(),
        b"not really a net"
    );
}

#[test]
fn generate_checks_every_output_name_before_playing() {
    let dir = temp_dir("out-gen-names");
    let quick = [
        "generate", "--loop", "250", "--depth", "1", "--seed", "3", "-q",
    ];
    // The --random-file-name name is known from the seed: find it, then make it exist.
    let mut args = quick.to_vec();
    args.extend(["--random-file-name", "-o", "r.bin"]);
    assert!(run_in(&dir, &args).status.success());
    let made = listing(&dir);
    assert_eq!(made.len(), 1);
    assert!(
        made[0].starts_with("r_") && made[0].len() == "r_.bin".len() + 32,
        "{made:?}"
    );
    let (code, msg) = failure(&run_in(&dir, &args));
    assert_eq!(code, 2);
    assert_eq!(
        msg,
        format!(
            "{}: already exists (use --append to add to it or --force to replace it)",
            made[0]
        )
    );
    // --save-every: the third part is refused before the first is written.
    std::fs::write(dir.join("s_2.bin"), [0u8; 40]).expect("write");
    let mut args = quick.to_vec();
    args.extend(["--save-every", "100", "-o", "s.bin"]);
    let (code, msg) = failure(&run_in(&dir, &args));
    assert_eq!(code, 2);
    assert_eq!(
        msg,
        "s_2.bin: already exists (use --append to add to it or --force to replace it)"
    );
    assert!(!dir.join("s_0.bin").exists());
    // A missing folder, by its path.
    let mut args = quick.to_vec();
    args.extend(["-o", "nodir/g.bin"]);
    let (code, msg) = failure(&run_in(&dir, &args));
    assert_eq!(code, 2);
    assert_eq!(msg, "nodir/g.bin: the folder nodir does not exist");
    // The existing-output rule names both ways out.
    let mut args = quick.to_vec();
    args.extend(["-o", "s_2.bin"]);
    let (code, msg) = failure(&run_in(&dir, &args));
    assert_eq!(code, 2);
    assert_eq!(
        msg,
        "s_2.bin: already exists (use --append to add to it or --force to replace it)"
    );
    assert_eq!(std::fs::read(dir.join("s_2.bin")).unwrap(), [0u8; 40]);
}

#[test]
fn shuffle_outputs_go_last_and_append_is_not_an_option() {
    let dir = folder_with_data("out-shuffle-order");
    let out = run_in(&dir, &["shuffle", "x.bin", "s.bin", "--seed", "1"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "shuffled 3000 records -> s.bin\n"
    );
    let (code, msg) = failure(&run_in(&dir, &["shuffle", "x.bin", "s.bin", "--append"]));
    assert_eq!(code, 2);
    assert!(
        msg.starts_with("unexpected argument '--append' found"),
        "{msg}"
    );
    assert_eq!(
        std::fs::metadata(dir.join("s.bin")).unwrap().len(),
        3000 * 40
    );
    // The seed is a number or any text, as generate's: "-1" is text, not an option.
    let seeded = |name: &str| {
        let out = run_in(&dir, &["shuffle", "x.bin", name, "--seed", "-1"]);
        assert!(out.status.success(), "{out:?}");
        std::fs::read(dir.join(name)).unwrap()
    };
    let text_seeded = seeded("t1.bin");
    assert_eq!(text_seeded, seeded("t2.bin"));
    assert_ne!(text_seeded, std::fs::read(dir.join("s.bin")).unwrap());
}

#[test]
fn a_directory_is_never_an_output() {
    let dir = folder_with_data("out-dir");
    std::fs::copy(dir.join("x.bin"), dir.join("other.bin")).expect("copy");
    std::fs::create_dir(dir.join("d.bin")).expect("mkdir");
    let mut commands: Vec<Vec<&str>> = COMMANDS.iter().map(|c| with(c, "x.bin", "d.bin")).collect();
    commands.push(vec!["generate", "--loop", "5", "-o", "d.bin"]);
    for args in commands {
        let (code, msg) = failure(&run_in(&dir, &args));
        assert_eq!(
            (code, msg.as_str()),
            (2, "d.bin: is a directory, not a file"),
            "{args:?}"
        );
    }
    // A name the rule accepts still needs a known extension.
    let (code, msg) = failure(&run_in(&dir, &["generate", "--loop", "5", "-o", "g.txt"]));
    assert_eq!(
        (code, msg.as_str()),
        (
            2,
            "g.txt: unsupported extension (expected .bin, .binpack, .plain, .vf, .mf or .bf, or name the format)"
        )
    );
    assert_eq!(listing(&dir), ["d.bin", "other.bin", "x.bin"]);
}

#[test]
fn convert_takes_append_or_force_not_both() {
    let dir = folder_with_data("out-append-force");
    let (code, msg) = failure(&run_in(
        &dir,
        &["convert", "x.bin", "o.plain", "--append", "--force"],
    ));
    assert_eq!(code, 2);
    assert!(
        msg.starts_with("the argument '--append' cannot be used with '--force'"),
        "{msg}"
    );
    assert_eq!(listing(&dir), ["x.bin"]);
}

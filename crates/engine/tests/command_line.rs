//! The command-line mode under a reader that goes away (`nnue bench | head -1`,
//! `nnue --help | head -1`): a closed standard output is never a panic, and the
//! exit status is still success.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use nnue_core::cli::exit;

/// Starts `nnue ARGS` with its output on a pipe, reads `lines` lines (0: none),
/// closes the pipe, and returns the exit status and standard error.
fn closed_early(args: &[&str], lines: usize) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nnue"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nnue");
    let stdout = child.stdout.take().expect("piped");
    let mut reader = BufReader::new(stdout);
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "{args:?} ended early");
    }
    drop(reader);
    let out = child.wait_with_output().expect("nnue ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn a_closed_pipe_is_never_a_panic() {
    for (args, lines) in [
        (&["bench", "4"][..], 1),
        (&["--help"][..], 0),
        (&["--help"][..], 1),
        (&["--version"][..], 0),
        (&["perft", "3"][..], 1),
        (&["go", "depth", "6"][..], 1),
    ] {
        let (code, stderr) = closed_early(args, lines);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
        assert_eq!(code, Some(i32::from(exit::SUCCESS)), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_a_failure() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return; // no /dev/full in this sandbox
    };
    let out = Command::new(env!("CARGO_BIN_EXE_nnue"))
        .args(["perft", "1"])
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .expect("run nnue");
    assert_eq!(out.status.code(), Some(i32::from(exit::FAILURE)));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "nnue: error: standard output: No space left on device (os error 28)\n"
    );
}

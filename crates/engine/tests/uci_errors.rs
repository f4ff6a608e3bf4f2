//! Bad input to the real `nnue` binary: a bad move in `position ... moves` keeps the
//! moves before it (Stockfish's rule) and names the move; negative `go` limits are
//! error lines and the search still answers; `EvalFile`'s advertised default is a
//! value that can be sent back; the command-line mode's error format and exit codes.

mod support;

use std::process::{Command, Output};
use std::time::Duration;

use nnue_core::cli::exit;
use nnue_core::nnue::sha256::stockfish_name;
use nnue_core::nnue::{random_network, Architecture};
use nnue_engine::default_net::{self, DEFAULT_EVAL_FILE};
use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess};
use support::Engine;

const LONG: Duration = Duration::from_secs(60);

fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.until(LONG, |l| l.starts_with("Checkers:"));
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("d prints the FEN")
        .to_string()
}

fn errors(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string error: "))
        .collect()
}

#[test]
fn a_bad_move_keeps_the_moves_before_it_and_is_named() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5 e2e4 g8f6");
    let got = e.sync();
    assert_eq!(
        errors(&got),
        ["position: move 3 'e2e4' is illegal in \
          rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2; \
          position set after the 2 move(s) before it"]
    );
    // White to move after 1. e4 e5: the engine answers for the right side.
    assert_eq!(
        fen_of(&mut e),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send("go depth 2");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let pos: Chess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let m: UciMove = best.parse().unwrap();
    assert!(m.to_move(&pos).is_ok(), "{best} is not a legal white move");

    // A malformed move: the moves before it stay, too.
    e.send("position startpos moves d2d4 xx d7d5");
    let got = e.sync();
    assert_eq!(
        errors(&got),
        [
            "position: move 2 'xx' is not a UCI move (like e2e4 or e7e8q); \
          position set after the 1 move(s) before it"
        ]
    );
    assert_eq!(
        fen_of(&mut e),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    // A bad FEN still changes nothing.
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(errors(&e.sync()).len(), 1);
    assert_eq!(
        fen_of(&mut e),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    e.quit();
}

#[test]
fn negative_go_limits_are_error_lines_and_the_search_answers() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go wtime -50 btime 1000 depth -2");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(
        errors(&lines),
        [
            "go: 'wtime -50' is negative, the smallest value is used",
            "go: 'depth -2' is negative, the smallest value is used",
        ]
    );
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn evalfile_default_is_advertised_and_accepted_back() {
    let expected = match default_net::bytes() {
        Some(bytes) => stockfish_name(bytes),
        None => "<empty>".to_string(),
    };
    assert_eq!(DEFAULT_EVAL_FILE, expected);
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    let line = format!("option name EvalFile type string default {expected}");
    assert!(lines.contains(&line), "{lines:?}");

    // What python-chess sends when it restores the option: no error.
    e.send(&format!("setoption name EvalFile value {expected}"));
    assert!(errors(&e.sync()).is_empty());

    // Load a net from a file, then go back to the default by its advertised value.
    let dir = std::env::temp_dir().join(format!("nnue-evalfile-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.nnue");
    random_network(&Architecture::new("HalfKP", 8, &[8]).unwrap(), 1)
        .unwrap()
        .save(&path)
        .unwrap();
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let got = e.sync();
    assert!(
        got.iter()
            .any(|l| l.contains("NNUE evaluation using") && l.contains("tiny.nnue")),
        "{got:?}"
    );
    e.send(&format!("setoption name EvalFile value {expected}"));
    let got = e.sync();
    assert!(errors(&got).is_empty(), "{got:?}");
    let back = if default_net::bytes().is_some() {
        format!("NNUE evaluation using {expected}")
    } else {
        "classical evaluation in use: this binary embeds no network".to_string()
    };
    assert!(got.iter().any(|l| l.contains(&back)), "{got:?}");
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

fn nnue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nnue"))
        .args(args)
        .output()
        .expect("nnue runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim_end().to_string()
}

#[test]
fn command_line_errors_have_one_format_and_exit_codes() {
    let out = nnue(&["perft", "x"]);
    assert_eq!(out.status.code(), Some(i32::from(exit::USAGE)));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "nnue: error: perft: depth 'x' is not a number in 1..64"
    );
    let out = nnue(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "nnue: error: unknown command 'frobnicate' (type 'help' for the list)"
    );
    let out = nnue(&[
        "setoption",
        "name",
        "EvalFile",
        "value",
        "/nonexistent/x.nnue",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .starts_with("nnue: error: setoption: EvalFile '/nonexistent/x.nnue' not loaded"),
        "{}",
        stderr(&out)
    );
    let out = nnue(&["perft", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 400\n"));
    let out = nnue(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.starts_with("Usage: nnue [COMMAND [ARGS...]]"),
        "{help}"
    );
    assert!(help.contains("Exit status: 0 success, 1 failure, 2 usage error"));
}

/// Runs `nnue ARGS` and checks it fails with `code`, `message` as its one
/// error line and nothing on standard output.
fn assert_refused(args: &[&str], code: u8, message: &str) {
    let out = nnue(args);
    assert_eq!(out.status.code(), Some(i32::from(code)), "{args:?}");
    assert_eq!(stderr(&out), message, "{args:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{args:?}");
}

#[test]
fn perft_zero_is_refused_as_the_message_says() {
    for depth in ["0", "65", "-1", "x"] {
        assert_refused(
            &["perft", depth],
            exit::USAGE,
            &format!("nnue: error: perft: depth '{depth}' is not a number in 1..64"),
        );
    }
    assert_refused(
        &["perft"],
        exit::USAGE,
        "nnue: error: perft: needs a depth in 1..64, like 'perft 5'",
    );
    assert_refused(
        &["perft", "1", "2"],
        exit::USAGE,
        "nnue: error: perft: unexpected '2'",
    );
    let out = nnue(&["perft", "1"]);
    assert_eq!(out.status.code(), Some(i32::from(exit::SUCCESS)));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 20\n"));
}

#[test]
fn numeric_arguments_out_of_range_name_the_command_the_value_and_the_range() {
    assert_refused(
        &["bench", "0"],
        exit::USAGE,
        "nnue: error: bench: depth '0' is not a number in 1..64",
    );
    assert_refused(
        &["bench", "99999999999999999999999"],
        exit::USAGE,
        "nnue: error: bench: depth '99999999999999999999999' is not a number in 1..64",
    );
    assert_refused(
        &["setoption", "name", "Hash", "value", "0"],
        exit::USAGE,
        "nnue: error: setoption: option 'Hash' value 0 is outside 1..65536",
    );
    assert_refused(
        &["setoption", "name", "Threads", "value", "two"],
        exit::USAGE,
        "nnue: error: setoption: option 'Threads' wants an integer in 1..256, got 'two'",
    );
    assert_refused(
        &["go", "depth", "abc"],
        exit::USAGE,
        "nnue: error: go: 'depth abc' is not an integer in 1..124; no search started",
    );
    assert_refused(
        &["go", "movetime"],
        exit::USAGE,
        "nnue: error: go: 'movetime' needs an integer in 0..18446744073709551615; \
         no search started",
    );
    // In UCI mode the same refusals are error lines, and the session goes on.
    let mut e = Engine::start();
    for (line, error) in [
        ("perft 0", "perft: depth '0' is not a number in 1..64"),
        ("bench 65", "bench: depth '65' is not a number in 1..64"),
        (
            "setoption name MultiPV value 257",
            "setoption: option 'MultiPV' value 257 is outside 1..256",
        ),
        (
            "setoption name Move Overhead value 1.5",
            "setoption: option 'Move Overhead' wants an integer in 0..5000, got '1.5'",
        ),
    ] {
        e.send(line);
        assert_eq!(errors(&e.sync()), [error], "{line}");
    }
    e.send("go depth 0");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(
        errors(&lines),
        ["go: 'depth 0' is outside 1..124, the nearest value is used"]
    );
    e.quit();
}

#[test]
fn a_malformed_go_number_is_an_error_line_and_starts_no_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    for (keyword, range) in [
        ("depth", "1..124"),
        ("nodes", "1..18446744073709551615"),
        ("movetime", "0..18446744073709551615"),
        ("wtime", "0..18446744073709551615"),
        ("btime", "0..18446744073709551615"),
        ("winc", "0..18446744073709551615"),
        ("binc", "0..18446744073709551615"),
        ("movestogo", "1..4294967295"),
        ("mate", "1..255"),
    ] {
        e.send(&format!("go {keyword} abc"));
        let got = e.sync();
        assert_eq!(
            errors(&got),
            [format!(
                "go: '{keyword} abc' is not an integer in {range}; no search started"
            )],
            "{got:?}"
        );
        assert!(!got.iter().any(|l| l.starts_with("info depth")), "{got:?}");
    }
    // No search was started, so no bestmove comes; a search started by mistake
    // would answer within this time (or, unbounded, never stop by itself).
    e.send("go depth 2 wtime 1e3");
    std::thread::sleep(Duration::from_millis(500));
    let got = e.sync();
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    assert_eq!(
        errors(&got),
        ["go: 'wtime 1e3' is not an integer in 0..18446744073709551615; no search started"]
    );
    // The session keeps working: the next good go searches and answers.
    e.send("go depth 2");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn eval_with_use_nnue_false_says_the_classical_evaluation_is_in_use() {
    let mut e = Engine::start();
    e.send("setoption name Use NNUE value false");
    e.send("eval");
    let lines = e.until(LONG, |l| l.starts_with("NNUE evaluation"));
    assert_eq!(
        lines.last().unwrap(),
        "NNUE evaluation disabled (Use NNUE is false): the classical evaluation is in use"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.quit();
}

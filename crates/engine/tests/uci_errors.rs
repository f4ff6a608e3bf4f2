//! Bad input to the real `nnue` binary: a bad move in `position ... moves` keeps the
//! moves before it (Stockfish's rule) and names the move; negative `go` limits are
//! error lines and the search still answers; `EvalFile`'s advertised default is a
//! value that can be sent back; the command-line mode's error format and exit codes.

mod support;

use std::process::{Command, Output};
use std::time::Duration;

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

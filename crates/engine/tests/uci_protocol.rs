//! The UCI front end through the real binary: handshake, options, bad input, the
//! search lifecycle (`go`, `stop`, `ponderhit`), and the extra commands.

mod support;

use nnue_test_support::position;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use support::Engine;

const LONG: Duration = Duration::from_secs(60);

fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    let mut it = last.split_whitespace();
    assert_eq!(it.next(), Some("bestmove"), "{last}");
    it.next().unwrap().to_string()
}

fn assert_legal(fen: &str, mv: &str) {
    let pos = position(fen);
    let m: UciMove = mv.parse().unwrap();
    assert!(m.to_move(&pos).is_ok(), "{mv} is not legal in {fen}");
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(LONG, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name nnue")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "EvalFile",
        "Use NNUE",
        "Clear Hash",
        "Move Overhead",
        "Ponder",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "option {name} missing: {lines:?}"
        );
    }
    let ready = e.sync();
    // Without a trained net embedded the engine says it plays classical; with one it
    // names the net.
    assert!(
        ready.iter().any(|l| l.starts_with("info string ")
            && (l.contains("classical evaluation") || l.contains("NNUE evaluation using"))),
        "{ready:?}"
    );
    e.quit();
}

#[test]
fn bad_input_is_reported_and_state_kept() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let bad = [
        "flibbertigibbet",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position sideways",
        "setoption name Hash value 0",
        "setoption name Threads value 100000",
        "setoption name MultiPV value many",
        "setoption name Nonsense value 1",
        "setoption name EvalFile value /nonexistent/net.nnue",
        "perft x",
        "bench -3",
    ];
    for line in bad {
        e.send(line);
        let got = e.sync();
        assert!(
            got.iter().any(|l| l.starts_with("info string error:")),
            "no error for {line:?}: {got:?}"
        );
    }
    // Junk bytes, empty lines and whitespace are harmless.
    e.send_bytes(b"\xff\xfe\x00garbage\n\n   \n\t\n");
    e.sync();
    e.send("d");
    let d = e.until(LONG, |l| l.starts_with("Checkers:"));
    assert!(
        d.iter()
            .any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "position changed by bad input: {d:?}"
    );
    e.send("go depth 3");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert_legal(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &bestmove_of(&lines),
    );
    e.quit();
}

#[test]
fn go_depth_reports_info_and_a_legal_move() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    e.send("go depth 6");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("info lines");
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    assert!(info.starts_with("info depth 6 "), "{info}");
    assert_legal(fen, &bestmove_of(&lines));
    e.quit();
}

#[test]
fn stop_ends_infinite_search_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // The input loop answers while searching.
    e.sync();
    let t = Instant::now();
    e.send("stop");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_legal(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &bestmove_of(&lines),
    );
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(1500));
    // Still pondering (past its whole clock): no bestmove yet.
    let ready = e.sync();
    assert!(
        !ready.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before ponderhit: {ready:?}"
    );
    e.send("ponderhit");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert_legal(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &bestmove_of(&lines),
    );
    e.quit();
}

#[test]
fn busy_commands_are_refused_not_lost() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("setoption name Hash value 32");
    let got = e.sync();
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string error:") && l.contains("search is running")),
        "{got:?}"
    );
    e.send("stop");
    e.until(LONG, |l| l.starts_with("bestmove"));
    e.send("setoption name Hash value 32");
    let got = e.sync();
    assert!(!got.iter().any(|l| l.contains("error")), "{got:?}");
    e.quit();
}

#[test]
fn mated_and_stalemated_roots_answer_none() {
    let mut e = Engine::start();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn perft_divides_kiwipete() {
    let mut e = Engine::start();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("perft 3");
    let lines = e.until(LONG, |l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 97862");
    assert!(lines.iter().any(|l| l == "e1g1: 2059"), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 48 + 1);
    e.quit();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} ")))
            .unwrap_or_else(|| panic!("no multipv {k} line at depth 5: {lines:?}"));
        let pv = line.split(" pv ").nth(1).unwrap();
        firsts.push(pv.split_whitespace().next().unwrap().to_string());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    e.quit();
}

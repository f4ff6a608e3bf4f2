//! Nothing on standard input can crash the engine: random sequences of real and
//! garbled commands go through a UCI session (in process, output captured), which
//! must then still answer a search with a legal move.

use std::io::Write;
use std::sync::{Arc, Mutex};

use nnue_engine::uci::{Output, Session};
use proptest::prelude::*;
use shakmaty::{uci::UciMove, Chess, Position};

/// Captures the session's output for the final check.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const TOKENS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Use NNUE",
    "Clear Hash",
    "Move Overhead",
    "EvalFile",
    "true",
    "false",
    "d",
    "eval",
    "e2e4",
    "e7e5",
    "e1g1",
    "a7a8q",
    "0000",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "99999999999999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "8/8/8/8/8/8/8/8",
    "r3k2r/8/8/8/8/8/8/R3K2R",
    "\u{0}",
    "é",
    "",
];

/// A line: real commands with random arguments, or random token soup. Deep `perft`
/// and `bench` are left out only because they would take long, not because they fail.
fn line() -> impl Strategy<Value = String> {
    let soup =
        proptest::collection::vec(proptest::sample::select(TOKENS), 0..8).prop_map(|t| t.join(" "));
    let raw = "[ -~]{0,40}";
    let go = (0u32..3).prop_map(|d| format!("go depth {}", d + 1));
    let go_nodes = (1u32..2000).prop_map(|n| format!("go nodes {n}"));
    prop_oneof![
        4 => soup,
        2 => raw.prop_map(|s| s.to_string()),
        1 => go,
        1 => go_nodes,
        1 => Just("go infinite".to_string()),
        1 => Just("stop".to_string()),
        1 => Just("perft 2".to_string()),
        1 => Just("setoption name Threads value 2".to_string()),
    ]
    .prop_filter("no deep perft/bench", |l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        !(matches!(t.first(), Some(&"perft") | Some(&"bench"))
            && t.get(1)
                .and_then(|d| d.parse::<u32>().ok())
                .is_none_or(|d| d > 3))
    })
}

fn legal_after_e4(text: &str) -> bool {
    let mut p = Chess::default();
    let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&p).unwrap();
    p.play_unchecked(e4);
    text.parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(&p).ok())
        .is_some()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn random_input_never_breaks_the_session(lines in proptest::collection::vec(line(), 1..25)) {
        let capture = Capture::default();
        let mut session = Session::new(Output::new(Box::new(capture.clone())));
        for l in &lines {
            prop_assert!(session.handle(l) || l.split_whitespace().next() == Some("quit"));
        }
        // Back to a known state, then a search must still work.
        session.handle("stop");
        session.handle("position startpos moves e2e4");
        session.handle("go depth 2");
        session.wait();
        let text = String::from_utf8_lossy(&capture.0.lock().unwrap()).to_string();
        let last = text.lines().rev().find(|l| l.starts_with("bestmove ")).unwrap_or("");
        let mv = last.split_whitespace().nth(1).unwrap_or("");
        prop_assert!(legal_after_e4(mv), "last bestmove {:?} is not legal after 1.e4", last);
    }
}

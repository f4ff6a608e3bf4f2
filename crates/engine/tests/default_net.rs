//! The net compiled into the binary is exactly `nets/default.nnue` (when that file
//! exists; none otherwise), and the engine starts on it: its first `info string`
//! names the net by Stockfish's convention (`nn-` + 12 hex digits of its SHA-256),
//! and `eval` gives that net's value of the position. The advertised name must
//! survive python-chess's option parser, which splits values at UCI keywords.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use nnue_core::nnue::evaluate;
use nnue_core::nnue::sha256::stockfish_name;
use nnue_engine::default_net::{self, DEFAULT_EVAL_FILE};
use shakmaty::Chess;
use support::Engine;

const LONG: Duration = Duration::from_secs(60);

fn default_net_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../nets/default.nnue")
}

#[test]
fn the_embedded_net_is_nets_default() {
    let on_disk = std::fs::read(default_net_path()).ok();
    assert_eq!(
        default_net::bytes().map(<[u8]>::to_vec),
        on_disk,
        "the binary must embed nets/default.nnue byte for byte, or nothing when it is absent"
    );
}

#[test]
fn the_engine_starts_on_the_embedded_net() {
    let Some(net) = default_net::load().expect("the embedded net parses") else {
        return; // no nets/default.nnue: the classical fallback is tested in uci_protocol.rs
    };
    let mut e = Engine::start();
    let ready = e.sync();
    let summary = net.architecture().summary();
    let name = stockfish_name(default_net::bytes().expect("embedded"));
    assert_eq!(DEFAULT_EVAL_FILE, name);
    let named = format!("info string NNUE evaluation using {name} [{summary}] enabled");
    assert!(ready.contains(&named), "{ready:?}");

    e.send("position startpos");
    e.send("eval");
    let lines = e.until(LONG, |l| {
        l.starts_with("NNUE evaluation") && l.contains("side to move")
    });
    let expected = evaluate(&net, &Chess::default());
    let line = format!("NNUE evaluation {expected} (side to move, internal units)");
    assert!(lines.contains(&line), "{lines:?}");
    e.quit();
}

/// The words python-chess's `option` parser splits at (on word boundaries, so
/// `default.nnue` would come back as `.nnue`).
const UCI_OPTION_KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

#[test]
fn the_advertised_name_has_no_uci_keyword() {
    let words: Vec<&str> = DEFAULT_EVAL_FILE
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for keyword in UCI_OPTION_KEYWORDS {
        assert!(
            !words.contains(&keyword),
            "{DEFAULT_EVAL_FILE} contains {keyword}"
        );
    }
}

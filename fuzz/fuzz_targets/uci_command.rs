//! Any bytes as a UCI command line: the parsers of `position`, `go` and `setoption`
//! return a value or an error, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_engine::uci::{go, options, position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let current = match position::parse_position(&tokens) {
            Ok(parsed) => parsed.game.current,
            Err(e) => {
                let _ = e.to_string();
                shakmaty::Chess::default()
            }
        };
        let _ = go::parse_go(&tokens, &current);
        let _ = options::parse_setoption(&tokens);
    }
});

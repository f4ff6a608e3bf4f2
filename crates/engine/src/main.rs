//! `nnue`: the UCI engine. With no arguments it speaks UCI on standard input and
//! output (what GUIs start); with arguments it runs them as one command and exits,
//! like Stockfish (`nnue bench`, `nnue perft 6`, `nnue go depth 12`).

use nnue_engine::uci::{self, Output, Session};

fn main() {
    let out = Output::new(Box::new(std::io::stdout()));
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        let mut session = Session::new(out);
        session.handle(&args.join(" "));
        session.wait();
        return;
    }
    out.line(&format!(
        "nnue {} by the nnue-toolkit developers (GPL-3.0-or-later)",
        env!("CARGO_PKG_VERSION")
    ));
    let stdin = std::io::stdin();
    uci::run(stdin.lock(), out);
}

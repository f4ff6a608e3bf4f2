//! The UCI front end: reads commands line by line, keeps the game and the options,
//! and runs each search on its own thread so that `stop`, `ponderhit`, `isready` and
//! `quit` are answered while it thinks. Every bad line becomes an
//! `info string error: ...` and leaves the state as it was, with one exception
//! taken from Stockfish: a `position` whose move list has a bad move keeps the
//! moves before it.

pub mod bench;
pub mod display;
pub mod error;
pub mod eval_bench;
pub mod eval_report;
pub mod go;
pub mod number;
pub mod options;
pub mod output;
pub mod position;
mod session;

pub use error::UciError;
pub use output::Output;
pub use session::Session;

use std::io::BufRead;

/// Runs the UCI loop over `input` until `quit` or end of input. Lines are handled in
/// order; a search in progress is stopped and joined before returning.
/// Bytes that are not UTF-8 are replaced (and then reported as an unknown command)
/// rather than ending the session.
pub fn run<R: BufRead>(mut input: R, out: Output) {
    let mut session = Session::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !session.handle(&line) {
                    return;
                }
            }
        }
    }
    session.shutdown();
}

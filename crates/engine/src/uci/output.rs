//! Where the engine's UCI lines go. The search thread and the input loop both write,
//! so every line is written whole under a lock and flushed at once: a GUI reading a
//! pipe must never see half a line or wait for a buffer to fill.

use std::io::Write;
use std::sync::{Arc, Mutex};

use shakmaty::{uci::UciMove, CastlingMode, Move};

use crate::search::{Info, Score, SearchResult};

/// A cloneable, thread-safe line writer.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Lines go to `sink` (standard output for the real engine, a buffer in tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes `text` and a newline, then flushes. Write errors (a closed pipe) are
    /// ignored: the GUI has gone and the input loop will see end of file.
    pub fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }

    /// An `info string` line: how UCI engines tell the user about errors and state.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// A move in UCI text, castling as king to its destination (e1g1).
pub fn uci_move(m: &Move) -> String {
    UciMove::from_move(*m, CastlingMode::Standard).to_string()
}

/// The `score ...` fragment of an info line. Every reported score is exact: the
/// search reports a depth only after its root search settled inside the aspiration
/// window (an interrupted iteration is not reported), so there is no
/// `lowerbound`/`upperbound` to print.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    }
}

/// A full `info depth ...` line as GUIs expect it.
pub fn format_info(info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&uci_move(m));
        }
    }
    s
}

/// The `bestmove` line; `(none)` when the root has no legal move (mate or stalemate),
/// which is what GUIs accept.
pub fn format_bestmove(result: &SearchResult) -> String {
    match (&result.best_move, &result.ponder_move) {
        (Some(best), Some(ponder)) => {
            format!("bestmove {} ponder {}", uci_move(best), uci_move(ponder))
        }
        (Some(best), None) => format!("bestmove {}", uci_move(best)),
        (None, _) => "bestmove (none)".to_string(),
    }
}

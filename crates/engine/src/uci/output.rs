//! Where the engine's UCI lines go. The search thread and the input loop both write,
//! so every line is written whole under a lock and flushed at once: a GUI reading a
//! pipe must never see half a line or wait for a buffer to fill.

use std::io::Write;
use std::sync::{Arc, Mutex};

use shakmaty::{uci::UciMove, CastlingMode, Move};

use crate::search::{Bound, Info, Score, SearchResult};

/// A cloneable, thread-safe line writer.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// The first write failure other than a closed pipe, as its message.
    failure: Arc<Mutex<Option<String>>>,
}

impl Output {
    /// Lines go to `sink` (standard output for the real engine, a buffer in tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            failure: Arc::new(Mutex::new(None)),
        }
    }

    /// Writes `text` and a newline, then flushes. A write error never stops the
    /// engine: a closed pipe means the GUI (or `| head`) has gone and the input
    /// loop will see end of file; any other error is kept for
    /// [`Output::failure`], which the command-line mode reports.
    pub fn line(&self, text: &str) {
        let mut sink = lock(&self.sink);
        let written = sink
            .write_all(text.as_bytes())
            .and_then(|()| sink.write_all(b"\n"))
            .and_then(|()| sink.flush());
        if let Err(e) = written {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                lock(&self.failure).get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// The first write failure that was not a closed pipe (a full disk), if any.
    pub fn failure(&self) -> Option<String> {
        lock(&self.failure).clone()
    }

    /// An `info string` line: how UCI engines tell the user about errors and state.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// The guarded value, even if a thread panicked while holding the lock (a line
/// is written whole or not at all, so the data is still usable).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// A move in UCI text, castling as king to its destination (e1g1).
pub fn uci_move(m: &Move) -> String {
    UciMove::from_move(*m, CastlingMode::Standard).to_string()
}

/// The `score ...` fragment of an info line. A completed iteration's scores are
/// exact (its root search settled inside the aspiration window); the line of an
/// iteration cut short may be a bound, printed as UCI says (`lowerbound`,
/// `upperbound`).
pub fn format_score(score: Score, bound: Bound) -> String {
    let value = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => value,
        Bound::Lower => format!("{value} lowerbound"),
        Bound::Upper => format!("{value} upperbound"),
    }
}

/// A full `info depth ...` line as GUIs expect it.
pub fn format_info(info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score, info.bound),
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

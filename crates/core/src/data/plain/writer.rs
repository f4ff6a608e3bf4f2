//! The `.plain` writer.

use std::io::Write;

use crate::data::record::TrainingRecord;

/// Writes records as `.plain` text, byte-identical to Stockfish's `convert`:
/// FEN as `Position::fen()` prints it, the move in UCI with castling as
/// e1g1, then score, ply, result and `e`.
pub struct PlainWriter<W> {
    out: W,
    line: String,
}

impl<W: Write> PlainWriter<W> {
    /// Writes to `out` (wrap files in a `BufWriter`).
    pub fn new(out: W) -> Self {
        PlainWriter {
            out,
            line: String::with_capacity(160),
        }
    }

    /// Appends one record.
    pub fn write(&mut self, record: &TrainingRecord) -> std::io::Result<()> {
        use std::fmt::Write as _;
        self.line.clear();
        self.line.push_str("fen ");
        record.position.write_fen(&mut self.line);
        self.line.push_str("\nmove ");
        record.mv.write_uci(&mut self.line);
        let _ = write!(
            self.line,
            "\nscore {}\nply {}\nresult {}\ne\n",
            record.score,
            record.game_ply,
            record.result.to_i8()
        );
        self.out.write_all(self.line.as_bytes())
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Returns the underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

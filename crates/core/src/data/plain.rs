//! The `.plain` text format (formats.md 7.1): six `key value` lines per
//! record, `fen`, `move`, `score`, `ply`, `result`, then `e`.
//!
//! Parsing follows the binpack library: the key is everything before the
//! first space and the value is the rest of the line; unknown keys are
//! ignored; `e` emits a record from the latest value of every key, so an
//! absent key keeps its previous value.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use shakmaty::{fen::Fen, CastlingMode, Chess, FromSetup, PositionError};

use super::error::{DataError, PlainError, RecordError};
use super::record::{RecordPolicy, TrainingRecord};
use crate::packed::{GameResult, MoveError, PackedSfen, PackedSfenValue, SfMove, PADDING_BYTE};

/// One `.plain` record as text and numbers, before packing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlainEntry {
    /// FEN (may be empty if no `fen` line was seen yet).
    pub fen: String,
    /// UCI move text.
    pub mv: String,
    /// Score as written.
    pub score: i64,
    /// Ply as written.
    pub ply: i64,
    /// Result as written.
    pub result: i64,
    /// Line number (from 1) of the `e` line that closed the record.
    pub line: u64,
}

impl PlainEntry {
    /// Parses the FEN and move and packs the record (padding 0xFF).
    ///
    /// Like Stockfish's FEN parser, an en-passant square that is not usable
    /// is dropped rather than rejected; the best move must be legal.
    pub fn to_packed(&self, policy: RecordPolicy) -> Result<(PackedSfenValue, Chess), PlainError> {
        if self.fen.is_empty() {
            return Err(PlainError::MissingFen);
        }
        let bad_fen = |reason: String| PlainError::BadFen {
            fen: self.fen.clone(),
            reason,
        };
        let fen =
            Fen::from_ascii(self.fen.trim().as_bytes()).map_err(|e| bad_fen(e.to_string()))?;
        let pos = Chess::from_setup(fen.into_setup(), CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|e| bad_fen(e.to_string()))?;
        let score = i16::try_from(self.score).map_err(|_| PlainError::BadNumber {
            key: "score",
            value: self.score.to_string(),
        })?;
        let game_ply = u16::try_from(self.ply).map_err(|_| PlainError::BadNumber {
            key: "ply",
            value: self.ply.to_string(),
        })?;
        let result = i8::try_from(self.result)
            .ok()
            .and_then(GameResult::from_i8)
            .ok_or(PlainError::BadNumber {
                key: "result",
                value: self.result.to_string(),
            })?;
        let mv_text = self.mv.trim();
        let mv = if mv_text == "0000" && policy.allow_move_none {
            SfMove::NONE
        } else if mv_text == "0000" {
            return Err(RecordError::Move(MoveError::MoveNone).into());
        } else {
            SfMove::from_uci(mv_text, &pos).map_err(RecordError::Move)?
        };
        let value = PackedSfenValue {
            sfen: PackedSfen::from_position(&pos),
            score,
            mv,
            game_ply,
            game_result: result.to_i8(),
            padding: PADDING_BYTE,
        };
        Ok((value, pos))
    }
}

/// Streaming `.plain` parser; yields one [`PlainEntry`] per `e` line.
pub struct PlainReader<R> {
    input: R,
    path: PathBuf,
    line: u64,
    current: PlainEntry,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> PlainReader<R> {
    /// Reads from `input`; `path` is only used in error messages.
    pub fn new(input: R, path: impl AsRef<Path>) -> Self {
        PlainReader {
            input,
            path: path.as_ref().to_path_buf(),
            line: 0,
            current: PlainEntry::default(),
            buf: Vec::with_capacity(128),
            failed: false,
        }
    }

    /// Number of lines consumed so far.
    pub fn line(&self) -> u64 {
        self.line
    }

    fn error(&self, reason: PlainError) -> DataError {
        DataError::BadPlain {
            file: self.path.clone(),
            line: self.line,
            reason,
        }
    }

    fn number(&self, key: &'static str, value: &str) -> Result<i64, DataError> {
        value.trim().parse::<i64>().map_err(|_| {
            self.error(PlainError::BadNumber {
                key,
                value: value.to_owned(),
            })
        })
    }

    /// Handles one line; returns an entry when the line is `e`.
    fn line_entry(&mut self) -> Result<Option<PlainEntry>, DataError> {
        let mut bytes: &[u8] = &self.buf;
        while let [rest @ .., b'\n' | b'\r'] = bytes {
            bytes = rest;
        }
        let (key, value) = match bytes.iter().position(|&b| b == b' ') {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (bytes, &[][..]),
        };
        let text = |v: &[u8]| -> Result<String, DataError> {
            std::str::from_utf8(v)
                .map(str::to_owned)
                .map_err(|_| self.error(PlainError::NotUtf8))
        };
        match key {
            b"fen" => self.current.fen = text(value)?,
            b"move" => self.current.mv = text(value)?,
            b"score" => self.current.score = self.number("score", &text(value)?)?,
            b"ply" => self.current.ply = self.number("ply", &text(value)?)?,
            b"result" => self.current.result = self.number("result", &text(value)?)?,
            b"e" => {
                if self.current.fen.is_empty() {
                    return Err(self.error(PlainError::MissingFen));
                }
                let mut entry = self.current.clone();
                entry.line = self.line;
                return Ok(Some(entry));
            }
            _ => {}
        }
        Ok(None)
    }
}

impl<R: BufRead> Iterator for PlainReader<R> {
    type Item = Result<PlainEntry, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            self.buf.clear();
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => return None,
                Ok(_) => self.line += 1,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(DataError::io(&self.path, e)));
                }
            }
            match self.line_entry() {
                Ok(Some(entry)) => return Some(Ok(entry)),
                Ok(None) => {}
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

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

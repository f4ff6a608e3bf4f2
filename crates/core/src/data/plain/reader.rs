//! The strict, streaming `.plain` parser.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use super::entry::{PlainEntry, PlainKey};
use crate::data::error::{DataError, PlainError};
use crate::data::open::open_data_file;

/// A record being read: its fields so far and where it started.
struct Open {
    entry: PlainEntry,
    start: u64,
    seen: [bool; 5],
}

/// Where the parser stands between two lines.
enum State {
    /// Between records.
    Idle,
    /// Inside a record.
    Open(Box<Open>),
    /// Inside a record already reported bad: its lines are passed over up to
    /// its `e` (or the `fen` of the next record), so one bad record is one error.
    Skipping,
}

/// What one line did.
enum Step {
    Nothing,
    Record(PlainEntry),
}

/// Streaming `.plain` parser; yields one [`PlainEntry`] per record, or one
/// error per bad record (or per stray line between records). It carries on
/// after a bad record; only a read error ends it early.
pub struct PlainReader<R> {
    input: R,
    path: PathBuf,
    line: u64,
    state: State,
    buf: Vec<u8>,
    done: bool,
}

impl PlainReader<BufReader<File>> {
    /// Opens `path` (a directory or a missing file is an error naming it).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, DataError> {
        let path = path.as_ref();
        let file = open_data_file(path)?;
        Ok(PlainReader::new(BufReader::new(file), path))
    }
}

impl<R: BufRead> PlainReader<R> {
    /// Reads from `input`; `path` is only used in error messages.
    pub fn new(input: R, path: impl AsRef<Path>) -> Self {
        PlainReader {
            input,
            path: path.as_ref().to_path_buf(),
            line: 0,
            state: State::Idle,
            buf: Vec::with_capacity(128),
            done: false,
        }
    }

    /// Number of lines consumed so far.
    pub fn line(&self) -> u64 {
        self.line
    }

    fn error(&self, line: u64, reason: PlainError) -> DataError {
        DataError::BadPlain {
            file: self.path.clone(),
            line,
            reason,
        }
    }

    /// Handles the line in `buf`. An error leaves the state ready for the
    /// next record.
    fn step(&mut self) -> Result<Step, PlainError> {
        let buf = std::mem::take(&mut self.buf);
        let result = self.step_line(&buf);
        self.buf = buf;
        result
    }

    fn step_line(&mut self, line: &[u8]) -> Result<Step, PlainError> {
        let mut bytes = line;
        while let [rest @ .., b'\n' | b'\r'] = bytes {
            bytes = rest;
        }
        let (key, value) = match bytes.iter().position(|&b| b == b' ') {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (bytes, &[][..]),
        };
        let state = std::mem::replace(&mut self.state, State::Idle);
        if key == b"e" {
            return close(state, value);
        }
        let problem = match (PlainKey::from_name(key), bytes.is_empty()) {
            (Some(k), _) => return self.field(state, k, value),
            (None, true) => PlainError::EmptyLine,
            (None, false) => PlainError::UnknownKey(String::from_utf8_lossy(key).into_owned()),
        };
        match state {
            // A stray line inside a bad record is part of that one error.
            State::Skipping => {
                self.state = State::Skipping;
                Ok(Step::Nothing)
            }
            State::Open(_) => {
                self.state = State::Skipping;
                Err(problem)
            }
            State::Idle => Err(problem),
        }
    }

    /// Stores the value of `key`, opening a record if none is open.
    fn field(&mut self, state: State, key: PlainKey, value: &[u8]) -> Result<Step, PlainError> {
        let mut open = match state {
            State::Skipping if key != PlainKey::Fen => {
                self.state = State::Skipping;
                return Ok(Step::Nothing);
            }
            State::Open(open) if open.seen[key.index()] => {
                let start = open.start;
                if key != PlainKey::Fen {
                    self.state = State::Skipping;
                    return Err(PlainError::DuplicateKey {
                        key: key.name(),
                        first: open.entry.line_of(key),
                    });
                }
                // The previous record never got its `e`: report it, and let
                // this `fen` start the next one (a FEN is stored as text, so
                // opening a record with it cannot fail).
                self.state = match self.new_record(key, value) {
                    Ok(open) => State::Open(open),
                    Err(_) => State::Skipping,
                };
                return Err(PlainError::Unterminated { start });
            }
            State::Open(open) => open,
            State::Idle | State::Skipping => {
                self.state = State::Open(self.new_record(key, value)?);
                return Ok(Step::Nothing);
            }
        };
        match set_field(&mut open, key, value, self.line) {
            Ok(()) => {
                self.state = State::Open(open);
                Ok(Step::Nothing)
            }
            Err(e) => {
                self.state = State::Skipping;
                Err(e)
            }
        }
    }

    fn new_record(&mut self, key: PlainKey, value: &[u8]) -> Result<Box<Open>, PlainError> {
        let mut open = Box::new(Open {
            entry: PlainEntry::default(),
            start: self.line,
            seen: [false; 5],
        });
        if let Err(e) = set_field(&mut open, key, value, self.line) {
            self.state = State::Skipping;
            return Err(e);
        }
        Ok(open)
    }
}

/// The `e` line: the record is complete or it is an error.
fn close(state: State, value: &[u8]) -> Result<Step, PlainError> {
    let open = match state {
        State::Skipping => return Ok(Step::Nothing),
        State::Idle => return Err(PlainError::MissingKey(PlainKey::Fen.name())),
        State::Open(open) => open,
    };
    if !value.is_empty() {
        return Err(PlainError::UnexpectedValue {
            key: "e",
            value: String::from_utf8_lossy(value).into_owned(),
        });
    }
    if let Some(missing) = PlainKey::ALL.into_iter().find(|k| !open.seen[k.index()]) {
        return Err(PlainError::MissingKey(missing.name()));
    }
    Ok(Step::Record(open.entry))
}

/// Parses and stores one value.
fn set_field(open: &mut Open, key: PlainKey, value: &[u8], line: u64) -> Result<(), PlainError> {
    // Bytes that are not UTF-8 become U+FFFD: the FEN, move or number then
    // fails its own check with the text shown.
    let text = String::from_utf8_lossy(value);
    let number = || {
        text.trim()
            .parse::<i64>()
            .map_err(|_| PlainError::BadNumber {
                key: key.name(),
                value: text.to_string(),
            })
    };
    let entry = &mut open.entry;
    match key {
        PlainKey::Fen => entry.fen = text.to_string(),
        PlainKey::Move => entry.mv = text.to_string(),
        PlainKey::Score => entry.score = number()?,
        PlainKey::Ply => entry.ply = number()?,
        PlainKey::Result => entry.result = number()?,
    }
    entry.field_lines[key.index()] = line;
    open.seen[key.index()] = true;
    Ok(())
}

impl<R: BufRead> Iterator for PlainReader<R> {
    type Item = Result<PlainEntry, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buf.clear();
            match self.input.read_until(b'\n', &mut self.buf) {
                Ok(0) => {
                    self.done = true;
                    if let State::Open(open) = std::mem::replace(&mut self.state, State::Idle) {
                        let reason = PlainError::Truncated { start: open.start };
                        return Some(Err(self.error(self.line, reason)));
                    }
                }
                Ok(_) => {
                    self.line += 1;
                    match self.step() {
                        Ok(Step::Nothing) => {}
                        Ok(Step::Record(mut entry)) => {
                            entry.line = self.line;
                            return Some(Ok(entry));
                        }
                        Err(reason) => return Some(Err(self.error(self.line, reason))),
                    }
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(DataError::io(&self.path, e)));
                }
            }
        }
        None
    }
}

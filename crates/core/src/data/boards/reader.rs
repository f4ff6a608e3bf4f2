//! The streaming reader of `.mf` and `.bf` files.

use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use super::super::codec_error::CodecError;
use super::super::error::DataError;
use super::super::reader::DataLocation;
use super::super::record::TrainingRecord;
use super::{BoardKind, BOARD_RECORD_SIZE};

/// The records of a 32-byte-record stream, in order. A record that does
/// not decode is a skippable error (the next one starts 32 bytes on); a
/// cut-off last record or an I/O error ends the iteration.
pub struct BoardRecords<R> {
    input: R,
    path: PathBuf,
    kind: BoardKind,
    index: u64,
    done: bool,
}

/// One step of [`BoardRecords`]: the outer `Err` may be skipped, the inner
/// one may not.
pub(crate) type BoardStep = Result<Result<(DataLocation, TrainingRecord), DataError>, DataError>;

impl<R: Read> BoardRecords<R> {
    /// Reads `input` as `kind` records, named `path` in errors.
    pub fn new(input: R, path: &Path, kind: BoardKind) -> BoardRecords<R> {
        BoardRecords {
            input,
            path: path.to_path_buf(),
            kind,
            index: 0,
            done: false,
        }
    }

    /// The next record, or `None` at the end of the file.
    pub(crate) fn step(&mut self) -> Option<BoardStep> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; BOARD_RECORD_SIZE];
        let mut got = 0;
        while got < BOARD_RECORD_SIZE {
            match self.input.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    self.done = true;
                    let file = self.path.clone();
                    return Some(Ok(Err(DataError::Io { file, source })));
                }
            }
        }
        let location = DataLocation::Record(self.index);
        let error = |reason| DataError::BadCoded {
            file: self.path.clone(),
            location,
            reason,
        };
        if got < BOARD_RECORD_SIZE {
            self.done = true;
            let needed = BOARD_RECORD_SIZE as u64;
            let available = got as u64;
            return (got > 0).then(|| Ok(Err(error(CodecError::Truncated { needed, available }))));
        }
        self.index += 1;
        Some(match self.kind.decode(&bytes) {
            Ok(record) => Ok(Ok((location, record))),
            Err(reason) => Err(error(reason)),
        })
    }
}

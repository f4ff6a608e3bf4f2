//! The buffered writer of `.mf` and `.bf` files.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::super::codec_error::CodecError;
use super::super::error::DataError;
use super::super::record::{decode_fast, RecordPolicy};
use super::BoardKind;
use crate::packed::PackedSfenValue;

/// Output buffer of the writer.
const BUFFER_BYTES: usize = 1 << 16;

/// Writes toolkit records as 32-byte records.
pub struct BoardWriter {
    out: BufWriter<File>,
    path: PathBuf,
    kind: BoardKind,
    records: u64,
}

impl BoardWriter {
    /// Writes `kind` records to `file` (created, appended to, or an atomic
    /// temporary), named `path` in errors.
    pub(crate) fn new(file: File, path: &Path, kind: BoardKind) -> BoardWriter {
        BoardWriter {
            out: BufWriter::with_capacity(BUFFER_BYTES, file),
            path: path.to_path_buf(),
            kind,
            records: 0,
        }
    }

    /// The layout written.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// Adds one record (any structurally sound record; the move is not
    /// stored). One the format cannot hold is an error naming its index.
    pub(crate) fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        let policy = RecordPolicy {
            allow_move_none: true,
        };
        let bytes = decode_fast(value, policy)
            .map_err(CodecError::from)
            .and_then(|record| self.kind.encode(&record))
            .map_err(|reason| DataError::CannotHold {
                file: self.path.clone(),
                index: self.records,
                format: self.kind.format(),
                reason,
            })?;
        self.out
            .write_all(&bytes)
            .map_err(|e| DataError::io(&self.path, e))?;
        self.records += 1;
        Ok(())
    }

    /// Flushes and syncs; gives the number of records written.
    pub(crate) fn finish(self) -> Result<u64, DataError> {
        let io = |e| DataError::io(&self.path, e);
        let mut out = self.out;
        out.flush().map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        Ok(self.records)
    }
}

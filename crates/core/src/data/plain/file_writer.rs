//! `.plain` output to a file: the [`PlainWriter`] text encoder with a buffer,
//! the file's path for errors and a record count, as
//! [`crate::data::TrainingDataWriter`] needs it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::writer::PlainWriter;
use crate::data::error::DataError;
use crate::data::record::{decode_fast, RecordPolicy};
use crate::packed::PackedSfenValue;

/// Output buffer of the `.plain` writer.
const PLAIN_BUFFER_BYTES: usize = 1 << 16;

/// `.plain` output to a file, with the path for errors.
pub struct PlainFileWriter {
    writer: PlainWriter<BufWriter<File>>,
    path: PathBuf,
    records: u64,
}

impl PlainFileWriter {
    /// Writes to `file` (created, appended to, or an atomic temporary: the
    /// caller opened it), named `path` in errors.
    pub(crate) fn new(file: File, path: &Path) -> PlainFileWriter {
        PlainFileWriter {
            writer: PlainWriter::new(BufWriter::with_capacity(PLAIN_BUFFER_BYTES, file)),
            path: path.to_path_buf(),
            records: 0,
        }
    }

    /// Prints one record; one that does not decode is an error naming its
    /// index in this output.
    pub(crate) fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        // Text can show any structurally sound record, MOVE_NONE included.
        let policy = RecordPolicy {
            allow_move_none: true,
        };
        let record = decode_fast(value, policy).map_err(|reason| DataError::BadRecord {
            file: self.path.clone(),
            index: self.records,
            reason,
        })?;
        self.writer
            .write(&record)
            .map_err(|e| DataError::io(&self.path, e))?;
        self.records += 1;
        Ok(())
    }

    /// Flushes and syncs the file, so the records are on disk when it
    /// returns; gives the number of records written.
    pub(crate) fn finish(self) -> Result<u64, DataError> {
        let io = |e| DataError::io(&self.path, e);
        let mut out = self.writer.into_inner();
        out.flush().map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        Ok(self.records)
    }
}

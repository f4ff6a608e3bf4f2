//! Buffered `.bin` writer that only ever leaves whole records on disk.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::data::error::DataError;
use crate::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

/// Records buffered before a write (5000 like Stockfish's per-thread buffers
/// would be fine too; 4096 × 40 B = 160 KiB keeps syscalls rare).
const BUFFER_RECORDS: usize = 4096;

/// Appends [`PackedSfenValue`]s to a file.
///
/// Whole-record guarantee: records are buffered and written with one
/// `write_all` per flush; if a write fails part-way, the file is cut back
/// to the last whole record before the error is returned. A process killed
/// between flushes leaves only whole records; a generator that wants to
/// stop cleanly on Ctrl-C calls [`BinWriter::flush`] (or `finish`) from its
/// interrupt path, e.g. with the writer behind a `Mutex`.
pub struct BinWriter {
    file: File,
    path: PathBuf,
    buf: Vec<u8>,
    /// File length known to hold only whole records.
    committed: u64,
    records: u64,
}

impl BinWriter {
    /// Creates (truncates) `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<BinWriter, DataError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| DataError::io(path, e))?;
        Self::from_file(file, path)
    }

    /// Opens `path` for appending (creating it if needed), as Stockfish's
    /// generators do. An existing file whose size is not a multiple of 40 is
    /// refused: appending would misalign every later record.
    pub fn append(path: impl AsRef<Path>) -> Result<BinWriter, DataError> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| DataError::io(path, e))?;
        Self::from_file(file, path)
    }

    /// Wraps an open file positioned at its end; `path` is used in errors.
    pub fn from_file(mut file: File, path: impl AsRef<Path>) -> Result<BinWriter, DataError> {
        let path = path.as_ref();
        let size = file
            .seek(SeekFrom::End(0))
            .map_err(|e| DataError::io(path, e))?;
        if size % PACKED_SFEN_VALUE_SIZE as u64 != 0 {
            return Err(DataError::Truncated {
                file: path.to_path_buf(),
                index: size / PACKED_SFEN_VALUE_SIZE as u64,
                trailing: size % PACKED_SFEN_VALUE_SIZE as u64,
                size,
            });
        }
        Ok(BinWriter {
            file,
            path: path.to_path_buf(),
            buf: Vec::with_capacity(BUFFER_RECORDS * PACKED_SFEN_VALUE_SIZE),
            committed: size,
            records: 0,
        })
    }

    /// Queues one record; writes the buffer when it is full.
    pub fn write(&mut self, record: &PackedSfenValue) -> Result<(), DataError> {
        self.buf.extend_from_slice(&record.to_bytes());
        self.records += 1;
        if self.buf.len() >= BUFFER_RECORDS * PACKED_SFEN_VALUE_SIZE {
            self.flush()?;
        }
        Ok(())
    }

    /// Queues many records (e.g. one finished game).
    pub fn write_all(&mut self, records: &[PackedSfenValue]) -> Result<(), DataError> {
        records.iter().try_for_each(|r| self.write(r))
    }

    /// Writes everything buffered. On error the file is truncated back to
    /// its last whole record and the buffer is dropped.
    pub fn flush(&mut self) -> Result<(), DataError> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let result = self
            .file
            .write_all(&self.buf)
            .and_then(|()| self.file.flush());
        match result {
            Ok(()) => {
                self.committed += self.buf.len() as u64;
                self.buf.clear();
                Ok(())
            }
            Err(e) => {
                self.buf.clear();
                // Best effort: cut a partial record off again.
                let _ = self.file.set_len(self.committed);
                Err(DataError::io(&self.path, e))
            }
        }
    }

    /// Records queued through this writer (written or buffered).
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Path given at creation.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes and syncs to disk; returns the number of records written.
    pub fn finish(mut self) -> Result<u64, DataError> {
        self.flush()?;
        self.file
            .sync_all()
            .map_err(|e| DataError::io(&self.path, e))?;
        Ok(self.records)
    }
}

impl Drop for BinWriter {
    /// Dropping without `finish` still writes buffered records (whole ones
    /// only); errors are lost, so call `finish` to see them.
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

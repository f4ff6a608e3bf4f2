//! `.binpack` writer: records in, Stockfish's chained chunks out, through
//! the `sfbinpack` crate's `CompressedTrainingDataEntryWriter`.
//!
//! Consecutive records chain (a few bits per position instead of 32 bytes)
//! only when each is the previous one after its best move, with the ply
//! one higher and the result flipped; so writers must keep each game's
//! positions together and in order, as Stockfish's generator does.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use sfbinpack::{CompressedTrainingDataEntryWriter, TrainingDataEntry};

use super::convert::{bp_move_from, position_from_decoded, MAX_BINPACK_PLY};
use super::reader::BinpackReader;
use crate::data::error::{DataError, StoreError};
use crate::data::record::{decode_full, RecordPolicy};
use crate::packed::PackedSfenValue;

/// Longest chain we let the crate build. Its chunk buffer leaves about
/// 10 KiB for one chain's move text and a ply costs at most 29 bits
/// (4 piece bits, 5 move bits, 20 score bits), so chains are cut at 2048
/// plies (at most 7.3 KiB) by starting a new chunk. Real games never get
/// near this; it only guards against pathological input.
pub const MAX_CHAIN_PLIES: u32 = 2048;

/// Output buffer size.
const BUFFER_BYTES: usize = 1 << 20;

/// The crate reports write errors only by printing them when it is
/// dropped, so the sink keeps the first error for us and swallows
/// everything after it.
struct Sink {
    out: BufWriter<File>,
    error: Arc<OnceLock<io::Error>>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.get().is_none() {
            if let Err(e) = self.out.write_all(buf) {
                let _ = self.error.set(e);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.error.get().is_none() {
            if let Err(e) = self.out.flush() {
                let _ = self.error.set(e);
            }
        }
        Ok(())
    }
}

type Encoder = CompressedTrainingDataEntryWriter<Sink>;

/// Writes [`PackedSfenValue`]s as a `.binpack` file.
///
/// Every record is fully validated first (legal position and best move):
/// chains are built by playing the move, so a bad record would corrupt the
/// ones after it. Chunks are written whole; call [`BinpackWriter::finish`]
/// to write the last one and see any I/O error.
pub struct BinpackWriter {
    encoder: Option<Encoder>,
    error: Arc<OnceLock<io::Error>>,
    path: PathBuf,
    last: Option<TrainingDataEntry>,
    chain_plies: u32,
    max_chain_plies: u32,
    records: u64,
}

impl BinpackWriter {
    /// Creates (truncates) `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<BinpackWriter, DataError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| DataError::io(path, e))?;
        Self::from_file(file, path)
    }

    /// Appends chunks to `path` (creating it if needed), as Stockfish's
    /// generator does. An existing file must consist of whole chunks.
    pub fn append(path: impl AsRef<Path>) -> Result<BinpackWriter, DataError> {
        let path = path.as_ref();
        if path.exists() {
            Self::check_whole_chunks(path)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| DataError::io(path, e))?;
        Self::from_file(file, path)
    }

    /// Checks that the chunk headers of `path` tile it exactly, so that
    /// chunks appended to it can be read (the chains are not decoded).
    pub fn check_whole_chunks(path: impl AsRef<Path>) -> Result<(), DataError> {
        let reader = BinpackReader::open(path)?;
        reader.chunks().try_for_each(|chunk| chunk.map(|_| ()))
    }

    /// Writes to an open file (at its end); `path` names it in errors.
    pub fn from_file(file: File, path: impl AsRef<Path>) -> Result<BinpackWriter, DataError> {
        let path = path.as_ref().to_path_buf();
        let error = Arc::new(OnceLock::new());
        let sink = Sink {
            out: BufWriter::with_capacity(BUFFER_BYTES, file),
            error: Arc::clone(&error),
        };
        let encoder = Encoder::new(sink).map_err(|e| encoder_error(&path, e))?;
        Ok(BinpackWriter {
            encoder: Some(encoder),
            error,
            path,
            last: None,
            chain_plies: 0,
            max_chain_plies: MAX_CHAIN_PLIES,
            records: 0,
        })
    }

    /// Path given at creation.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records accepted so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    fn unstorable(&self, reason: StoreError) -> DataError {
        DataError::Unstorable {
            file: self.path.clone(),
            index: self.records,
            reason,
        }
    }

    /// The crate's entry for a record, or why it cannot be stored.
    fn entry_of(&self, value: &PackedSfenValue) -> Result<TrainingDataEntry, DataError> {
        let validated = decode_full(value, RecordPolicy::default())
            .map_err(|e| self.unstorable(StoreError::Record(e)))?;
        let record = &validated.record;
        if record.game_ply > MAX_BINPACK_PLY {
            return Err(self.unstorable(StoreError::PlyTooLarge(record.game_ply)));
        }
        Ok(TrainingDataEntry {
            pos: position_from_decoded(&record.position),
            mv: bp_move_from(record.mv, record.position.turn),
            score: record.score,
            ply: record.game_ply,
            result: i16::from(record.result.to_i8()),
        })
    }

    /// Appends one record (a later record of the same game continues its
    /// chain if it directly follows it).
    pub fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        let entry = self.entry_of(value)?;
        let continues = self.last.is_some_and(|last| last.is_continuation(&entry));
        self.chain_plies = if continues { self.chain_plies + 1 } else { 0 };
        if self.chain_plies > self.max_chain_plies {
            self.restart()?;
            self.chain_plies = 0;
        }
        let path = &self.path;
        let encoder = self.encoder.as_mut().ok_or_else(|| closed(path))?;
        encoder
            .write_entry(&entry)
            .map_err(|e| encoder_error(path, e))?;
        self.last = Some(entry);
        self.records += 1;
        self.check_io()
    }

    /// Ends the current chunk (and so the current chain) and starts a
    /// fresh encoder on the same output.
    fn restart(&mut self) -> Result<(), DataError> {
        let sink = self.take_sink()?;
        let encoder = Encoder::new(sink).map_err(|e| encoder_error(&self.path, e))?;
        self.encoder = Some(encoder);
        self.check_io()
    }

    /// Writes out the pending chunk and returns the output.
    fn take_sink(&mut self) -> Result<Sink, DataError> {
        let mut encoder = self.encoder.take().ok_or_else(|| closed(&self.path))?;
        encoder.flush_and_end();
        encoder
            .into_inner()
            .map_err(|e| DataError::io(&self.path, e))
    }

    fn check_io(&self) -> Result<(), DataError> {
        match self.error.get() {
            None => Ok(()),
            Some(e) => Err(DataError::io(
                &self.path,
                io::Error::new(e.kind(), e.to_string()),
            )),
        }
    }

    /// Writes the last chunk, flushes and syncs; returns the number of
    /// records written.
    pub fn finish(mut self) -> Result<u64, DataError> {
        let sink = self.take_sink()?;
        self.check_io()?;
        let file = sink
            .out
            .into_inner()
            .map_err(|e| DataError::io(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| DataError::io(&self.path, e))?;
        Ok(self.records)
    }
}

fn closed(path: &Path) -> DataError {
    DataError::io(path, io::Error::other("binpack writer already closed"))
}

fn encoder_error(path: &Path, e: sfbinpack::CompressedWriterError) -> DataError {
    match e {
        sfbinpack::CompressedWriterError::Io(e) => DataError::io(path, e),
        other => DataError::io(path, io::Error::other(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::packed::GameResult;

    /// One game along the first legal move, `plies` records.
    fn game(plies: u16) -> Vec<PackedSfenValue> {
        let mut pos = Chess::default();
        let mut out = Vec::new();
        for ply in 0..plies {
            let m = pos.legal_moves()[0];
            let result = if ply % 2 == 0 {
                GameResult::Win
            } else {
                GameResult::Loss
            };
            out.push(PackedSfenValue::new(&pos, ply as i16, &m, ply, result));
            pos.play_unchecked(m);
        }
        out
    }

    #[test]
    fn long_chains_are_cut_into_new_chunks() {
        let path = std::env::temp_dir().join(format!("nnue-chain-{}.binpack", std::process::id()));
        let records = game(40);
        let mut writer = BinpackWriter::create(&path).expect("create");
        writer.max_chain_plies = 8;
        for r in &records {
            writer.write(r).expect("write");
        }
        writer.finish().expect("finish");
        let reader = BinpackReader::open(&path).expect("open");
        // Chains start at records 0, 9, 18, 27 and 36, each in its own chunk.
        assert_eq!(reader.chunks().count(), 5);
        let back: Vec<_> = reader
            .entries(RecordPolicy::default())
            .map(|e| e.expect("valid").1)
            .collect();
        assert_eq!(back, records);
        let _ = std::fs::remove_file(&path);
    }
}

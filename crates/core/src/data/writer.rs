//! One writer for `.bin`, `.binpack` and `.plain`, chosen by extension.

use std::fs::{File, OpenOptions};
use std::path::Path;

use super::bin::BinWriter;
use super::binpack::BinpackWriter;
use super::error::DataError;
use super::format::DataFormat;
use super::plain::PlainFileWriter;
use crate::packed::PackedSfenValue;

/// A training-data writer of any supported format.
///
/// Records are written as given: `.bin` keeps every byte (padding
/// included), `.plain` prints the record, `.binpack` requires a legal
/// position and best move and chains consecutive positions of one game —
/// keep each game's records together and in order.
pub enum TrainingDataWriter {
    /// `.bin` output.
    Bin(BinWriter),
    /// `.binpack` output (boxed: the encoder keeps two positions inline).
    Binpack(Box<BinpackWriter>),
    /// `.plain` output.
    Plain(PlainFileWriter),
}

impl TrainingDataWriter {
    /// Creates (truncates) `path`, its format chosen by extension.
    pub fn create(path: impl AsRef<Path>) -> Result<TrainingDataWriter, DataError> {
        let path = path.as_ref();
        let format = DataFormat::from_path(path)?;
        let file = File::create(path).map_err(|e| DataError::io(path, e))?;
        Self::from_file(file, path, format)
    }

    /// Appends to `path` (creating it), as Stockfish's generator does.
    /// `.bin` and `.binpack` files must end on a whole record or chunk.
    pub fn append(path: impl AsRef<Path>) -> Result<TrainingDataWriter, DataError> {
        let path = path.as_ref();
        Ok(match DataFormat::from_path(path)? {
            DataFormat::Bin => TrainingDataWriter::Bin(BinWriter::append(path)?),
            DataFormat::Binpack => {
                TrainingDataWriter::Binpack(Box::new(BinpackWriter::append(path)?))
            }
            DataFormat::Plain => {
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| DataError::io(path, e))?;
                TrainingDataWriter::Plain(PlainFileWriter::new(file, path))
            }
        })
    }

    /// Writes `format` to an open file (e.g. an
    /// [`crate::output::AtomicOutput`] temporary); `path` names it in errors.
    pub fn from_file(
        file: File,
        path: impl AsRef<Path>,
        format: DataFormat,
    ) -> Result<TrainingDataWriter, DataError> {
        let path = path.as_ref();
        Ok(match format {
            DataFormat::Bin => TrainingDataWriter::Bin(BinWriter::from_file(file, path)?),
            DataFormat::Binpack => {
                TrainingDataWriter::Binpack(Box::new(BinpackWriter::from_file(file, path)?))
            }
            DataFormat::Plain => TrainingDataWriter::Plain(PlainFileWriter::new(file, path)),
        })
    }

    /// The output format.
    pub fn format(&self) -> DataFormat {
        match self {
            TrainingDataWriter::Bin(_) => DataFormat::Bin,
            TrainingDataWriter::Binpack(_) => DataFormat::Binpack,
            TrainingDataWriter::Plain(_) => DataFormat::Plain,
        }
    }

    /// Appends one record.
    pub fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        match self {
            TrainingDataWriter::Bin(w) => w.write(value),
            TrainingDataWriter::Binpack(w) => w.write(value),
            TrainingDataWriter::Plain(w) => w.write(value),
        }
    }

    /// Appends one game's records in order, so that they chain in
    /// `.binpack`. Generator threads sharing a writer (it is `Send`; put it
    /// behind a `Mutex`) should hand over whole games this way, under one
    /// lock, so that games never interleave.
    pub fn write_all(&mut self, values: &[PackedSfenValue]) -> Result<(), DataError> {
        values.iter().try_for_each(|v| self.write(v))
    }

    /// Flushes everything to disk; returns the number of records written
    /// through this writer.
    pub fn finish(self) -> Result<u64, DataError> {
        match self {
            TrainingDataWriter::Bin(w) => w.finish(),
            TrainingDataWriter::Binpack(w) => w.finish(),
            TrainingDataWriter::Plain(w) => w.finish(),
        }
    }
}

//! One writer for `.bin`, `.binpack`, `.plain`, `.vf`, `.mf` and `.bf`,
//! chosen by extension or by name.

use std::fs::{File, OpenOptions};
use std::path::Path;

use super::bin::BinWriter;
use super::binpack::BinpackWriter;
use super::boards::{BoardKind, BoardWriter, BOARD_RECORD_SIZE};
use super::codec_error::CodecError;
use super::error::DataError;
use super::format::DataFormat;
use super::plain::PlainFileWriter;
use super::reader::DataLocation;
use super::viri::ViriWriter;
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
    /// `.vf` output: consecutive records that follow from each other by
    /// their moves form one game.
    Viri(ViriWriter),
    /// `.mf` or `.bf` output.
    Boards(BoardWriter),
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
    /// `.bin`, `.binpack`, `.mf` and `.bf` files must end on a whole record
    /// or chunk, `.vf` files on a game's four zero bytes.
    pub fn append(path: impl AsRef<Path>) -> Result<TrainingDataWriter, DataError> {
        let path = path.as_ref();
        let format = DataFormat::from_path(path)?;
        Ok(match format {
            DataFormat::Bin => TrainingDataWriter::Bin(BinWriter::append(path)?),
            DataFormat::Binpack => {
                TrainingDataWriter::Binpack(Box::new(BinpackWriter::append(path)?))
            }
            _ => {
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| DataError::io(path, e))?;
                check_appendable(path, format)?;
                Self::from_file(file, path, format)?
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
            DataFormat::Viri => TrainingDataWriter::Viri(ViriWriter::new(file, path)),
            DataFormat::Marlin => {
                TrainingDataWriter::Boards(BoardWriter::new(file, path, BoardKind::Marlin))
            }
            DataFormat::Bullet => {
                TrainingDataWriter::Boards(BoardWriter::new(file, path, BoardKind::Bullet))
            }
        })
    }

    /// The output format.
    pub fn format(&self) -> DataFormat {
        match self {
            TrainingDataWriter::Bin(_) => DataFormat::Bin,
            TrainingDataWriter::Binpack(_) => DataFormat::Binpack,
            TrainingDataWriter::Plain(_) => DataFormat::Plain,
            TrainingDataWriter::Viri(_) => DataFormat::Viri,
            TrainingDataWriter::Boards(w) => w.kind().format(),
        }
    }

    /// Appends one record.
    pub fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        match self {
            TrainingDataWriter::Bin(w) => w.write(value),
            TrainingDataWriter::Binpack(w) => w.write(value),
            TrainingDataWriter::Plain(w) => w.write(value),
            TrainingDataWriter::Viri(w) => w.write(value),
            TrainingDataWriter::Boards(w) => w.write(value),
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
            TrainingDataWriter::Viri(w) => w.finish(),
            TrainingDataWriter::Boards(w) => w.finish(),
        }
    }
}

/// Whether records of `format` can be appended to `path`: an existing `.mf`
/// or `.bf` file must hold whole records and a `.vf` file must end on a
/// game's terminator, or appended data would be misread (the other formats'
/// writers check their own). A missing file is fine.
pub fn check_appendable(path: &Path, format: DataFormat) -> Result<(), DataError> {
    use std::io::{Read, Seek, SeekFrom};
    let size = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(DataError::io(path, e)),
    };
    let record = BOARD_RECORD_SIZE as u64;
    let cut = |reason| DataError::BadCoded {
        file: path.to_path_buf(),
        location: DataLocation::Record(size / record),
        reason,
    };
    match format {
        DataFormat::Marlin | DataFormat::Bullet if !size.is_multiple_of(record) => {
            Err(cut(CodecError::Truncated {
                needed: record,
                available: size % record,
            }))
        }
        DataFormat::Viri if size > 0 => {
            let mut end = [1u8; 4];
            let mut reader = File::open(path).map_err(|e| DataError::io(path, e))?;
            let read = reader
                .seek(SeekFrom::End(-4))
                .and_then(|_| reader.read_exact(&mut end));
            match read {
                Ok(()) if end == [0; 4] => Ok(()),
                _ => Err(DataError::BadCoded {
                    file: path.to_path_buf(),
                    location: DataLocation::Game {
                        game: 0,
                        offset: size,
                    },
                    reason: CodecError::UnterminatedGame,
                }),
            }
        }
        _ => Ok(()),
    }
}

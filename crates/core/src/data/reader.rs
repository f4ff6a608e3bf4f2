//! One reader for `.bin`, `.binpack`, `.plain`, `.vf`, `.mf` and `.bf`,
//! chosen by extension or by name: every program sees the same validated
//! records with the same kind of error locations whatever the file format.

use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::bin::{BinReader, ReaderOptions};
use super::binpack::{BinpackLocation, BinpackReader, Entries};
use super::boards::{BoardKind, BoardRecords};
use super::codec_error::CodecError;
use super::error::{DataError, PlainError, RecordError};
use super::format::DataFormat;
use super::open::open_data_file;
use super::plain::{PlainEntry, PlainKey, PlainReader};
use super::record::{decode_fast, decode_full, RecordPolicy, TrainingRecord, Validation};
use super::sniff::looks_like;
use super::viri::ViriReader;
use crate::packed::PackedSfenValue;

/// Read buffer of the streaming readers (`.vf`, `.mf`, `.bf`).
const STREAM_BUFFER_BYTES: usize = 1 << 16;

/// Where a record sits in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataLocation {
    /// `.bin`: record index from 0.
    Record(u64),
    /// `.binpack`: chunk and entry within it.
    Entry(BinpackLocation),
    /// `.plain`: line number (from 1) of the record's `e` line.
    Line(u64),
    /// `.vf`: a game's start board or terminator, by game index from 0 and
    /// byte offset.
    Game { game: u64, offset: u64 },
    /// `.vf`: one record (from 0 in the file), the game and the move within
    /// it (from 0) and the byte offset of its entry.
    GameMove {
        record: u64,
        game: u64,
        mv: u64,
        offset: u64,
    },
}

impl fmt::Display for DataLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataLocation::Record(i) => write!(f, "record {i}"),
            DataLocation::Entry(l) => write!(
                f,
                "chunk {} at byte {}, entry {}",
                l.chunk, l.offset, l.entry
            ),
            DataLocation::Line(l) => write!(f, "line {l}"),
            DataLocation::Game { game, offset } => write!(f, "game {game} at byte {offset}"),
            DataLocation::GameMove {
                record,
                game,
                mv,
                offset,
            } => write!(f, "record {record} (game {game}, move {mv}, byte {offset})"),
        }
    }
}

/// One validated record.
#[derive(Debug, Clone)]
pub struct DataRecord {
    /// Where it was read.
    pub location: DataLocation,
    /// Its 40-byte form (`.binpack` and `.plain` records get padding 0xFF,
    /// as Stockfish's `convert` writes them).
    pub raw: PackedSfenValue,
    /// Its decoded fields.
    pub record: TrainingRecord,
}

enum Source {
    Bin(BinReader),
    Binpack(BinpackReader),
    /// `.plain`, `.vf`, `.mf` and `.bf` are streamed from the path.
    Stream,
}

/// A training-data file of any supported format.
///
/// ```no_run
/// use nnue_core::data::{ReaderOptions, TrainingDataReader, Validation};
///
/// let reader = TrainingDataReader::open("games.binpack", ReaderOptions::default())?;
/// for record in reader.records(Validation::Fast)? {
///     let record = record?;
///     println!("{}: {}", record.location, record.record.position.fen());
/// }
/// # Ok::<(), nnue_core::data::DataError>(())
/// ```
pub struct TrainingDataReader {
    path: PathBuf,
    format: DataFormat,
    options: ReaderOptions,
    source: Source,
}

impl TrainingDataReader {
    /// Opens `path`, its format chosen by extension.
    ///
    /// `options.skip_invalid` skips (and counts) invalid `.bin`, `.plain`,
    /// `.mf` and `.bf` records. It does not apply to `.binpack` and `.vf`:
    /// each entry there is derived from the one before, so a bad entry,
    /// chunk or game ends the file with an error.
    pub fn open(path: impl AsRef<Path>, options: ReaderOptions) -> Result<Self, DataError> {
        Self::open_as(path, None, options)
    }

    /// Opens `path` as `format` where given, else by its extension. A file
    /// whose bytes do not fit the format, here or while reading, is an error
    /// that names the format they look like where one fits.
    pub fn open_as(
        path: impl AsRef<Path>,
        format: Option<DataFormat>,
        options: ReaderOptions,
    ) -> Result<Self, DataError> {
        let path = path.as_ref();
        let format = DataFormat::from_path_or(path, format)?;
        let source = match format {
            DataFormat::Bin => Source::Bin(
                BinReader::open(&[path], options).map_err(|e| with_hint(e, path, format))?,
            ),
            DataFormat::Binpack => {
                open_data_file(path)?;
                Source::Binpack(BinpackReader::open(path)?)
            }
            _ => {
                open_data_file(path)?;
                Source::Stream
            }
        };
        Ok(TrainingDataReader {
            path: path.to_path_buf(),
            format,
            options,
            source,
        })
    }

    /// The file's format.
    pub fn format(&self) -> DataFormat {
        self.format
    }

    /// The path given at opening.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The records in file order.
    ///
    /// [`Validation::Fast`] checks structure only; [`Validation::Full`] also
    /// requires a legal position and best move. `.plain` records are always
    /// fully checked, since packing them needs a legal position anyway.
    pub fn records(&self, validation: Validation) -> Result<DataRecords<'_>, DataError> {
        let policy = self.options.policy;
        let inner = match &self.source {
            Source::Bin(reader) => Inner::Bin {
                iter: Box::new(reader.iter_raw().map(|(loc, raw)| (loc.index, raw))),
            },
            Source::Binpack(reader) => Inner::Binpack(reader.entries(policy)),
            Source::Stream => self.stream()?,
        };
        let skipped = match &self.source {
            Source::Bin(reader) => reader.truncated_tails(),
            _ => 0,
        };
        Ok(DataRecords {
            path: &self.path,
            format: self.format,
            inner,
            validation,
            options: self.options,
            skipped,
            failed: false,
        })
    }
}

impl TrainingDataReader {
    /// The streaming reader of a `.plain`, `.vf`, `.mf` or `.bf` file.
    fn stream(&self) -> Result<Inner<'static>, DataError> {
        let path = self.path.as_path();
        if self.format == DataFormat::Plain {
            return Ok(Inner::Plain(PlainReader::open(path)?));
        }
        let file = open_data_file(path)?;
        let input = BufReader::with_capacity(STREAM_BUFFER_BYTES, file);
        Ok(match self.format {
            DataFormat::Viri => Inner::Viri(ViriReader::new(input, path)),
            DataFormat::Bullet => Inner::Boards(BoardRecords::new(input, path, BoardKind::Bullet)),
            _ => Inner::Boards(BoardRecords::new(input, path, BoardKind::Marlin)),
        })
    }
}

/// `error` with the format the file looks like, where its bytes fit
/// another than `format` and the error is about the bytes.
fn with_hint(error: DataError, path: &Path, format: DataFormat) -> DataError {
    let about_bytes = matches!(
        error,
        DataError::Truncated { .. }
            | DataError::BadRecord { .. }
            | DataError::BadPlain { .. }
            | DataError::BadChunk { .. }
            | DataError::BadCoded { .. }
    );
    match looks_like(path, format) {
        Some(looks_like) if about_bytes => DataError::LooksLike {
            error: Box::new(error),
            looks_like,
        },
        _ => error,
    }
}

enum Inner<'a> {
    Bin {
        iter: Box<dyn Iterator<Item = (u64, PackedSfenValue)> + 'a>,
    },
    Binpack(Entries<'a>),
    Plain(PlainReader<BufReader<File>>),
    Viri(ViriReader<BufReader<File>>),
    Boards(BoardRecords<BufReader<File>>),
}

/// Iterator over the records of a [`TrainingDataReader`]. Without
/// `skip_invalid` the first bad record is returned as an error and ends the
/// iteration.
pub struct DataRecords<'a> {
    path: &'a Path,
    format: DataFormat,
    inner: Inner<'a>,
    validation: Validation,
    options: ReaderOptions,
    skipped: u64,
    failed: bool,
}

impl DataRecords<'_> {
    /// Records skipped as invalid so far (including a cut-off `.bin` tail).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    fn check(&self, raw: &PackedSfenValue) -> Result<TrainingRecord, RecordError> {
        match self.validation {
            Validation::Fast => decode_fast(raw, self.options.policy),
            Validation::Full => decode_full(raw, self.options.policy).map(|v| v.record),
        }
    }

    /// The next record or error, before `skip_invalid` is applied: the
    /// outer `Err` is skippable, an inner `Err` is fatal.
    fn step(&mut self) -> Option<Result<Result<DataRecord, DataError>, DataError>> {
        match &mut self.inner {
            Inner::Bin { iter } => {
                let (index, raw) = iter.next()?;
                Some(match self.check(&raw) {
                    Ok(record) => Ok(Ok(DataRecord {
                        location: DataLocation::Record(index),
                        raw,
                        record,
                    })),
                    Err(reason) => Err(DataError::BadRecord {
                        file: self.path.to_path_buf(),
                        index,
                        reason,
                    }),
                })
            }
            Inner::Binpack(entries) => {
                let item = entries.next()?;
                Some(Ok(item.and_then(|(loc, raw, record)| {
                    self.binpack_record(loc, raw, record)
                })))
            }
            Inner::Plain(reader) => {
                // A malformed record is skippable (the reader resumes at the
                // next one); an I/O error is not.
                let entry = match reader.next()? {
                    Ok(entry) => entry,
                    Err(e @ DataError::BadPlain { .. }) => return Some(Err(e)),
                    Err(e) => return Some(Ok(Err(e))),
                };
                Some(
                    plain_record(&entry, self.options.policy, self.path).map(|(raw, record)| {
                        Ok(DataRecord {
                            location: DataLocation::Line(entry.line),
                            raw,
                            record,
                        })
                    }),
                )
            }
            Inner::Viri(reader) => Some(Ok(reader.next()?.map(|(location, record)| DataRecord {
                location,
                raw: record.to_packed(),
                record,
            }))),
            Inner::Boards(reader) => {
                let step = reader.step()?;
                Some(step.map(|inner| inner.and_then(|(l, r)| self.board_record(l, r))))
            }
        }
    }

    /// A record of a `.mf` or `.bf` file, whose position must also be legal
    /// under [`Validation::Full`] (the formats store no move to check).
    fn board_record(
        &self,
        location: DataLocation,
        record: TrainingRecord,
    ) -> Result<DataRecord, DataError> {
        if self.validation == Validation::Full {
            if let Err(e) = record.position.to_chess() {
                return Err(DataError::BadCoded {
                    file: self.path.to_path_buf(),
                    location,
                    reason: CodecError::Record(RecordError::Sfen(e)),
                });
            }
        }
        Ok(DataRecord {
            location,
            raw: record.to_packed(),
            record,
        })
    }

    fn binpack_record(
        &self,
        loc: BinpackLocation,
        raw: PackedSfenValue,
        record: TrainingRecord,
    ) -> Result<DataRecord, DataError> {
        let record = match self.validation {
            Validation::Fast => record,
            Validation::Full => self.check(&raw).map_err(|reason| DataError::BadChunk {
                file: self.path.to_path_buf(),
                chunk: loc.chunk,
                offset: loc.offset,
                reason: super::ChunkError::BadEntry {
                    entry: loc.entry,
                    reason,
                },
            })?,
        };
        Ok(DataRecord {
            location: DataLocation::Entry(loc),
            raw,
            record,
        })
    }
}

impl Iterator for DataRecords<'_> {
    type Item = Result<DataRecord, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            match self.step()? {
                Ok(Ok(record)) => return Some(Ok(record)),
                Err(_) if self.options.skip_invalid => self.skipped += 1,
                Ok(Err(e)) | Err(e) => {
                    self.failed = true;
                    return Some(Err(with_hint(e, self.path, self.format)));
                }
            }
        }
    }
}

/// Packs a `.plain` entry (legal position and move required) and decodes it;
/// an error names the line of the field at fault.
fn plain_record(
    entry: &PlainEntry,
    policy: RecordPolicy,
    path: &Path,
) -> Result<(PackedSfenValue, TrainingRecord), DataError> {
    let (raw, _) = entry.pack(policy, path)?;
    let record = decode_fast(&raw, policy).map_err(|reason| DataError::BadPlain {
        file: path.to_path_buf(),
        line: entry.line_of(PlainKey::Fen),
        reason: PlainError::Record(reason),
    })?;
    Ok((raw, record))
}

//! Errors of the data readers and writers. Every message names the file and
//! the record index (binary) or line number (text), so a one-line report is
//! enough to find the bad spot.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::codec_error::CodecError;
use super::format::DataFormat;
use super::plain::PlainKey;
use super::reader::DataLocation;
use crate::packed::{MoveError, SfenError, PACKED_SFEN_VALUE_SIZE};

/// What is wrong with one 40-byte record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The packed position is corrupt.
    #[error("{0}")]
    Sfen(#[from] SfenError),
    /// The best move is missing, malformed or illegal.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// `game_result` outside −1..=1.
    #[error("game result {0} outside -1..1")]
    ResultOutOfRange(i8),
}

/// What is wrong with one `.plain` line or record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlainError {
    /// A number field that does not parse or does not fit its binary field.
    #[error("bad {key} value {value:?}")]
    BadNumber { key: &'static str, value: String },
    /// The FEN does not parse or is not a legal position.
    #[error("bad fen {fen:?}: {reason}")]
    BadFen { fen: String, reason: String },
    /// An `e` line before the record had all its keys.
    #[error("record without a {0} line")]
    MissingKey(&'static str),
    /// A line whose key is none of `fen`, `move`, `score`, `ply`, `result`, `e`.
    #[error("unknown key {0:?} (a record is fen, move, score, ply, result, then e)")]
    UnknownKey(String),
    /// An empty line.
    #[error("empty line (a record is fen, move, score, ply, result, then e)")]
    EmptyLine,
    /// The same key twice in one record.
    #[error("second {key} line in one record (the first is line {first})")]
    DuplicateKey { key: &'static str, first: u64 },
    /// Text after a key that takes none (`e`).
    #[error("unexpected {value:?} after {key}")]
    UnexpectedValue { key: &'static str, value: String },
    /// A `fen` line while the record before it still lacks its `e`.
    #[error("the record from line {start} has no closing e line before this fen")]
    Unterminated { start: u64 },
    /// The file ends inside a record.
    #[error("the file ends inside the record from line {start} (no closing e line)")]
    Truncated { start: u64 },
    /// The position or move cannot be packed.
    #[error("{0}")]
    Record(#[from] RecordError),
}

impl PlainError {
    /// The field whose line the error belongs to, for errors found when a
    /// complete record is packed.
    pub fn field(&self) -> Option<PlainKey> {
        match self {
            PlainError::BadFen { .. } | PlainError::Record(RecordError::Sfen(_)) => {
                Some(PlainKey::Fen)
            }
            PlainError::Record(RecordError::Move(_)) => Some(PlainKey::Move),
            PlainError::Record(RecordError::ResultOutOfRange(_)) => Some(PlainKey::Result),
            PlainError::BadNumber { key, .. } => PlainKey::from_name(key.as_bytes()),
            _ => None,
        }
    }
}

/// What is wrong with one `.binpack` chunk (see [`DataError::BadChunk`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChunkError {
    /// Fewer than the 8 header bytes are left at the end of the file.
    #[error("chunk header cut off ({0} of 8 bytes present)")]
    TruncatedHeader(u64),
    /// The header does not start with `BINP`.
    #[error("bad magic {0:02x?} (expected \"BINP\")")]
    BadMagic([u8; 4]),
    /// The header announces more than Stockfish's 100 MiB chunk limit.
    #[error("chunk size {0} exceeds the 100 MiB limit")]
    TooLarge(u32),
    /// The file ends inside the chunk.
    #[error("truncated file: the header announces {size} bytes but only {available} remain")]
    Truncated { size: u64, available: u64 },
    /// The move text cannot be decoded (the decoder failed; its message
    /// is kept for bug reports). `entry` counts entries within the chunk.
    #[error("entry {entry}: corrupt move data ({detail})")]
    CorruptMoveText { entry: u64, detail: String },
    /// A decoded entry is not a valid training record.
    #[error("entry {entry}: {reason}")]
    BadEntry { entry: u64, reason: RecordError },
}

/// Why a record cannot be stored in a `.binpack` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StoreError {
    /// The stem holds the game ply in 14 bits.
    #[error("game ply {0} does not fit the 14-bit binpack field (max 16383)")]
    PlyTooLarge(u16),
    /// Chains are built by playing the best move, so it must be a real,
    /// legal move.
    #[error("{0}")]
    Record(#[from] RecordError),
}

/// Any failure while reading or writing training data.
#[derive(Debug, Error)]
pub enum DataError {
    /// Opening, mapping, reading, writing or renaming failed.
    #[error("{file}: {source}")]
    Io {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A directory where a data file was expected.
    #[error("{file}: is a directory, not a data file")]
    IsDirectory { file: PathBuf },
    /// The file size is not a multiple of the record size (40): the last
    /// record is cut off.
    #[error(
        "{file}: record {index}: truncated file ({trailing} trailing bytes; size {size} is not a multiple of {record})",
        record = PACKED_SFEN_VALUE_SIZE
    )]
    Truncated {
        file: PathBuf,
        index: u64,
        trailing: u64,
        size: u64,
    },
    /// A record that fails validation. `index` counts records within `file`
    /// from 0.
    #[error("{file}: record {index}: {reason}")]
    BadRecord {
        file: PathBuf,
        index: u64,
        reason: RecordError,
    },
    /// A `.plain` line or record that cannot be used (`line` counts from 1).
    #[error("{file}:{line}: {reason}")]
    BadPlain {
        file: PathBuf,
        line: u64,
        reason: PlainError,
    },
    /// The input held no usable record (empty files, or only invalid records):
    /// statistics or training on nothing would hide a wrong path or file.
    #[error("no records read from {files} ({skipped} invalid skipped)")]
    NoRecords { files: String, skipped: u64 },
    /// A `.binpack` chunk that is cut off or corrupt. `chunk` counts from 0
    /// and `offset` is the byte offset of its header in the file.
    #[error("{file}: chunk {chunk} at byte {offset}: {reason}")]
    BadChunk {
        file: PathBuf,
        chunk: u64,
        offset: u64,
        reason: ChunkError,
    },
    /// A record that the `.binpack` writer cannot store (`index` counts
    /// records written from 0).
    #[error("{file}: record {index}: cannot be written to .binpack: {reason}")]
    Unstorable {
        file: PathBuf,
        index: u64,
        reason: StoreError,
    },
    /// A marlinformat, viriformat or bulletformat record that cannot be
    /// read: `location` is the record index, or the game, move and byte.
    #[error("{file}: {location}: {reason}")]
    BadCoded {
        file: PathBuf,
        location: DataLocation,
        reason: CodecError,
    },
    /// A record the output format cannot hold (`index` counts records
    /// written from 0).
    #[error("{file}: record {index}: cannot be written to {format}: {reason}")]
    CannotHold {
        file: PathBuf,
        index: u64,
        format: DataFormat,
        reason: CodecError,
    },
    /// A file whose bytes do not fit the format it was read as, but fit
    /// another: the reading error, and the format the bytes look like.
    #[error("{error} (the file looks like {} data, {looks_like})", looks_like.name())]
    LooksLike {
        error: Box<DataError>,
        looks_like: DataFormat,
    },
    /// A file name whose extension names no training-data format.
    #[error("{0}: unsupported extension (expected .bin, .binpack, .plain, .vf, .mf or .bf, or name the format)")]
    UnsupportedExtension(PathBuf),
    /// Random access past the end of the data set.
    #[error("record {index} out of range ({len} records)")]
    OutOfRange { index: u64, len: u64 },
}

impl DataError {
    /// [`DataError::NoRecords`] for the input `files`: the one message every
    /// program gives for "read nothing".
    pub fn no_records<P: AsRef<Path>>(files: &[P], skipped: u64) -> DataError {
        let names: Vec<String> = files
            .iter()
            .map(|f| f.as_ref().display().to_string())
            .collect();
        DataError::NoRecords {
            files: names.join(", "),
            skipped,
        }
    }

    pub(crate) fn io(file: impl Into<PathBuf>, source: std::io::Error) -> DataError {
        DataError::Io {
            file: file.into(),
            source,
        }
    }
}

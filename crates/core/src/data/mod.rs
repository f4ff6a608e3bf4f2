//! Training data files: the `.bin` format (a plain concatenation of 40-byte
//! [`crate::packed::PackedSfenValue`] records, no header), Stockfish's
//! compressed `.binpack` and the `.plain` text format, and the formats of
//! bullet-trained engines: viriformat games ([`viri`], `.vf`), marlinformat
//! ([`marlin`], `.mf`) and bulletformat ([`bullet`], `.bf`) boards.
//!
//! [`TrainingDataReader`] and [`TrainingDataWriter`] open any of them by
//! file extension or by name ([`DataFormat`]); the format-specific readers and
//! writers stay available for callers that need more (random access into
//! `.bin`, raw chunks of `.binpack`).
//!
//! Every reader validates and reports errors that name the file and the
//! record index, chunk and entry, or line, and no reader panics on any input.

mod bin;
pub mod binpack;
mod boards;
pub mod bullet;
mod codec_error;
mod error;
pub mod filter;
mod format;
pub mod marlin;
mod open;
mod perspective;
mod plain;
mod reader;
mod record;
mod sniff;
pub mod viri;
mod writer;

pub use bin::{BinReader, BinWriter, ReaderOptions, RecordLocation, Records};
pub use binpack::{BinpackReader, BinpackWriter};
pub use boards::{BoardKind, BoardRecords, BoardWriter, BOARD_RECORD_SIZE};
pub use codec_error::CodecError;
pub use error::{ChunkError, DataError, PlainError, RecordError, StoreError};
pub use format::DataFormat;
pub use open::open_data_file;
pub use plain::{PlainEntry, PlainFileWriter, PlainKey, PlainReader, PlainWriter};
pub use reader::{DataLocation, DataRecord, DataRecords, TrainingDataReader};
pub use record::{
    decode_fast, decode_full, RecordPolicy, TrainingRecord, ValidatedRecord, Validation,
};
pub use sniff::looks_like;
pub use writer::{check_appendable, TrainingDataWriter};

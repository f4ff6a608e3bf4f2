//! Training data files: the `.bin` format (a plain concatenation of 40-byte
//! [`crate::packed::PackedSfenValue`] records, no header) and the `.plain`
//! text format.
//!
//! Every reader validates and reports errors that name the file and the
//! record index (or line), and no reader panics on any input.

mod atomic;
mod error;
mod open;
mod plain;
mod reader;
mod record;
mod writer;

pub use atomic::AtomicOutput;
pub use error::{DataError, PlainError, RecordError};
pub use open::open_data_file;
pub use plain::{PlainEntry, PlainKey, PlainReader, PlainWriter};
pub use reader::{BinReader, ReaderOptions, RecordLocation, Records};
pub use record::{
    decode_fast, decode_full, RecordPolicy, TrainingRecord, ValidatedRecord, Validation,
};
pub use writer::BinWriter;

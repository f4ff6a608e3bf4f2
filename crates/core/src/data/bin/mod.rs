//! The `.bin` format: a plain concatenation of
//! [`PACKED_SFEN_VALUE_SIZE`](crate::packed::PACKED_SFEN_VALUE_SIZE)-byte
//! [`crate::packed::PackedSfenValue`] records, no header (Stockfish's
//! `gensfen` output). The reader maps the files and gives sequential or
//! random access by global record index; the writer only ever leaves whole
//! records on disk.

mod reader;
mod writer;

pub use reader::{BinReader, ReaderOptions, RecordLocation, Records};
pub use writer::BinWriter;

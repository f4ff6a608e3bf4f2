//! The `.plain` text format (formats.md 7.1): one record is the five lines
//! `fen`, `move`, `score`, `ply`, `result` (`key value`, one space between),
//! then a line `e`. This is what Stockfish's `convert` writes.
//!
//! The reader is strict where the binpack library is lenient: a line that is
//! not one of these keys, a key given twice, a record without its closing
//! `e`, a record missing a key, a file that ends inside a record, a bad number,
//! FEN or move are all errors that name the file and the line of the bad field.
//! A typo must never turn into a silently dropped or silently altered record.
//! After an error the reader carries on with the next record, so a caller can
//! count and skip bad records (`--skip-invalid`) instead of stopping.

mod entry;
mod file_writer;
mod reader;
mod writer;

pub use entry::{PlainEntry, PlainKey};
pub use file_writer::PlainFileWriter;
pub use reader::PlainReader;
pub use writer::PlainWriter;

//! Stockfish's `.binpack` format (formats.md 7.4): chunks of `BINP` + u32
//! size, each holding chains of one 32-byte stem and the following plies
//! of the same game as a few bits of move and score each.
//!
//! The codec is the `sfbinpack` crate (a Rust port of Stockfish's
//! `nnue_data_binpack_format.h`, byte-exact with it); this module adds
//! what the crate leaves to its callers: chunk-header validation, errors
//! that name the file, chunk and entry, containment of decoder panics on
//! corrupt input (the `guard` module), validation of every decoded entry, error
//! reporting on write, and the translation to and from our 40-byte
//! records ([`convert`]).

pub mod convert;
mod guard;
mod reader;
mod writer;

pub use reader::{
    BinpackEntry, BinpackLocation, BinpackReader, Chunk, Chunks, Entries, CHUNK_HEADER_SIZE,
    CHUNK_MAGIC, MAX_CHUNK_SIZE,
};
pub use writer::{BinpackWriter, MAX_CHAIN_PLIES};

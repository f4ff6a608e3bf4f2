//! Data formats chosen by file extension, as Stockfish's `convert` does:
//! `.bin`, `.binpack` and `.plain` (the core's [`DataFormat`]).

pub use nnue_core::data::DataFormat as Format;

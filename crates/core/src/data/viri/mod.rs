//! viriformat (`.vf`), the game format of Viridithas, Stormphrax and other
//! engines trained with bullet. A file is a concatenation of games:
//!
//! | bytes | field |
//! |---|---|
//! | 32 | the start position as a marlinformat board ([`super::marlin`]), with the game's result from White's view in its result byte and score 0 |
//! | 4 each | one entry per position: the move played (u16, [`to_viri`]'s encoding) and the position's score from White's view (i16), little-endian |
//! | 4 | four zero bytes ending the game |
//!
//! Each position after the first is the one the moves lead to, so a reader
//! replays them; the byte-exact tests compare the layout with the
//! `viriformat` crate's `Game`.

mod moves;
mod reader;
mod writer;

pub use moves::{from_viri, to_viri};
pub use reader::ViriReader;
pub use writer::ViriWriter;

/// One (move, score) entry.
const MOVE_ENTRY_SIZE: usize = 4;
/// The entry that ends a game.
const TERMINATOR: [u8; MOVE_ENTRY_SIZE] = [0; MOVE_ENTRY_SIZE];

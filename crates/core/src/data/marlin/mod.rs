//! marlinformat (`.mf`): a plain concatenation of 32-byte `PackedBoard`
//! records, each a position with its score and result from White's view
//! and no move ([`MarlinBoard`]; the byte table is in docs/FORMATS.md).
//! The byte-exact tests compare it with the `viriformat` crate's writer.

mod board;

pub(crate) use board::{check_kings, checked, read_array};
pub use board::{MarlinBoard, MARLIN_BOARD_SIZE};

//! bulletformat (`.bf`): a plain concatenation of bullet's 32-byte
//! `ChessBoard` records, the layout bullet's fastest loader reads, each
//! seen from the side to move ([`BulletBoard`]; the byte table is in
//! docs/FORMATS.md). The byte-exact tests compare it with the
//! `bulletformat` crate through viriformat's writer.

mod board;

pub use board::{BulletBoard, BULLET_BOARD_SIZE};

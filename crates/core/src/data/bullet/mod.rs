//! bulletformat (`.bf`): a plain concatenation of bullet's 32-byte
//! `ChessBoard` records, the layout bullet's fastest loader reads. Each is
//! seen from the side to move (see [`board`]'s table); the byte-exact tests
//! compare it with the `bulletformat` crate through viriformat's writer.

mod board;

pub use board::{BulletBoard, BULLET_BOARD_SIZE};

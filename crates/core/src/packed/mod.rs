//! Stockfish's binary position and record formats (formats.md sections 1–2):
//! [`PackedSfen`] (32 bytes), [`PackedSfenValue`] (40 bytes) and the 16-bit
//! [`SfMove`].
//!
//! Two levels of decoding exist because the two users need different things:
//! the learner reads every record every epoch and only needs the pieces
//! ([`PackedSfen::decode`], no move generation), while converters and
//! validators need a full legal position ([`PackedSfen::to_chess`]).
//!
//! ```
//! use nnue_core::packed::{GameResult, PackedSfen, PackedSfenValue, SfMove};
//! use shakmaty::{Chess, Position};
//!
//! let pos = Chess::default();
//! let e2e4 = SfMove::from_uci("e2e4", &pos)?.to_move(&pos)?;
//! let record = PackedSfenValue::new(&pos, 54, &e2e4, 0, GameResult::Win);
//! assert_eq!(record.to_bytes()[..4], [0x08, 0xfe, 0xce, 0x9a]);
//!
//! let decoded = record.sfen.decode()?;
//! assert_eq!(decoded.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! assert_eq!(record.mv.to_uci(), "e2e4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bits;
mod castling;
mod decoded;
mod error;
mod sf_move;
mod sfen;
mod unpack;
mod value;

pub use bits::STREAM_BITS;
pub use castling::CastlingFlags;
pub use decoded::DecodedSfen;
pub use error::{MoveError, SfenError};
pub use sf_move::{MoveKind, SfMove};
pub use sfen::{PackedSfen, PACKED_SFEN_SIZE};
pub use value::{GameResult, PackedSfenValue, PACKED_SFEN_VALUE_SIZE, PADDING_BYTE};

//! Stockfish's binary position and record formats (formats.md sections 1–2):
//! [`PackedSfen`] (32 bytes), [`PackedSfenValue`] (40 bytes) and the 16-bit
//! [`SfMove`].
//!
//! Two levels of decoding exist because the two users need different things:
//! the learner reads every record every epoch and only needs the pieces
//! ([`PackedSfen::decode`], no move generation), while converters and
//! validators need a full legal position ([`PackedSfen::to_chess`]).

mod bits;
mod castling;
mod decoded;
mod error;
mod sf_move;
mod sfen;
mod value;

pub use bits::STREAM_BITS;
pub use castling::CastlingFlags;
pub use decoded::DecodedSfen;
pub use error::{MoveError, SfenError};
pub use sf_move::{MoveKind, SfMove};
pub use sfen::{PackedSfen, PACKED_SFEN_SIZE};
pub use value::{GameResult, PackedSfenValue, PACKED_SFEN_VALUE_SIZE, PADDING_BYTE};

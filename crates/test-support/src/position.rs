//! Positions from FEN text, as every crate's tests write them.

use shakmaty::{fen::Fen, CastlingMode, Chess};

/// The standard-chess position of `fen`.
///
/// A test's FEN is part of the test, so a malformed or illegal one is a bug in the
/// test: it panics with the FEN and the reason rather than returning an error.
pub fn position(fen: &str) -> Chess {
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("test FEN {fen:?} does not parse: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("test FEN {fen:?} is not a legal position: {e}"))
}

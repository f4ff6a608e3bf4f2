//! The network compiled into the binary (`nets/default.nnue` at build time, see
//! `build.rs`). Embedding means a GUI user can run the engine with no files next to
//! it; `EvalFile` still loads any other net at run time.

use std::sync::Arc;

use nnue_core::nnue::{Network, NetworkError};

/// The `EvalFile` option's default: the embedded net's Stockfish-style name
/// (`nn-` + 12 hex digits of its SHA-256 + `.nnue`, set by `build.rs`), or `<empty>`
/// (the UCI spelling of an empty string) when the binary has none. GUIs and
/// python-chess send the advertised default back when they restore options, so it
/// must be a real value that survives their parsing: setting `EvalFile` to it goes
/// back to the built-in evaluation.
#[cfg(embedded_net)]
pub const DEFAULT_EVAL_FILE: &str = env!("NNUE_DEFAULT_NAME");
#[cfg(not(embedded_net))]
pub const DEFAULT_EVAL_FILE: &str = "<empty>";

#[cfg(embedded_net)]
static BYTES: Option<&[u8]> = Some(include_bytes!(env!("NNUE_DEFAULT_NET")));
#[cfg(not(embedded_net))]
static BYTES: Option<&[u8]> = None;

/// The embedded net's bytes, if the binary was built with one.
pub fn bytes() -> Option<&'static [u8]> {
    BYTES
}

/// Parses the embedded net. `Ok(None)`: the binary has none. An error means the file
/// in `nets/` was broken at build time; the caller reports it and plays classical.
pub fn load() -> Result<Option<Arc<Network>>, NetworkError> {
    match bytes() {
        None => Ok(None),
        Some(b) => Network::from_bytes(b, "embedded nets/default.nnue").map(|n| Some(Arc::new(n))),
    }
}

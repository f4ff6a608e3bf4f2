//! The `nnue` engine as a library: move-generation checks ([`perft`]), evaluations
//! ([`eval`]), the search ([`search`], also used by `nnue-gen-sfen` to label
//! positions), the embedded default network ([`default_net`]) and the UCI front end
//! ([`uci`]).

pub mod default_net;
pub mod eval;
pub mod perft;
pub mod search;
pub mod uci;

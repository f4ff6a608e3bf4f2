//! The `nnue` engine as a library: move-generation checks ([`perft`]), evaluations
//! ([`eval`]), the search ([`search`], a library so that other programs can label
//! positions with it), the embedded default network ([`default_net`]), the UCI front end
//! ([`uci`]) and the value scale they share ([`value`]).

pub mod default_net;
pub mod eval;
pub mod perft;
pub mod search;
pub mod uci;
pub mod value;

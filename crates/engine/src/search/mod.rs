//! The search library: [`Searcher`] (iterative deepening, aspiration windows, PVS,
//! quiescence, shared lockless transposition table, Lazy SMP, MultiPV), its
//! [`Limits`] and [`SearchControl`], and the values it reports.

mod alphabeta;
pub(crate) mod captures;
mod check;
mod correction;
pub mod error;
pub(crate) mod eval_cache;
pub(crate) mod history;
mod keys;
pub mod limits;
pub(crate) mod movepick;
pub(crate) mod params;
mod quiescence;
pub mod score;
pub mod searcher;
pub(crate) mod see;
mod soft_stop;
pub(crate) mod time;
pub(crate) mod tt;
mod tt_memory;
mod vote;
pub(crate) mod worker;

pub use error::HashError;
pub use limits::{Limits, SearchControl};
pub use score::EVAL_MAX;
pub use score::{Bound, Score};
pub use searcher::{
    Info, PvLine, SearchContext, SearchResult, Searcher, MAX_DEPTH, SEARCH_STACK_BYTES,
};
pub use tt::TranspositionTable;
pub use worker::key;

//! The search library: [`Searcher`] (iterative deepening, aspiration windows, PVS,
//! quiescence, shared lockless transposition table, Lazy SMP, MultiPV), its
//! [`Limits`] and [`SearchControl`], and the values it reports.

pub mod captures;
pub mod error;
pub mod eval_cache;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod score;
pub mod searcher;
pub mod see;
pub mod time;
pub mod tt;
pub mod worker;

pub use error::HashError;
pub use limits::{Limits, SearchControl};
pub use score::{Bound, Score};
pub use searcher::{Info, PvLine, SearchContext, SearchResult, Searcher, SEARCH_STACK_BYTES};
pub use tt::TranspositionTable;
pub use worker::key;

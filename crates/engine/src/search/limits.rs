//! What the caller asks of one search, and the flags it can flip while the search
//! runs (from the UCI thread: `stop`, `ponderhit`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::Move;

/// The limits of a `go` command and the lines wanted; all optional, none means
/// "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    /// Hard node cap: the search stops as soon as it has used this many nodes,
    /// even in the middle of an iteration.
    pub nodes: Option<u64>,
    /// Soft node limit: no new iteration of iterative deepening starts once the
    /// search has used this many nodes (the finished iteration is kept whole, as
    /// data generators want: complete iterations at a roughly fixed cost).
    /// `None` changes nothing.
    pub soft_nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
    /// Lines to search with a full window and report (`None`: the searcher's
    /// [`set_multipv`](super::Searcher::set_multipv) default, the UCI option).
    pub multipv: Option<usize>,
}

/// Shared between the UCI thread and the search.
///
/// While `ponder` is set (or the limits say `infinite`) the search never ends on its
/// own: after its last iteration it waits for `stop` or for `ponder` to be cleared
/// (`ponderhit`), because UCI forbids a `bestmove` before that. After a ponderhit the
/// clock limits apply, counted from the start of the search as Stockfish does.
#[derive(Debug, Default)]
pub struct SearchControl {
    pub stop: AtomicBool,
    pub ponder: AtomicBool,
}

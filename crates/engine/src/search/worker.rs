//! One search thread: its state (the key stack, the line, node counting, limits),
//! making and unmaking moves, repetitions, the root move loop and the table store.
//! The node searches are in `alphabeta.rs` (PVS with pruning, reductions and
//! extensions) and `quiescence.rs`. The main thread and every Lazy SMP helper run
//! this same code on the same root; they share only the table and the stop flag.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::Instant;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::correction::Correction;
use super::eval_cache::EvalCache;
use super::history::{Continuation, History, PieceTo};
use super::keys::child_key;
use super::limits::SearchControl;
use super::movepick::{is_tactical, MovePicker};
use super::params::{
    LMR_BASE, LMR_DIVISOR, LMR_MIN_DEPTH, LMR_ROOT_FROM, LMR_ROOT_RELIEF, LMR_TABLE_SIZE,
    NODES_BETWEEN_CHECKS,
};
use super::score::{from_tt, to_tt, Bound, INFINITE, MAX_PLY};
use super::time::TimeBudget;
use super::tt::{encode_move, TranspositionTable, TtEntry};
use crate::eval::Evaluator;

/// The Zobrist key shakmaty computes for `pos` (en passant only when capturable).
#[inline]
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `pos` after a null move (the other side to move, no en passant),
/// from `pos`'s key: flipping the side and dropping a capturable en passant file
/// is all a pass changes, so the position is not hashed again.
#[inline]
pub(super) fn null_key(pos: &Chess, key: u64) -> u64 {
    let mut z = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        z ^= Zobrist64::zobrist_for_en_passant_file(ep.file());
    }
    z.0
}

/// State kept per thread between searches: move-ordering memory, the evaluator
/// (with its accumulator stack) and the principal-variation table.
pub(crate) struct ThreadData {
    pub history: History,
    /// Static-evaluation corrections by pawn structure (`correction.rs`).
    pub(super) correction: Correction,
    pub evaluator: Evaluator,
    /// Static evaluations by key (`Searcher::set_eval_cache`).
    pub eval_cache: Option<EvalCache>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// One move picker per ply, refilled in place by the node at that ply (its
    /// children use the next ply's), so no node copies a 3 KiB move list by value.
    pub(super) pickers: Box<[MovePicker]>,
    /// What each ply of the current line knows of itself, for the plies below it.
    pub(super) stack: Box<[Frame]>,
}

/// One ply of the current line.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    /// The move made from this ply (none for a null move), for continuation histories.
    pub moved: Option<PieceTo>,
    /// The static evaluation (none in check), for the "improving" flag.
    pub static_eval: Option<i32>,
    /// The table move's code that a singular-extension search leaves out (0: none).
    pub excluded: u16,
    /// Double singular extensions on the line down to this ply.
    pub double_extensions: u8,
}

impl ThreadData {
    pub(crate) fn new(evaluator: Evaluator) -> ThreadData {
        ThreadData {
            history: History::default(),
            correction: Correction::default(),
            evaluator,
            eval_cache: None,
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            pickers: (0..=MAX_PLY).map(|_| MovePicker::empty()).collect(),
            stack: vec![Frame::default(); MAX_PLY + 1].into_boxed_slice(),
        }
    }
}

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set once the search must end (by the main thread or the caller).
    pub stop: AtomicBool,
    /// Nodes searched so far, per thread (published every few thousand nodes).
    pub nodes: Vec<AtomicU64>,
    pub control: &'a SearchControl,
    pub start: Instant,
    pub budget: Option<TimeBudget>,
    pub node_limit: Option<u64>,
    /// The caller asked to search until told to stop (`go infinite`).
    pub infinite: bool,
}

impl Shared<'_> {
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest value and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Nodes this thread spent below the move in this search (all iterations), for
    /// the time manager's share of effort (`soft_stop.rs`).
    pub nodes: u64,
    /// Whether `score` is exact or the bound of a search outside the window (an
    /// aspiration fail or an iteration cut short).
    pub bound: Bound,
}

type LmrTable = [[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];

/// Built once per process, on first use (not per search).
static LMR: LazyLock<LmrTable> = LazyLock::new(lmr_table);

/// Late-move reduction in plies by depth and move number: log-log, as is usual.
fn lmr_table() -> LmrTable {
    let mut t = [[0u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
        }
    }
    t
}

/// The reduction of move number `index` (from 0 at the root, 1 below) at `depth`.
#[inline]
pub(super) fn lmr(table: &LmrTable, depth: i32, index: usize) -> i32 {
    let last = LMR_TABLE_SIZE - 1;
    i32::from(table[(depth as usize).min(last)][index.min(last)])
}

/// The search state of one thread for one `search` call.
pub(crate) struct Worker<'a, 'b> {
    pub(super) shared: &'a Shared<'b>,
    pub(super) td: &'a mut ThreadData,
    index: usize,
    pub nodes: u64,
    pub seldepth: usize,
    /// Keys of the game before the root, the root and the current line.
    pub(super) keys: Vec<u64>,
    root_index: usize,
    /// The first entry of `keys` a repetition may match: the one after the latest
    /// null move of the current line (0 without one). A null move is not a legal
    /// move, so a position before it never repeats through it.
    pub(super) rep_floor: usize,
    pub(super) root_depth: i32,
    /// Whether iteration 1 finished (time limits are not applied before it did).
    pub completed_depth: i32,
    pub(super) lmr: &'static LmrTable,
    pub(super) stopped: bool,
}

impl<'a, 'b> Worker<'a, 'b> {
    /// A worker for thread `index` (0 = main) with the game's earlier keys.
    pub(crate) fn new(
        shared: &'a Shared<'b>,
        td: &'a mut ThreadData,
        index: usize,
        game_keys: &[u64],
        root_key: u64,
    ) -> Self {
        let mut keys = Vec::with_capacity(game_keys.len() + MAX_PLY + 8);
        keys.extend_from_slice(game_keys);
        keys.push(root_key);
        Worker {
            shared,
            td,
            index,
            nodes: 0,
            seldepth: 0,
            root_index: game_keys.len(),
            rep_floor: 0,
            keys,
            root_depth: 0,
            completed_depth: 0,
            lmr: &LMR,
            stopped: false,
        }
    }

    /// Whether the search was told to stop (or hit a limit).
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// This thread's number (0 = main).
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The caller's flags.
    pub(crate) fn control(&self) -> &SearchControl {
        self.shared.control
    }

    /// Tells every thread to stop.
    pub(crate) fn shared_stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.stopped = true;
    }

    /// Nodes of all threads (as last published).
    pub(crate) fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Table usage in permille.
    pub(crate) fn hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    /// Publishes this thread's node count.
    pub(crate) fn publish_nodes(&self) {
        self.shared.nodes[self.index].store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node; every [`NODES_BETWEEN_CHECKS`] nodes publishes the count and checks the limits.
    /// (Inlined into every node, the rare check kept out of line: as a call of
    /// its own the count cost a call and a return per node.)
    #[inline(always)]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & (NODES_BETWEEN_CHECKS - 1) == 0 {
            self.checkpoint();
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Every [`NODES_BETWEEN_CHECKS`] nodes: publishes the count and (main
    /// thread) checks the limits.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self) {
        self.publish_nodes();
        if self.index == 0 {
            self.check_limits();
        }
    }

    /// Main thread: ends the search on `stop`, the node limit or the hard time limit.
    pub(crate) fn check_limits(&mut self) {
        let shared = self.shared;
        let mut stop = shared.control.stop.load(Ordering::Relaxed);
        if let Some(limit) = shared.node_limit {
            if shared.total_nodes() >= limit {
                stop = true;
            }
        }
        let pondering = shared.control.ponder.load(Ordering::Relaxed);
        if let Some(budget) = shared.budget {
            if !pondering
                && !shared.infinite
                && self.completed_depth >= 1
                && shared.start.elapsed() >= budget.maximum
            {
                stop = true;
            }
        }
        if stop {
            shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    /// Plays `m` from `pos`: child position, its key on the key stack, evaluator push.
    /// The child's table bucket is prefetched as soon as its key is known, before
    /// the copy-make and the evaluator push: the child probes it first thing, and
    /// that load missing the cache was the largest single cost of quiescence.
    /// The moves shakmaty does not update a key for (king moves, castling, en
    /// passant, ...) get theirs from the played child (`keys::child_key`).
    #[inline]
    pub(super) fn make(&mut self, pos: &Chess, m: Move) -> Chess {
        let key = *self.keys.last().unwrap_or(&0);
        let fast = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
        if let Some(z) = fast {
            self.shared.tt.prefetch(z.0);
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.td.evaluator.push(pos, &m, &child);
        let child_key = match fast {
            Some(z) => z.0,
            None => {
                let updated = child_key(pos, key, &m, &child);
                self.shared.tt.prefetch(updated);
                updated
            }
        };
        self.keys.push(child_key);
        child
    }

    /// Prefetches the table buckets of the children after the moves in the
    /// picker of `ply` (node `pos`: quiescence's captures or evasions, filled
    /// and not yet scored), so that their probes overlap in memory and with
    /// the scoring instead of each child waiting on its own miss, the first
    /// thing it does.
    #[inline]
    pub(super) fn prefetch_children(&self, pos: &Chess, ply: usize) {
        let key = Zobrist64(self.current_key());
        for &m in self.td.pickers[ply].moves() {
            if let Some(z) = pos.update_zobrist_hash(key, m, EnPassantMode::Legal) {
                self.shared.tt.prefetch(z.0);
            }
        }
    }

    /// Prefetches the table bucket of the child after the move the picker of
    /// `ply` (node `pos`) would pick next, before the current move's subtree
    /// is searched: by the time that move is made its bucket is loaded (the
    /// prefetch in [`Worker::make`] comes too close to the child's probe to
    /// hide a memory load).
    #[inline]
    pub(super) fn prefetch_next(&mut self, pos: &Chess, ply: usize) {
        if let Some(m) = self.td.pickers[ply].peek() {
            let key = Zobrist64(self.current_key());
            if let Some(z) = pos.update_zobrist_hash(key, m, EnPassantMode::Legal) {
                self.shared.tt.prefetch(z.0);
            }
        }
    }

    #[inline]
    pub(super) fn unmake(&mut self) {
        self.keys.pop();
        self.td.evaluator.pop();
    }

    /// Repetition: a position of the current line seen before since the last
    /// irreversible move (and since the last null move). Inside the search tree one earlier occurrence is enough
    /// (the side that can repeat can repeat again); before the root it takes two,
    /// i.e. a real threefold repetition.
    pub(super) fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len() - 1;
        let current = self.keys[n];
        let reach = (halfmoves as usize).min(n.saturating_sub(self.rep_floor));
        let mut earlier = 0;
        let mut back = 4;
        while back <= reach {
            let j = n - back;
            if self.keys[j] == current {
                if j >= self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    #[inline(never)]
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY {
            self.td.pv_len[ply + 1]
        } else {
            ply + 1
        };
        self.td.pv[ply][ply] = Some(m);
        for i in ply + 1..child_len.min(MAX_PLY) {
            self.td.pv[ply][i] = self.td.pv[ply + 1][i];
        }
        self.td.pv_len[ply] = child_len.clamp(ply + 1, MAX_PLY);
    }

    /// The line found below the root for the move just searched.
    fn root_pv(&self) -> Vec<Move> {
        let len = self.td.pv_len[0].min(MAX_PLY);
        self.td.pv[0][..len].iter().map_while(|m| *m).collect()
    }

    /// Searches the root moves `moves[first..]` at `depth` in the window
    /// `(alpha, beta)`, updating their scores, bounds, lines and node counts.
    /// Returns the best value.
    pub(crate) fn search_root(
        &mut self,
        pos: &Chess,
        moves: &mut [RootMove],
        first: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        #![allow(clippy::needless_range_loop)] // moves[i] is read and written by index
        self.root_depth = depth;
        self.td.pv_len[0] = 0;
        self.td.stack[0] = Frame::default();
        let mut best = -INFINITE;
        for i in first..moves.len() {
            let m = moves[i].mv;
            let before = self.nodes;
            let v = self.root_child(pos, m, i - first, depth, (alpha, beta));
            moves[i].nodes += self.nodes - before;
            if self.stopped {
                break;
            }
            let rm = &mut moves[i];
            if i == first || v > alpha {
                self.td.pv_len[0] = 0;
                self.update_pv(0, m);
                rm.score = v;
                rm.bound = if v >= beta {
                    Bound::Lower
                } else if v <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv = self.root_pv();
                rm.seldepth = self.seldepth;
            } else {
                rm.score = -INFINITE;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches root move `m`, number `index` (0: the first of this line), in the
    /// window `(alpha, beta)`: the first with the full window, later ones with a
    /// null window (reduced when late and quiet) and re-searched when they beat alpha.
    fn root_child(
        &mut self,
        pos: &Chess,
        m: Move,
        index: usize,
        depth: i32,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        self.seldepth = self.seldepth.max(1);
        self.td.stack[0].moved = Some(PieceTo::of(pos.turn(), &m));
        self.td.stack[1].double_extensions = 0;
        let child = self.make(pos, m);
        let gives_check = child.is_check();
        let new_depth = depth - 1 + i32::from(gives_check);
        // Every search of the child differs only in depth, window and node kind.
        let reply = |s: &mut Self, depth: i32, window: (i32, i32), pv: bool, cut: bool| {
            -s.search(
                &child,
                gives_check,
                depth,
                window.0,
                window.1,
                1,
                pv,
                cut,
                true,
            )
        };
        let v = if index == 0 {
            reply(self, new_depth, (-beta, -alpha), true, false)
        } else {
            let quiet = !is_tactical(&m) && !gives_check;
            let r = if depth >= LMR_MIN_DEPTH && quiet && index >= LMR_ROOT_FROM {
                (lmr(self.lmr, depth, index) - LMR_ROOT_RELIEF).clamp(0, new_depth - 1)
            } else {
                0
            };
            // A later root move is expected to fail low, so the reply is
            // expected to cut (the flag before `null_ok`).
            let null_window = (-alpha - 1, -alpha);
            let mut v = reply(self, new_depth - r, null_window, false, true);
            if v > alpha && r > 0 {
                v = reply(self, new_depth, null_window, false, true);
            }
            if v > alpha && v < beta {
                v = reply(self, new_depth, (-beta, -alpha), true, false);
            }
            v
        };
        self.unmake();
        v
    }

    /// The static evaluation of `pos` (the current node), through the
    /// evaluation cache when there is one.
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Chess) -> i32 {
        let key = self.keys[self.keys.len() - 1];
        if let Some(v) = self.td.eval_cache.as_ref().and_then(|c| c.probe(key)) {
            return v;
        }
        let v = self.td.evaluator.evaluate(pos);
        if let Some(c) = self.td.eval_cache.as_mut() {
            c.store(key, v);
        }
        v
    }

    /// The moves one and two plies before `ply`, which continuation histories follow.
    #[inline]
    pub(super) fn continuation(&self, ply: usize) -> Continuation {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.td.stack[p].moved);
        Continuation([back(1), back(2)])
    }

    /// The key of the current node.
    #[inline]
    pub(super) fn current_key(&self) -> u64 {
        self.keys[self.keys.len() - 1]
    }

    /// Quiescence search of the root position with a full window.
    pub(crate) fn qsearch_root(&mut self, pos: &Chess) -> i32 {
        self.qsearch(pos, -INFINITE, INFINITE, 0, 0, None, None)
    }

    /// Stores a node's result; the bound follows from where `best` fell in the
    /// window the node was searched with.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn store(
        &self,
        key: u64,
        best: i32,
        (alpha, beta): (i32, i32),
        best_move: Option<Move>,
        eval: i32,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = best_move.as_ref().map_or(0, encode_move);
        self.shared
            .tt
            .store(key, mv, to_tt(best, ply), eval, depth, bound);
    }
}

/// The table's value when its bound decides the window `(alpha, beta)`.
#[inline]
pub(super) fn tt_cutoff(e: &TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.value, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    usable.then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn the_null_move_key_is_the_key_of_the_passed_position() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // A capturable en passant square, which the pass gives up.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // One that no pawn can take (not in the key either way).
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
            "8/8/4k3/8/3Pp3/8/4K3/8 b - d3 0 1",
        ] {
            let pos = position(fen);
            let passed = pos.clone().swap_turn().unwrap();
            assert_eq!(null_key(&pos, key(&pos)), key(&passed), "{fen}");
        }
    }
}

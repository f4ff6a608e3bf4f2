//! One search thread: principal variation search with alpha-beta, quiescence search,
//! the transposition table, null-move pruning, late-move reductions and pruning,
//! check extensions, and draw and mate scoring. The main thread and every Lazy SMP
//! helper run this same code on the same root; they share only the table and the
//! stop flag.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::Instant;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::captures::legal_captures;
use super::eval_cache::EvalCache;
use super::history::History;
use super::limits::SearchControl;
use super::movepick::{is_tactical, role_value, MovePicker};
use super::score::{from_tt, to_tt, Bound, DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::see::see_ge;
use super::time::TimeBudget;
use super::tt::{encode_move, TranspositionTable, TtEntry};
use crate::eval::Evaluator;

/// The Zobrist key shakmaty computes for `pos` (en passant only when capturable).
#[inline]
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// State kept per thread between searches: move-ordering memory, the evaluator
/// (with its accumulator stack) and the principal-variation table.
pub struct ThreadData {
    pub history: History,
    pub evaluator: Evaluator,
    /// Static evaluations by key (`Searcher::set_eval_cache`).
    pub eval_cache: Option<EvalCache>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
}

impl ThreadData {
    pub fn new(evaluator: Evaluator) -> ThreadData {
        ThreadData {
            history: History::default(),
            evaluator,
            eval_cache: None,
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
        }
    }
}

/// What all threads of one search share.
pub struct Shared<'a> {
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
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest value and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

const LMR_TABLE_SIZE: usize = 64;
/// Quiescence plies after which only recaptures are searched.
const RECAPTURES_FROM: u32 = 4;

type LmrTable = [[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];

/// Built once per process, on first use (not per search).
static LMR: LazyLock<LmrTable> = LazyLock::new(lmr_table);

/// Late-move reduction in plies by depth and move number: log-log, as is usual.
fn lmr_table() -> LmrTable {
    let mut t = [[0u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
        }
    }
    t
}

/// The search state of one thread for one `search` call.
pub struct Worker<'a, 'b> {
    shared: &'a Shared<'b>,
    td: &'a mut ThreadData,
    index: usize,
    pub nodes: u64,
    pub seldepth: usize,
    /// Keys of the game before the root, the root and the current line.
    keys: Vec<u64>,
    root_index: usize,
    root_depth: i32,
    /// Whether iteration 1 finished (time limits are not applied before it did).
    pub completed_depth: i32,
    lmr: &'static LmrTable,
    stopped: bool,
}

impl<'a, 'b> Worker<'a, 'b> {
    /// A worker for thread `index` (0 = main) with the game's earlier keys.
    pub fn new(
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
            keys,
            root_depth: 0,
            completed_depth: 0,
            lmr: &LMR,
            stopped: false,
        }
    }

    /// Whether the search was told to stop (or hit a limit).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// This thread's number (0 = main).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The caller's flags.
    pub fn control(&self) -> &SearchControl {
        self.shared.control
    }

    /// Tells every thread to stop.
    pub fn shared_stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.stopped = true;
    }

    /// Nodes of all threads (as last published).
    pub fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Table usage in permille.
    pub fn hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    /// Publishes this thread's node count.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.index].store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node; every 1024 nodes publishes the count and checks the limits.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.index == 0 {
                self.check_limits();
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Main thread: ends the search on `stop`, the node limit or the hard time limit.
    pub fn check_limits(&mut self) {
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
    #[inline]
    fn make(&mut self, pos: &Chess, m: Move) -> Chess {
        let key = *self.keys.last().unwrap_or(&0);
        let mut child = pos.clone();
        let fast = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
        self.td.evaluator.push(pos, &m);
        child.play_unchecked(m);
        let child_key = match fast {
            Some(z) => z.0,
            None => self::key(&child),
        };
        self.shared.tt.prefetch(child_key);
        self.keys.push(child_key);
        child
    }

    #[inline]
    fn unmake(&mut self) {
        self.keys.pop();
        self.td.evaluator.pop();
    }

    /// Repetition: a position of the current line seen before since the last
    /// irreversible move. Inside the search tree one earlier occurrence is enough
    /// (the side that can repeat can repeat again); before the root it takes two,
    /// i.e. a real threefold repetition.
    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len() - 1;
        let current = self.keys[n];
        let reach = (halfmoves as usize).min(n);
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

    fn update_pv(&mut self, ply: usize, m: Move) {
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
    /// `(alpha, beta)`, updating their scores and lines. Returns the best value.
    pub fn search_root(
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
        let mut best = -INFINITE;
        for i in first..moves.len() {
            let m = moves[i].mv;
            self.seldepth = self.seldepth.max(1);
            let child = self.make(pos, m);
            let gives_check = child.is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            let mut v;
            if i == first {
                v = -self.search(&child, new_depth, -beta, -alpha, 1, true, true);
            } else {
                let quiet = !is_tactical(&m) && !gives_check;
                let r = if depth >= 3 && quiet && i >= first + 3 {
                    (self.lmr[depth.min(63) as usize][(i - first).min(63)] as i32 - 1)
                        .clamp(0, new_depth - 1)
                } else {
                    0
                };
                v = -self.search(&child, new_depth - r, -alpha - 1, -alpha, 1, false, true);
                if v > alpha && r > 0 {
                    v = -self.search(&child, new_depth, -alpha - 1, -alpha, 1, false, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(&child, new_depth, -beta, -alpha, 1, true, true);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            if i == first || v > alpha {
                self.td.pv_len[0] = 0;
                self.update_pv(0, m);
                moves[i].score = v;
                moves[i].pv = self.root_pv();
                moves[i].seldepth = self.seldepth;
            } else {
                moves[i].score = -INFINITE;
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

    /// The static evaluation of `pos` (the current node), through the
    /// evaluation cache when there is one.
    #[inline]
    fn evaluate(&mut self, pos: &Chess) -> i32 {
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

    /// Quiescence search of the root position with a full window.
    pub(crate) fn qsearch_root(&mut self, pos: &Chess) -> i32 {
        self.qsearch(pos, -INFINITE, INFINITE, 0, 0, None)
    }

    /// Principal variation search of a non-root node.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, None);
        }
        self.td.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let in_check = pos.is_check();
        // Draws. Fifty moves: unless this very move mated (checked below by the
        // move count only when in check).
        if self.is_repetition(pos.halfmoves()) || pos.is_insufficient_material() {
            return DRAW;
        }
        if pos.halfmoves() >= 100 && (!in_check || !pos.legal_moves().is_empty()) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        // Mate distance pruning: no line here can beat a shorter mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = self.keys[self.keys.len() - 1];
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map_or(0, |e| e.mv);
        if let Some(e) = tt {
            if !pv_node && e.depth >= depth {
                if let Some(v) = tt_cutoff(&e, ply, alpha, beta) {
                    return v;
                }
            }
        }

        let static_eval = if in_check {
            -INFINITE
        } else {
            match tt {
                Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.evaluate(pos),
            }
        };

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth, assume it holds.
            if depth <= 7 && static_eval - 170 * depth >= beta && static_eval < MATE_BOUND {
                return static_eval;
            }
            // Null move: if passing still beats beta, a real move will too
            // (not with only pawns left, where zugzwang is common).
            if null_ok && depth >= 3 && static_eval >= beta && has_pieces(pos, pos.turn()) {
                if let Ok(null_pos) = pos.clone().swap_turn() {
                    let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                    self.td.evaluator.push_null();
                    self.keys.push(self::key(&null_pos));
                    let v = -self.search(
                        &null_pos,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        false,
                        false,
                    );
                    self.keys.pop();
                    self.td.evaluator.pop();
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
        }
        // Internal iterative reduction: without a table move this node was not
        // searched before; search it shallower first.
        if tt_move == 0 && depth >= 5 {
            depth -= 1;
        }

        let us = pos.turn();
        self.td.history.clear_killers(ply + 1);
        let mut picker = MovePicker::new(
            |list| *list = pos.legal_moves(),
            tt_move,
            &self.td.history,
            pos.board(),
            us,
            ply,
        );
        if picker.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried: [Option<Move>; 32] = [None; 32];
        let mut quiet_count = 0;
        let mut index = 0usize;
        let killers = self.td.history.killers(ply);

        while let Some(m) = picker.next_move() {
            index += 1;
            let quiet = !is_tactical(&m);
            let prunable = !pv_node && !in_check && quiet && best > -MATE_BOUND;
            // Late move pruning: at low depth, late quiet moves rarely matter.
            if prunable && depth <= 4 && index as i32 > 3 + 2 * depth * depth {
                continue;
            }
            // Captures that lose too much in the exchange at low depth.
            if !pv_node
                && !in_check
                && !quiet
                && best > -MATE_BOUND
                && depth <= 6
                && !see_ge(pos.board(), us, &m, -120 * depth)
            {
                continue;
            }
            let child = self.make(pos, m);
            let gives_check = child.is_check();
            // Futility: a quiet move that cannot lift the static value to alpha.
            if prunable && !gives_check && depth <= 5 && static_eval + 120 + 100 * depth <= alpha {
                self.unmake();
                continue;
            }
            let extension = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
            let new_depth = depth - 1 + extension;

            let mut v;
            if index == 1 {
                v = -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && index > 1 + usize::from(pv_node) && !gives_check {
                    r = self.lmr[depth.min(63) as usize][index.min(63)] as i32;
                    r -= i32::from(pv_node);
                    r -= i32::from(in_check);
                    if killers.contains(&Some(m)) {
                        r -= 1;
                    }
                    r -= self.td.history.score(us, &m) / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if v > alpha && r > 0 {
                    v = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        if quiet {
                            let tried: Vec<Move> = quiets_tried[..quiet_count]
                                .iter()
                                .map_while(|q| *q)
                                .collect();
                            self.td.history.reward(us, ply, depth, &m, &tried);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some(m);
                quiet_count += 1;
            }
        }

        if best == -INFINITE {
            // Every move was pruned: fall back to a value below alpha.
            best = alpha;
        }
        let stored_eval = if in_check { 0 } else { static_eval };
        self.store(
            key,
            best,
            (original_alpha, beta),
            best_move,
            stored_eval,
            depth,
            ply,
        );
        best
    }

    /// Quiescence search: only captures and promotions (all evasions when in check),
    /// so that the static evaluation is only trusted in quiet positions. `qply`
    /// counts plies inside quiescence; past [`RECAPTURES_FROM`] only recaptures on
    /// `last_to` are tried, so that nets that do not (yet) value material cannot make
    /// it explode on positions full of even trades.
    fn qsearch(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        last_to: Option<shakmaty::Square>,
    ) -> i32 {
        self.td.pv_len[ply.min(MAX_PLY)] = ply.min(MAX_PLY);
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let key = self.keys[self.keys.len() - 1];
        let tt = self.shared.tt.probe(key);
        if let Some(v) = tt.and_then(|e| tt_cutoff(&e, ply, alpha, beta)) {
            return v;
        }
        let in_check = pos.is_check();
        let original_alpha = alpha;
        let mut best;
        let stand_pat;
        let tt_move = tt.map_or(0, |e| e.mv);
        let (board, turn) = (pos.board(), pos.turn());
        let mut picker;
        if in_check {
            picker = MovePicker::new(
                |list| *list = pos.legal_moves(),
                tt_move,
                &self.td.history,
                board,
                turn,
                ply,
            );
            if picker.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            stand_pat = match tt {
                Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.evaluate(pos),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            // Captures and queen promotions only; deep in quiescence only recaptures.
            picker = MovePicker::new(
                |list| {
                    legal_captures(pos, list);
                    if qply >= RECAPTURES_FROM {
                        list.retain(|m| m.is_capture() && Some(m.to()) == last_to);
                    }
                },
                tt_move,
                &self.td.history,
                board,
                turn,
                ply,
            );
        }
        let mut best_move = None;
        while let Some(m) = picker.next_move() {
            // In check: once one evasion holds, skip the other quiet evasions (they
            // rarely matter and, chained with checking captures, blow up the tree).
            if in_check && best > -MATE_BOUND && !is_tactical(&m) {
                continue;
            }
            if !in_check && m.promotion().is_none() {
                // Delta pruning: even winning the victim for free cannot reach alpha.
                let gain = m.capture().map_or(0, role_value) * 230;
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                // Losing captures.
                if !see_ge(pos.board(), pos.turn(), &m, 0) {
                    continue;
                }
            }
            let child = self.make(pos, m);
            let v = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1, Some(m.to()));
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let stored_eval = if in_check { 0 } else { stand_pat };
        self.store(
            key,
            best,
            (original_alpha, beta),
            best_move,
            stored_eval,
            0,
            ply,
        );
        best
    }

    /// Stores a node's result; the bound follows from where `best` fell in the
    /// window the node was searched with.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
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
fn tt_cutoff(e: &TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.value, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    usable.then_some(v)
}

/// Whether `color` has a piece other than pawns and king (null move is unsafe in
/// pawn endings because of zugzwang).
#[inline]
fn has_pieces(pos: &Chess, color: Color) -> bool {
    let b = pos.board();
    (b.by_color(color) & !(b.pawns() | b.kings())).any()
}

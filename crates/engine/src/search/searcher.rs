//! The search as a library: [`Searcher`] owns (or shares) the transposition table,
//! the per-thread memory and the options, and runs iterative deepening with
//! aspiration windows, MultiPV and Lazy SMP helper threads. Programs call
//! [`Searcher::search`]; the UCI front end, which needs the stop flag, the info
//! callback and the game history, calls [`Searcher::search_with`].
//!
//! # Stack
//! The search recurses up to [`MAX_PLY`] plies with a position in every frame: run
//! it on a thread with at least [`SEARCH_STACK_BYTES`] of stack (helper threads get
//! that much; `nnue-gen-sfen`'s workers and the UCI search thread are spawned with it).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use super::error::HashError;
use super::eval_cache::EvalCache;
use super::history::Continuation;
use super::limits::{Limits, SearchControl};
use super::movepick::MovePicker;
use super::params::{
    ASPIRATION_DELTA, ASPIRATION_FULL_WINDOW, ASPIRATION_GROWTH, ASPIRATION_MIN_DEPTH,
    HELPER_ODD_START_DEPTH, MAX_DEPTH_MARGIN, RELEASE_POLL_MS,
};
use super::score::{Bound, Score, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::soft_stop::{Iteration, SoftStop};
use super::time::{budget, TimeBudget};
use super::tt::{encode_move, TranspositionTable};
use super::vote::{elect, Vote};
use super::worker::{key, RootMove, Shared, ThreadData, Worker};
use crate::eval::{EvalKind, Evaluator};

/// One line of search output (one per MultiPV line per completed iteration).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// One MultiPV line of a completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// The root move (`pv[0]`).
    pub mv: Move,
    /// Internal units from the side to move at the root (mates as `MATE - plies`).
    pub value: i32,
    /// The iteration the line comes from.
    pub depth: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
///
/// `best_move`, `value`, `pv` and `lines` all come from the same iteration, so
/// `lines[0].mv == best_move` always. With one line, an iteration that a node or
/// time limit cut short still counts once its first root move was searched or a
/// later one beat it (as in Stockfish: what it found is not thrown away); `depth`
/// stays the last completed iteration and `lines[0].depth` says which one the
/// line comes from. With several lines (MultiPV) they all come from the last
/// completed iteration. Only when not even the first iteration completed are they
/// the best the partial search has.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Score,
    /// Internal units from the side to move at the root (mates as `MATE - plies`).
    pub value: i32,
    /// Last completed iteration (0: none completed).
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// The MultiPV lines, best first (at most `multipv` of them; empty only when
    /// the root has no legal move).
    pub lines: Vec<PvLine>,
}

/// What a search may use besides the position and the limits; all optional.
#[derive(Default)]
pub struct SearchContext<'a> {
    /// Zobrist keys ([`key`]) of the game's positions before the root, oldest
    /// first, for repetitions. Kept by the caller as the game goes, so that no call
    /// re-hashes the whole game.
    pub history: &'a [u64],
    /// Stop and ponder flags flipped from another thread (`None`: never stopped
    /// from outside).
    pub control: Option<&'a SearchControl>,
    /// Gets each completed iteration's lines, from the calling thread.
    pub on_info: Option<&'a mut dyn FnMut(&Info)>,
}

/// Deepest iteration a search runs: [`MAX_PLY`] less a margin, so that check
/// extensions and quiescence below the last iteration still fit the line.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - MAX_DEPTH_MARGIN;
/// Stack a thread needs to run a search (see the module documentation).
pub const SEARCH_STACK_BYTES: usize = 32 << 20;
/// Largest table accepted, in MiB.
const HASH_MAX_MB: usize = 65536;
/// Most search threads (and MultiPV lines).
const THREADS_MAX: usize = 256;
/// Time kept back per move unless the caller says otherwise.
const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// The engine's search (see the module documentation).
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    threads: Vec<ThreadData>,
    multipv: usize,
    move_overhead: Duration,
    eval: EvalKind,
    /// Per-thread evaluation cache size in MiB (0: none).
    eval_cache_mb: usize,
}

impl Searcher {
    /// A searcher with a `hash_mb` MiB table, `threads` threads, classical eval.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher::with_table(
            Arc::new(TranspositionTable::new(hash_mb.clamp(1, HASH_MAX_MB))),
            threads,
        )
    }

    /// A searcher using `tt`, which other searchers may share (several generation
    /// threads with one big table, as Stockfish's tools do). Sharing makes results
    /// depend on the other searchers' timing.
    pub fn with_table(tt: Arc<TranspositionTable>, threads: usize) -> Searcher {
        let eval = EvalKind::Classical;
        Searcher {
            tt,
            threads: (0..threads.clamp(1, THREADS_MAX))
                .map(|_| ThreadData::new(Evaluator::new(&eval)))
                .collect(),
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            eval,
            eval_cache_mb: 0,
        }
    }

    /// The table, to share it with another searcher.
    pub fn table(&self) -> Arc<TranspositionTable> {
        self.tt.clone()
    }

    /// Replaces the table by a new private one of `mb` MiB (cleared). If `mb` MiB
    /// cannot be allocated a 1 MiB table is used and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashError> {
        // Free the old table first so that resizing near the memory limit works.
        self.tt = Arc::new(TranspositionTable::new(1));
        let tt = TranspositionTable::try_new(mb.clamp(1, HASH_MAX_MB))?;
        self.tt = Arc::new(tt);
        Ok(())
    }

    /// Number of search threads (the main one plus Lazy SMP helpers).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, THREADS_MAX);
        let eval = self.eval.clone();
        let cache_mb = self.eval_cache_mb;
        self.threads.resize_with(n, || {
            let mut td = ThreadData::new(Evaluator::new(&eval));
            td.eval_cache = (cache_mb > 0).then(|| EvalCache::new(cache_mb));
            td
        });
    }

    /// Lines searched with a full window and reported when [`Limits::multipv`] is
    /// `None` (the UCI `MultiPV` option).
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.clamp(1, THREADS_MAX);
    }

    /// Time kept in reserve per move for GUI and pipe latency.
    pub fn set_move_overhead(&mut self, d: Duration) {
        self.move_overhead = d;
    }

    /// Switches the evaluation for all threads (emptying their evaluation caches).
    pub fn set_eval(&mut self, kind: EvalKind) {
        for td in &mut self.threads {
            td.evaluator = Evaluator::new(&kind);
            if let Some(cache) = &mut td.eval_cache {
                *cache = EvalCache::new(self.eval_cache_mb);
            }
        }
        self.eval = kind;
    }

    /// An evaluation cache of `mb` MiB per thread (0: none, the default). Pays
    /// when evaluations are expensive (NNUE) and positions recur across searches.
    pub fn set_eval_cache(&mut self, mb: usize) {
        self.eval_cache_mb = mb;
        for td in &mut self.threads {
            td.eval_cache = (mb > 0).then(|| EvalCache::new(mb));
        }
    }

    /// The evaluation in use.
    pub fn eval_kind(&self) -> &EvalKind {
        &self.eval
    }

    /// Forgets everything learnt (new game, `Clear Hash`): table and histories.
    pub fn clear(&mut self) {
        self.clear_table();
        self.clear_history();
    }

    /// Empties the table (shared with other searchers if it is shared).
    pub fn clear_table(&mut self) {
        self.tt.clear();
    }

    /// Forgets the move-ordering memory (killers, history) of every thread, keeping
    /// the table: a new game for a searcher whose table is shared.
    pub fn clear_history(&mut self) {
        for td in &mut self.threads {
            td.history.clear();
            td.correction.clear();
        }
    }

    /// Permille of the table used by the latest search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The static evaluation of `pos` from the side to move (clamped below the mate
    /// range, as everywhere in the search).
    pub fn evaluate(&mut self, pos: &Chess) -> i32 {
        let evaluator = &mut self.threads[0].evaluator;
        evaluator.reset(pos);
        evaluator.evaluate(pos)
    }

    /// The quiescence value of `pos` (captures, promotions, evasions until quiet),
    /// full window. A position is quiet when this equals [`Searcher::evaluate`] and
    /// it is not in check. `history` as in [`SearchContext::history`].
    pub fn quiescence(&mut self, pos: &Chess, history: &[u64]) -> i32 {
        let control = SearchControl::default();
        let shared = shared(&self.tt, 1, &control, &Limits::default(), None);
        let td = &mut self.threads[0];
        td.evaluator.reset(pos);
        let mut w = Worker::new(&shared, td, 0, history, key(pos));
        w.qsearch_root(pos)
    }

    /// Searches `root` within `limits` with nothing else known (no earlier game
    /// positions, no outside stop, no progress output).
    pub fn search(&mut self, root: &Chess, limits: &Limits) -> SearchResult {
        self.search_with(root, limits, SearchContext::default())
    }

    /// Searches `root` within `limits`. Blocks until a limit is reached or
    /// `context.control.stop` is set; with `infinite` or `ponder` it does not return
    /// before `stop` or a ponderhit.
    pub fn search_with(
        &mut self,
        root: &Chess,
        limits: &Limits,
        context: SearchContext,
    ) -> SearchResult {
        let start = Instant::now();
        let own_control = SearchControl::default();
        let control = context.control.unwrap_or(&own_control);
        let mut no_output = |_: &Info| {};
        let on_info = context.on_info.unwrap_or(&mut no_output);
        self.tt.new_search();
        let root_key = key(root);

        let mut root_moves = self.root_moves(root, root_key, limits);
        if root_moves.is_empty() {
            return no_move_result(root, limits, control);
        }
        let time = budget(limits, root.turn(), self.move_overhead);
        let shared = shared(&self.tt, self.threads.len(), control, limits, time);
        let params = MainParams {
            max_depth: limits
                .depth
                .map_or(MAX_DEPTH as i32, |d| d.clamp(1, MAX_DEPTH) as i32),
            multipv: limits
                .multipv
                .unwrap_or(self.multipv)
                .clamp(1, THREADS_MAX)
                .min(root_moves.len()),
            single_move: root_moves.len() == 1,
            time,
            limits,
            start,
        };
        let root = Root {
            pos: root,
            key: root_key,
            game_keys: context.history,
        };
        let outcome = run_threads(
            &mut self.threads,
            &shared,
            &root,
            &mut root_moves,
            params,
            on_info,
        );
        self.result_of(root.pos, outcome, shared.total_nodes())
    }

    /// The search's answer from the main thread's `outcome`.
    fn result_of(&self, root: &Chess, outcome: Outcome, nodes: u64) -> SearchResult {
        let best = &outcome.lines[0];
        let ponder_move = best
            .pv
            .get(1)
            .copied()
            .or_else(|| self.ponder_from_tt(root, best.mv));
        SearchResult {
            best_move: Some(best.mv),
            ponder_move,
            score: Score::from_value(best.value),
            value: best.value,
            depth: outcome.depth as u32,
            nodes,
            pv: best.pv.clone(),
            lines: outcome.lines,
        }
    }

    /// The legal root moves (restricted to `searchmoves`), table move first.
    fn root_moves(&self, root: &Chess, root_key: u64, limits: &Limits) -> Vec<RootMove> {
        let tt_move = self.tt.probe(root_key).map_or(0, |e| e.mv);
        let mut picker = MovePicker::new(
            |list| {
                *list = root.legal_moves();
                if !limits.searchmoves.is_empty() {
                    list.retain(|m| limits.searchmoves.contains(m));
                }
            },
            tt_move,
            (&self.threads[0].history, Continuation::default()),
            root,
            0,
        );
        let mut root_moves = Vec::with_capacity(picker.len());
        while let Some(m) = picker.next_move() {
            root_moves.push(RootMove {
                mv: m,
                score: -INFINITE,
                pv: vec![m],
                seldepth: 0,
                nodes: 0,
                bound: Bound::Exact,
            });
        }
        root_moves
    }

    /// The table's move for the position after `best` (when the line is one move).
    fn ponder_from_tt(&self, root: &Chess, best: Move) -> Option<Move> {
        let mut child = root.clone();
        child.play_unchecked(best);
        let code = self.tt.probe(key(&child))?.mv;
        if code == 0 {
            return None;
        }
        child
            .legal_moves()
            .into_iter()
            .find(|m| encode_move(m) == code)
    }
}

/// Runs the main thread's iterative deepening on the calling thread and the
/// Lazy SMP helpers on threads of their own, until the main thread stops.
fn run_threads(
    threads: &mut [ThreadData],
    shared: &Shared,
    root: &Root,
    root_moves: &mut [RootMove],
    params: MainParams,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let max_depth = params.max_depth;
    let voting = params.multipv == 1;
    let (main_td, helpers) = threads.split_first_mut().expect("at least one thread");
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (i, td) in helpers.iter_mut().enumerate() {
            let mut moves = root_moves.to_vec();
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    td.evaluator.reset(root.pos);
                    let mut w = Worker::new(shared, td, i + 1, root.game_keys, root.key);
                    let vote = helper_loop(&mut w, root.pos, &mut moves, max_depth);
                    w.publish_nodes();
                    vote
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                // Cannot start more threads: search with the ones we have.
                Err(_) => break,
            }
        }
        main_td.evaluator.reset(root.pos);
        let mut w = Worker::new(shared, main_td, 0, root.game_keys, root.key);
        let start = params.start;
        let mut outcome = main_loop(&mut w, root.pos, root_moves, params, on_info);
        w.publish_nodes();
        shared.stop.store(true, Ordering::Relaxed);
        let helper_votes = handles.into_iter().filter_map(|h| h.join().ok().flatten());
        if voting {
            let mut votes = vec![Vote {
                depth: outcome.depth,
                line: outcome.lines[0].clone(),
            }];
            votes.extend(helper_votes);
            let winner = elect(&votes);
            if winner != 0 {
                let elected = votes.swap_remove(winner);
                report_elected(&w, &elected, start, on_info);
                outcome = Outcome {
                    depth: elected.depth,
                    lines: vec![elected.line],
                };
            }
        }
        outcome
    })
}

/// Reports the line a helper thread won the vote with (the GUI's last line must
/// be the move played).
fn report_elected(w: &Worker, elected: &Vote, start: Instant, on_info: &mut dyn FnMut(&Info)) {
    let nodes = w.total_nodes();
    let elapsed = start.elapsed();
    on_info(&Info {
        depth: elected.depth as u32,
        seldepth: elected.depth as u32,
        multipv: 1,
        score: Score::from_value(elected.line.value),
        bound: Bound::Exact,
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        hashfull: w.hashfull(),
        time_ms: elapsed.as_millis() as u64,
        pv: elected.line.pv.clone(),
    });
}

/// The root of a search: its position, its key and the game's keys before it.
struct Root<'a> {
    pos: &'a Chess,
    key: u64,
    game_keys: &'a [u64],
}

/// The answer when the root has no move to search (mate, stalemate, or no
/// `searchmoves` move is legal). Still waits for stop or ponderhit when asked
/// to, as UCI requires.
fn no_move_result(root: &Chess, limits: &Limits, control: &SearchControl) -> SearchResult {
    wait_for_release(limits, control);
    let value = if root.is_check() && limits.searchmoves.is_empty() {
        -MATE
    } else {
        0
    };
    SearchResult {
        best_move: None,
        ponder_move: None,
        score: Score::from_value(value),
        value,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
        lines: Vec::new(),
    }
}

/// What the `threads` threads of one search share.
fn shared<'a>(
    tt: &'a TranspositionTable,
    threads: usize,
    control: &'a SearchControl,
    limits: &Limits,
    budget: Option<TimeBudget>,
) -> Shared<'a> {
    Shared {
        tt,
        stop: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        control,
        start: Instant::now(),
        budget,
        node_limit: limits.nodes,
        infinite: limits.infinite,
    }
}

struct MainParams<'a> {
    max_depth: i32,
    multipv: usize,
    single_move: bool,
    time: Option<TimeBudget>,
    limits: &'a Limits,
    start: Instant,
}

/// The last completed iteration's lines (or the partial first one's best).
struct Outcome {
    depth: i32,
    lines: Vec<PvLine>,
}

/// The first `n` root moves as lines of iteration `depth`.
fn lines_of(moves: &[RootMove], n: usize, depth: i32) -> Vec<PvLine> {
    moves[..n]
        .iter()
        .map(|m| PvLine {
            mv: m.mv,
            value: m.score,
            depth: depth.max(0) as u32,
            pv: m.pv.clone(),
        })
        .collect()
}

/// Iterative deepening on the main thread: reports lines and decides when to stop.
fn main_loop(
    w: &mut Worker,
    root: &Chess,
    moves: &mut [RootMove],
    p: MainParams,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let mut outcome: Option<Outcome> = None;
    let mut soft = SoftStop::default();
    for depth in 1..=p.max_depth {
        for pv_index in 0..p.multipv {
            aspiration(w, root, moves, pv_index, depth);
            if w.stopped() {
                break;
            }
        }
        if w.stopped() {
            if let Some(partial) = interrupted(moves, p.multipv, depth, outcome.as_ref()) {
                report(w, moves, 1, depth, p.start, on_info);
                outcome = Some(partial);
            }
            break;
        }
        moves[..p.multipv].sort_by_key(|m| std::cmp::Reverse(m.score));
        w.completed_depth = depth;
        outcome = Some(Outcome {
            depth,
            lines: lines_of(moves, p.multipv, depth),
        });
        report(w, moves, p.multipv, depth, p.start, on_info);
        if enough(w, moves, &p, &mut soft) {
            break;
        }
    }
    w.publish_nodes();
    // UCI: with `infinite` or while pondering, bestmove only after stop/ponderhit.
    if !w.stopped() {
        w.shared_stop();
        wait_for_release(p.limits, w.control());
    }
    outcome.unwrap_or_else(|| partial_outcome(moves))
}

/// The answer of an iteration cut short at `depth` (single line only), when it
/// knows something the last completed one did not: its first move was searched
/// (exactly or to a bound), or a later move beat it. The aspiration loop sorted
/// the root moves so that those with a value from this iteration come first; a
/// move not yet searched keeps `-INFINITE`. Several lines of a cut iteration could
/// disagree with each other, so MultiPV keeps the last completed iteration.
fn interrupted(
    moves: &[RootMove],
    multipv: usize,
    depth: i32,
    completed: Option<&Outcome>,
) -> Option<Outcome> {
    let completed = completed?;
    if multipv != 1 || moves[0].score == -INFINITE {
        return None;
    }
    Some(Outcome {
        depth: completed.depth,
        lines: lines_of(moves, 1, depth),
    })
}

/// Whether to start no further iteration after a completed one: the soft node
/// limit, a mate found within `go mate`, or the clock (see `soft_stop.rs`).
fn enough(w: &Worker, moves: &[RootMove], p: &MainParams, soft: &mut SoftStop) -> bool {
    if p.limits
        .soft_nodes
        .is_some_and(|limit| w.total_nodes() >= limit)
    {
        return true;
    }
    if let Some(mate) = p.limits.mate {
        let v = moves[0].score;
        if v >= MATE_BOUND && (MATE - v + 1) / 2 <= mate as i32 {
            return true;
        }
    }
    let pondering = w.control().ponder.load(Ordering::Relaxed);
    let Some(t) = p.time else {
        return false;
    };
    if pondering || p.limits.infinite || t.exact {
        return false;
    }
    if p.single_move {
        return true;
    }
    let iteration = Iteration {
        best: moves[0].mv,
        score: moves[0].score,
        best_nodes: moves[0].nodes,
        all_nodes: moves.iter().map(|m| m.nodes).sum(),
    };
    soft.after(&iteration, p.start.elapsed(), t.optimum)
}

/// Not even iteration 1 completed (a tiny node limit, an early stop): root moves
/// searched fully in it sort first with real scores and the others keep the move
/// ordering, so `moves[0]` is the best known; it is the one line returned.
fn partial_outcome(moves: &[RootMove]) -> Outcome {
    let mut lines = lines_of(moves, 1, 0);
    if lines[0].value == -INFINITE {
        lines[0].value = 0;
    }
    Outcome { depth: 0, lines }
}

/// One root search of line `pv_index` with an aspiration window around its last value.
fn aspiration(w: &mut Worker, root: &Chess, moves: &mut [RootMove], pv_index: usize, depth: i32) {
    let previous = moves[pv_index].score;
    let mut delta = ASPIRATION_DELTA;
    let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND {
        (
            (previous - delta).max(-INFINITE),
            (previous + delta).min(INFINITE),
        )
    } else {
        (-INFINITE, INFINITE)
    };
    for m in moves[pv_index..].iter_mut() {
        m.score = -INFINITE;
    }
    loop {
        let v = w.search_root(root, moves, pv_index, depth, alpha, beta);
        moves[pv_index..].sort_by_key(|m| std::cmp::Reverse(m.score));
        if w.stopped() {
            return;
        }
        if v <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (v - delta).max(-INFINITE);
        } else if v >= beta {
            beta = (v + delta).min(INFINITE);
        } else {
            return;
        }
        delta += delta / 2 + ASPIRATION_GROWTH;
        if delta > ASPIRATION_FULL_WINDOW {
            alpha = -INFINITE;
            beta = INFINITE;
        }
    }
}

fn report(
    w: &Worker,
    moves: &[RootMove],
    multipv: usize,
    depth: i32,
    start: Instant,
    on_info: &mut dyn FnMut(&Info),
) {
    w.publish_nodes();
    let nodes = w.total_nodes();
    let elapsed = start.elapsed();
    let time_ms = elapsed.as_millis() as u64;
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
    let hashfull = w.hashfull();
    for (i, m) in moves.iter().take(multipv).enumerate() {
        on_info(&Info {
            depth: depth as u32,
            seldepth: m.seldepth.max(depth as usize) as u32,
            multipv: i + 1,
            score: Score::from_value(m.score),
            bound: m.bound,
            nodes,
            nps,
            hashfull,
            time_ms,
            pv: m.pv.clone(),
        });
    }
}

/// Lazy SMP helper: the same iterative deepening without output, stopping when the
/// main thread does. Helpers start one ply deeper on odd threads so that the
/// threads spread over depths. Returns the best line of its last completed
/// iteration, its vote (`vote.rs`).
fn helper_loop(
    w: &mut Worker,
    root: &Chess,
    moves: &mut [RootMove],
    max_depth: i32,
) -> Option<Vote> {
    let odd = w.index() % 2 == 1;
    let mut depth = if odd { HELPER_ODD_START_DEPTH } else { 1 };
    let mut vote = None;
    while depth <= max_depth && !w.stopped() {
        aspiration(w, root, moves, 0, depth);
        if !w.stopped() {
            vote = Some(Vote {
                depth,
                line: lines_of(moves, 1, depth).swap_remove(0),
            });
        }
        depth += 1;
    }
    vote
}

fn wait_for_release(limits: &Limits, control: &SearchControl) {
    loop {
        let stop = control.stop.load(Ordering::Relaxed);
        let ponder = control.ponder.load(Ordering::Relaxed);
        if stop || (!limits.infinite && !ponder) {
            return;
        }
        std::thread::sleep(Duration::from_millis(RELEASE_POLL_MS));
    }
}

//! The search as a library: [`Searcher`] owns the transposition table, the per-thread
//! memory and the options, and runs iterative deepening with aspiration windows,
//! MultiPV and Lazy SMP helper threads. The UCI front end and `nnue-gen-sfen` both
//! drive it through [`Searcher::search`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use super::limits::{Limits, SearchControl};
use super::movepick::MovePicker;
use super::score::{Bound, Score, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::time::{budget, TimeBudget};
use super::tt::{encode_move, TranspositionTable};
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

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Score,
    /// Internal units from the side to move at the root (mates as `MATE - plies`).
    pub value: i32,
    /// Last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Search threads' stack size: deep recursion with positions on the stack.
const THREAD_STACK: usize = 32 << 20;

/// The engine's search (see the module documentation).
pub struct Searcher {
    tt: TranspositionTable,
    threads: Vec<ThreadData>,
    multipv: usize,
    move_overhead: Duration,
    eval: EvalKind,
}

impl Searcher {
    /// A searcher with a `hash_mb` MiB table, `threads` threads, classical eval.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        let eval = EvalKind::Classical;
        let n = threads.clamp(1, 256);
        Searcher {
            tt: TranspositionTable::new(hash_mb.clamp(1, 65536)),
            threads: (0..n)
                .map(|_| ThreadData::new(Evaluator::new(&eval)))
                .collect(),
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            eval,
        }
    }

    /// Reallocates (and so clears) the table. If `mb` MiB cannot be allocated the
    /// old table stays and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        // Free the old table first so that resizing near the memory limit works.
        self.tt = TranspositionTable::new(1);
        match TranspositionTable::try_new(mb.clamp(1, 65536)) {
            Ok(tt) => {
                self.tt = tt;
                Ok(())
            }
            Err(e) => Err(format!("{e}; using 1 MiB")),
        }
    }

    /// Number of search threads (the main one plus Lazy SMP helpers).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 256);
        let eval = self.eval.clone();
        self.threads
            .resize_with(n, || ThreadData::new(Evaluator::new(&eval)));
    }

    /// Lines reported (and root moves searched with a full window).
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.clamp(1, 256);
    }

    /// Time kept in reserve per move for GUI and pipe latency.
    pub fn set_move_overhead(&mut self, d: Duration) {
        self.move_overhead = d;
    }

    /// Switches the evaluation for all threads.
    pub fn set_eval(&mut self, kind: EvalKind) {
        for td in &mut self.threads {
            td.evaluator = Evaluator::new(&kind);
        }
        self.eval = kind;
    }

    /// The evaluation in use.
    pub fn eval_kind(&self) -> &EvalKind {
        &self.eval
    }

    /// Forgets everything learnt (new game, `Clear Hash`): table and histories.
    pub fn clear(&mut self) {
        self.tt.clear();
        for td in &mut self.threads {
            td.history.clear();
        }
    }

    /// Permille of the table used by the latest search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `root`. `history` holds the game's earlier positions, oldest first
    /// (for repetitions). Blocks until a limit is reached or `control.stop` is set;
    /// with `infinite` or `ponder` it does not return before `stop` or a ponderhit.
    /// `on_info` gets each completed iteration's lines, from the calling thread.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[Chess],
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let game_keys: Vec<u64> = history.iter().map(key).collect();
        let root_key = key(root);

        let tt_move = self.tt.probe(root_key).map_or(0, |e| e.mv);
        let mut picker = MovePicker::new(
            |list| {
                *list = root.legal_moves();
                if !limits.searchmoves.is_empty() {
                    list.retain(|m| limits.searchmoves.contains(m));
                }
            },
            tt_move,
            &self.threads[0].history,
            root.board(),
            root.turn(),
            0,
        );
        if picker.is_empty() {
            // Mate, stalemate or no allowed move: nothing to search. Still wait for
            // stop/ponderhit when asked to, as UCI requires.
            wait_for_release(limits, control);
            let value = if root.is_check() && limits.searchmoves.is_empty() {
                -MATE
            } else {
                0
            };
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::from_value(value),
                value,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let mut root_moves = Vec::with_capacity(picker.len());
        while let Some(m) = picker.next_move() {
            root_moves.push(RootMove {
                mv: m,
                score: -INFINITE,
                pv: vec![m],
                seldepth: 0,
            });
        }

        let time = budget(limits, root.turn(), self.move_overhead);
        let shared = Shared {
            tt: &self.tt,
            stop: AtomicBool::new(false),
            nodes: (0..self.threads.len()).map(|_| AtomicU64::new(0)).collect(),
            control,
            start,
            budget: time,
            node_limit: limits.nodes,
            infinite: limits.infinite,
        };
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            d.clamp(1, MAX_PLY as u32 - 4) as i32
        });
        let multipv = self.multipv.min(root_moves.len());
        let single_move = root_moves.len() == 1;

        let (main_td, helpers) = self.threads.split_first_mut().expect("at least one thread");
        let outcome = std::thread::scope(|scope| {
            for (i, td) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                let mut moves = root_moves.clone();
                let game_keys = &game_keys;
                let spawned = std::thread::Builder::new()
                    .stack_size(THREAD_STACK)
                    .spawn_scoped(scope, move || {
                        td.evaluator.reset(root);
                        let mut w = Worker::new(shared, td, i + 1, game_keys, root_key);
                        helper_loop(&mut w, root, &mut moves, max_depth);
                        w.publish_nodes();
                    });
                if spawned.is_err() {
                    // Cannot start more threads: search with the ones we have.
                    break;
                }
            }
            main_td.evaluator.reset(root);
            let mut w = Worker::new(&shared, main_td, 0, &game_keys, root_key);
            let result = main_loop(
                &mut w,
                root,
                &mut root_moves,
                MainParams {
                    max_depth,
                    multipv,
                    single_move,
                    time,
                    limits,
                    start,
                },
                on_info,
            );
            w.publish_nodes();
            shared.stop.store(true, Ordering::Relaxed);
            result
        });

        let nodes = shared.total_nodes();
        let best = &root_moves[0];
        let ponder_move = best
            .pv
            .get(1)
            .copied()
            .or_else(|| self.ponder_from_tt(root, best.mv));
        SearchResult {
            best_move: Some(best.mv),
            ponder_move,
            score: Score::from_value(outcome.value),
            value: outcome.value,
            depth: outcome.depth as u32,
            nodes,
            pv: best.pv.clone(),
        }
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

struct MainParams<'a> {
    max_depth: i32,
    multipv: usize,
    single_move: bool,
    time: Option<TimeBudget>,
    limits: &'a Limits,
    start: Instant,
}

struct Outcome {
    value: i32,
    depth: i32,
}

/// Iterative deepening on the main thread: reports lines and decides when to stop.
fn main_loop(
    w: &mut Worker,
    root: &Chess,
    moves: &mut [RootMove],
    p: MainParams,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let mut outcome = Outcome { value: 0, depth: 0 };
    let mut last_best = None;
    let mut stable_iterations = 0;
    for depth in 1..=p.max_depth {
        for pv_index in 0..p.multipv {
            aspiration(w, root, moves, pv_index, depth);
            if w.stopped() {
                break;
            }
        }
        if w.stopped() {
            // An interrupted iteration: root moves searched fully in it sort first
            // with real scores; the others keep the previous order, so moves[0] is
            // the best move known either way.
            if moves[0].score > -INFINITE {
                outcome.value = moves[0].score;
            }
            break;
        }
        moves[..p.multipv].sort_by_key(|m| std::cmp::Reverse(m.score));
        w.completed_depth = depth;
        outcome = Outcome {
            value: moves[0].score,
            depth,
        };
        report(w, moves, p.multipv, depth, p.start, on_info);
        if w.stopped() {
            break;
        }

        // Deciding whether to start another iteration.
        if let Some(mate) = p.limits.mate {
            let v = moves[0].score;
            if v >= MATE_BOUND && (MATE - v + 1) / 2 <= mate as i32 {
                break;
            }
        }
        let pondering = w.control().ponder.load(Ordering::Relaxed);
        if let Some(t) = p.time {
            if !pondering && !p.limits.infinite {
                if p.single_move {
                    break;
                }
                if last_best == Some(moves[0].mv) {
                    stable_iterations += 1;
                } else {
                    stable_iterations = 0;
                }
                // A stable best move needs less time; a changing one more.
                let scale = match stable_iterations {
                    0 => 1.3,
                    1 => 1.0,
                    2 => 0.8,
                    _ => 0.6,
                };
                if p.start.elapsed().as_secs_f64() > t.optimum.as_secs_f64() * scale {
                    break;
                }
            }
        }
        last_best = Some(moves[0].mv);
    }
    w.publish_nodes();
    // UCI: with `infinite` or while pondering, bestmove only after stop/ponderhit.
    if !w.stopped() {
        w.shared_stop();
        wait_for_release(p.limits, w.control());
    }
    outcome
}

/// One root search of line `pv_index` with an aspiration window around its last value.
fn aspiration(w: &mut Worker, root: &Chess, moves: &mut [RootMove], pv_index: usize, depth: i32) {
    let previous = moves[pv_index].score;
    let mut delta = 30;
    let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
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
        delta += delta / 2 + 10;
        if delta > 1000 {
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
            bound: Bound::Exact,
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
/// threads spread over depths.
fn helper_loop(w: &mut Worker, root: &Chess, moves: &mut [RootMove], max_depth: i32) {
    let odd = w.index() % 2 == 1;
    let mut depth = if odd { 2 } else { 1 };
    while depth <= max_depth && !w.stopped() {
        aspiration(w, root, moves, 0, depth);
        depth += 1;
    }
}

fn wait_for_release(limits: &Limits, control: &SearchControl) {
    loop {
        let stop = control.stop.load(Ordering::Relaxed);
        let ponder = control.ponder.load(Ordering::Relaxed);
        if stop || (!limits.infinite && !ponder) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

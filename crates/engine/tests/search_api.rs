//! The search library's contract for its callers (UCI and the generator): MultiPV,
//! searchmoves, node limits, determinism, threads, stop and ponder.

use nnue_test_support::position;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nnue_core::nnue::{random::stream_values, Architecture, Network};
use nnue_engine::eval::EvalKind;
use nnue_engine::search::score::EVAL_MAX;
use nnue_engine::search::{
    Info, Limits, Score, SearchContext, SearchControl, SearchResult, Searcher, SEARCH_STACK_BYTES,
};
use shakmaty::{uci::UciMove, Chess, Move};

fn mv(p: &Chess, text: &str) -> Move {
    text.parse::<UciMove>().unwrap().to_move(p).unwrap()
}

fn stoppable(control: &SearchControl) -> SearchContext<'_> {
    SearchContext {
        control: Some(control),
        ..SearchContext::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A fresh one-thread search of `p` and every line it reported.
fn search_reporting(p: &Chess, limits: &Limits) -> (SearchResult, Vec<Info>) {
    let mut infos: Vec<Info> = Vec::new();
    let mut on_info = |i: &Info| infos.push(i.clone());
    let context = SearchContext {
        on_info: Some(&mut on_info),
        ..SearchContext::default()
    };
    let r = Searcher::new(16, 1).search_with(p, limits, context);
    (r, infos)
}

const MIDDLEGAME: &str = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6";

#[test]
fn multipv_gives_distinct_sorted_lines() {
    let p = position(MIDDLEGAME);
    let mut s = Searcher::new(16, 1);
    s.set_multipv(4);
    let mut infos: Vec<Info> = Vec::new();
    let mut on_info = |i: &Info| infos.push(i.clone());
    let context = SearchContext {
        on_info: Some(&mut on_info),
        ..SearchContext::default()
    };
    s.search_with(&p, &depth(6), context);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 6).collect();
    assert_eq!(last.len(), 4);
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    for (i, a) in firsts.iter().enumerate() {
        for b in &firsts[i + 1..] {
            assert_ne!(a, b);
        }
    }
    let cps: Vec<i32> = last
        .iter()
        .map(|i| match i.score {
            Score::Cp(c) => c,
            Score::Mate(_) => panic!("no mate here"),
        })
        .collect();
    assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{cps:?}");
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
}

#[test]
fn searchmoves_restricts_the_root() {
    let p = Chess::default();
    let only = vec![mv(&p, "a2a3"), mv(&p, "h2h4")];
    let limits = Limits {
        depth: Some(5),
        searchmoves: only.clone(),
        ..Limits::default()
    };
    let r = Searcher::new(16, 1).search(&p, &limits);
    assert!(only.contains(&r.best_move.unwrap()));
}

#[test]
fn node_limit_is_respected_and_deterministic() {
    let p = position(MIDDLEGAME);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let run = || Searcher::new(16, 1).search(&p, &limits);
    let a = run();
    let b = run();
    assert!(a.nodes >= 20_000 && a.nodes < 22_000, "{}", a.nodes);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
    assert!(a.best_move.is_some());
}

#[test]
fn fixed_depth_is_deterministic_after_clear() {
    let p = position(MIDDLEGAME);
    let mut s = Searcher::new(16, 1);
    let a = s.search(&p, &depth(8));
    s.clear();
    let b = s.search(&p, &depth(8));
    assert_eq!(
        (a.nodes, a.best_move, a.value),
        (b.nodes, b.best_move, b.value)
    );
}

#[test]
fn two_threads_find_the_same_mate() {
    let p = position("r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1");
    let mut s = Searcher::new(16, 2);
    let r = s.search(&p, &depth(7));
    assert_eq!(r.score, Score::Mate(2));
    assert_eq!(r.best_move, Some(mv(&p, "b2b8")));
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let control = Arc::new(SearchControl::default());
    let c = control.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        c.stop.store(true, Ordering::SeqCst);
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let t = Instant::now();
    let mut s = Searcher::new(16, 2);
    let r = s.search_with(&Chess::default(), &limits, stoppable(&control));
    stopper.join().unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
    assert!(r.best_move.is_some());
}

#[test]
fn infinite_waits_even_when_the_depth_is_exhausted() {
    // Mate in one is found at once, but `infinite` must hold bestmove until stop.
    let control = Arc::new(SearchControl::default());
    let c = control.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c.stop.store(true, Ordering::SeqCst);
    });
    let limits = Limits {
        depth: Some(3),
        infinite: true,
        ..Limits::default()
    };
    let t = Instant::now();
    let p = position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let r = Searcher::new(16, 1).search_with(&p, &limits, stoppable(&control));
    stopper.join().unwrap();
    assert!(t.elapsed() >= Duration::from_millis(250));
    assert_eq!(r.best_move, Some(mv(&p, "d1d8")));
}

#[test]
fn ponder_ignores_the_clock_until_ponderhit() {
    let control = Arc::new(SearchControl::default());
    control.ponder.store(true, Ordering::SeqCst);
    let c = control.clone();
    let hitter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        c.ponder.store(false, Ordering::SeqCst);
    });
    // 100 ms on the clock: without pondering the search would end well before 400 ms.
    let limits = Limits {
        wtime: Some(Duration::from_millis(100)),
        btime: Some(Duration::from_millis(100)),
        ponder: true,
        ..Limits::default()
    };
    let t = Instant::now();
    let r = Searcher::new(16, 1).search_with(&Chess::default(), &limits, stoppable(&control));
    hitter.join().unwrap();
    let spent = t.elapsed();
    assert!(spent >= Duration::from_millis(390), "{spent:?}");
    // After the ponderhit the budget (from the start) is long gone: stop at once.
    assert!(spent < Duration::from_millis(700), "{spent:?}");
    assert!(r.best_move.is_some());
}

#[test]
fn clock_limits_are_kept() {
    let cases = [
        (200u64, 0u64, None),
        (1000, 100, None),
        (100, 10, None),
        (300, 0, Some(1)),
        (300, 0, Some(3)),
        (1000, 0, Some(40)),
    ];
    for (time, inc, movestogo) in cases {
        let limits = Limits {
            wtime: Some(Duration::from_millis(time)),
            winc: Some(Duration::from_millis(inc)),
            btime: Some(Duration::from_millis(time)),
            binc: Some(Duration::from_millis(inc)),
            movestogo,
            ..Limits::default()
        };
        // The searcher exists before `go` arrives, as in the engine.
        let mut searcher = Searcher::new(16, 1);
        let p = position(MIDDLEGAME);
        let t = Instant::now();
        let r = searcher.search(&p, &limits);
        let spent = t.elapsed();
        assert!(
            spent < Duration::from_millis(time.max(5)),
            "{time}+{inc} movestogo {movestogo:?}: spent {spent:?}"
        );
        assert!(r.best_move.is_some());
    }
}

#[test]
fn tiny_node_limits_still_give_a_legal_move() {
    let p = position(MIDDLEGAME);
    for n in [1u64, 10, 100] {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let r = Searcher::new(1, 1).search(&p, &limits);
        let m = r.best_move.expect("a move");
        assert!(shakmaty::Position::is_legal(&p, m), "{n}: {m:?}");
    }
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    // White's king has one square (a2); with a long clock the search returns at once.
    let p = position("1r6/8/8/8/8/2k5/8/K7 w - - 0 1");
    assert_eq!(shakmaty::Position::legal_moves(&p).len(), 1);
    let limits = Limits {
        wtime: Some(Duration::from_secs(60)),
        btime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let mut s = Searcher::new(16, 1);
    let t = Instant::now();
    let r = s.search(&p, &limits);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(r.best_move, Some(mv(&p, "a1a2")));
}

#[test]
fn hashfull_rises_and_clear_empties_it() {
    let mut s = Searcher::new(1, 1);
    assert_eq!(s.hashfull(), 0);
    s.search(&position(MIDDLEGAME), &depth(9));
    assert!(s.hashfull() > 0);
    s.clear();
    assert_eq!(s.hashfull(), 0);
}

#[test]
fn multipv_lines_come_from_the_iteration_of_the_best_move() {
    let p = position(MIDDLEGAME);
    for nodes in [2_000u64, 7_000, 15_000, 40_000] {
        let limits = Limits {
            nodes: Some(nodes),
            multipv: Some(3),
            ..Limits::default()
        };
        let (r, infos) = search_reporting(&p, &limits);
        assert_eq!(r.lines.len(), 3, "{nodes}");
        assert_eq!(Some(r.lines[0].mv), r.best_move, "{nodes}");
        assert_eq!(r.lines[0].value, r.value);
        assert_eq!(r.lines[0].pv, r.pv);
        assert!(r
            .lines
            .iter()
            .all(|l| l.depth == r.depth && l.pv[0] == l.mv));
        assert!(r.lines.windows(2).all(|w| w[0].value >= w[1].value));
        assert!(r.lines[0].mv != r.lines[1].mv && r.lines[1].mv != r.lines[2].mv);
        // The lines are exactly what the last completed iteration reported.
        let reported: Vec<(Move, Score)> = infos
            .iter()
            .filter(|i| i.depth == r.depth)
            .map(|i| (i.pv[0], i.score))
            .collect();
        let returned: Vec<(Move, Score)> = r
            .lines
            .iter()
            .map(|l| (l.mv, Score::from_value(l.value)))
            .collect();
        assert_eq!(reported, returned, "{nodes}");
    }
}

/// A HalfKP net whose raw output is about +-2^26 internal units (bias 2^30 / 16),
/// far beyond the mate range and the table's 16-bit fields.
fn huge_net(sign: i32) -> Network {
    let arch = Architecture::new("HalfKP", 8, &[8]).unwrap();
    let ft_weights = stream_values(7, 2, arch.inputs * 8, -64, 64)
        .into_iter()
        .map(|v| v as i16)
        .collect();
    let hidden_weights = stream_values(7, 4, 8 * 16, -127, 127)
        .into_iter()
        .map(|v| v as i8)
        .collect();
    Network::from_parameters(
        arch,
        vec![32; 8],
        ft_weights,
        vec![
            (vec![0; 8], hidden_weights),
            (vec![sign * (1 << 30)], vec![127; 8]),
        ],
    )
    .unwrap()
}

#[test]
fn huge_net_outputs_are_clamped_below_mates() {
    for sign in [1, -1] {
        let mut s = Searcher::new(16, 1);
        s.set_eval(EvalKind::Nnue(Arc::new(huge_net(sign))));
        let p = position(MIDDLEGAME);
        assert_eq!(s.evaluate(&p), sign * EVAL_MAX);
        for d in [1, 4, 7] {
            let r = s.search(&p, &depth(d));
            assert!(matches!(r.score, Score::Cp(_)), "{sign} {d}: {:?}", r.score);
            assert!(r.value.abs() <= EVAL_MAX, "{sign} {d}: {}", r.value);
            assert!(r.lines.iter().all(|l| l.value.abs() <= EVAL_MAX));
        }
        // Real mates still score as mates with such a net.
        let mate = position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(s.search(&mate, &depth(4)).score, Score::Mate(1));
    }
}

#[test]
fn n_searchers_on_n_threads_match_their_one_thread_results() {
    let fens = [
        MIDDLEGAME,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let limits = Limits {
        depth: Some(7),
        multipv: Some(2),
        ..Limits::default()
    };
    let alone: Vec<_> = fens
        .iter()
        .map(|f| Searcher::new(8, 1).search(&position(f), &limits))
        .collect();
    let together: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = fens
            .iter()
            .map(|f| {
                let limits = &limits;
                std::thread::Builder::new()
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        Searcher::new(8, 1).search(&position(f), limits)
                    })
                    .unwrap()
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (a, b) in alone.iter().zip(&together) {
        assert_eq!(
            (a.nodes, a.best_move, a.value, &a.lines),
            (b.nodes, b.best_move, b.value, &b.lines)
        );
    }
}

#[test]
fn quiescence_is_the_static_eval_only_in_quiet_positions() {
    let mut s = Searcher::new(1, 1);
    let quiet = Chess::default();
    assert_eq!(s.quiescence(&quiet, &[]), s.evaluate(&quiet));
    // White to move can take an undefended queen.
    let hanging = position("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    let stand_pat = s.evaluate(&hanging);
    assert!(stand_pat < 0, "{stand_pat}");
    assert!(s.quiescence(&hanging, &[]) > stand_pat + 1000);
}

#[test]
fn history_clears_apart_from_a_shared_table() {
    let mut a = Searcher::new(1, 1);
    let mut b = Searcher::with_table(a.table(), 1);
    a.search(&position(MIDDLEGAME), &depth(6));
    let used = b.hashfull();
    assert!(used > 0);
    b.clear_history();
    a.clear_history();
    assert_eq!(b.hashfull(), used);
    b.clear_table();
    assert_eq!(a.hashfull(), 0);
}

#[test]
fn the_evaluation_cache_changes_nothing_but_speed() {
    let limits = depth(8);
    for fen in [MIDDLEGAME, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"] {
        let p = position(fen);
        let mut plain = Searcher::new(4, 1);
        let mut cached = Searcher::new(4, 1);
        cached.set_eval_cache(1);
        for _ in 0..2 {
            let (a, b) = (plain.search(&p, &limits), cached.search(&p, &limits));
            assert_eq!(
                (a.nodes, a.best_move, a.value, &a.lines),
                (b.nodes, b.best_move, b.value, &b.lines)
            );
        }
    }
}

/// `soft_nodes` is checked between iterations only: the search ends after the
/// first completed iteration whose node count reaches it, with that iteration's
/// result whole; the hard `nodes` cap still stops an iteration midway.
#[test]
fn soft_node_limit_ends_after_the_iteration_that_crosses_it() {
    let p = position(MIDDLEGAME);
    let mut per_depth: Vec<(u32, u64)> = Vec::new();
    let mut on_info = |i: &Info| per_depth.push((i.depth, i.nodes));
    let context = SearchContext {
        on_info: Some(&mut on_info),
        ..SearchContext::default()
    };
    let full = Searcher::new(16, 1).search_with(&p, &depth(8), context);
    assert_eq!(
        per_depth,
        [
            (1, 42),
            (2, 107),
            (3, 337),
            (4, 884),
            (5, 1428),
            (6, 2436),
            (7, 4089),
            (8, 7484)
        ],
        "the iterations' node counts"
    );
    assert_eq!((full.depth, full.nodes), per_depth[7]);
    let soft = |soft: u64, nodes: Option<u64>| {
        let limits = Limits {
            depth: Some(8),
            nodes,
            soft_nodes: Some(soft),
            ..Limits::default()
        };
        let r = Searcher::new(16, 1).search(&p, &limits);
        (r.depth, r.nodes)
    };
    for &(d, n) in &per_depth[..7] {
        assert_eq!(soft(n, None), (d, n), "exactly at iteration {d}");
        assert_eq!(soft(n + 1, None), per_depth[d as usize], "just past it");
    }
    assert_eq!(soft(1, None), per_depth[0]);
    // The depth limit still caps the search.
    assert_eq!(soft(u64::MAX, None), per_depth[7]);
    // A hard cap just past iteration 6 stops iteration 7 midway (checked every
    // 1024 nodes), whatever the soft limit.
    let cap = per_depth[5].1 + 1;
    let (d, n) = soft(u64::MAX, Some(cap));
    assert_eq!(d, 6);
    assert!(n >= cap && n < cap + 1024 && n < per_depth[6].1, "{n}");
}

/// A node limit that cuts an iteration after its first root move was searched keeps
/// what that iteration found: the line comes from the cut iteration (one deeper
/// than `depth`, the last completed), and the last line reported is the move played.
#[test]
fn a_cut_iteration_keeps_its_best_move() {
    let p = position(MIDDLEGAME);
    let mut kept = 0;
    for nodes in (2_000u64..40_000).step_by(1_500) {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let (r, infos) = search_reporting(&p, &limits);
        let line = &r.lines[0];
        assert_eq!(Some(line.mv), r.best_move, "{nodes}");
        assert!(
            line.depth == r.depth || line.depth == r.depth + 1,
            "{nodes}"
        );
        let last = infos.last().expect("a line reported");
        assert_eq!((last.pv[0], last.depth), (line.mv, line.depth), "{nodes}");
        kept += usize::from(line.depth == r.depth + 1);
    }
    // Most cuts fall inside the first root move, which takes most of an iteration;
    // 3 of these 26 fall later (deterministic: one thread, node limits).
    assert!(kept >= 1, "no search kept a cut iteration");
}

/// `go movetime` is the move's whole budget: the search does not stop early the
/// way a clock's soft limit would (it used to stop starting iterations at 0.6 x).
#[test]
fn movetime_is_used_whole() {
    let p = position(MIDDLEGAME);
    let limits = Limits {
        movetime: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let t0 = Instant::now();
    let r = Searcher::new(16, 1).search(&p, &limits);
    let spent = t0.elapsed();
    assert!(r.best_move.is_some());
    // The move overhead (10 ms) and a node-check interval are all it may leave.
    assert!(spent >= Duration::from_millis(270), "{spent:?}");
}

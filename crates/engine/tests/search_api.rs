//! The search library's contract for its callers (UCI and the generator): MultiPV,
//! searchmoves, node limits, determinism, threads, stop and ponder.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nnue_engine::search::{Info, Limits, Score, SearchControl, Searcher};
use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Move};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn mv(p: &Chess, text: &str) -> Move {
    text.parse::<UciMove>().unwrap().to_move(p).unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

const MIDDLEGAME: &str = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6";

#[test]
fn multipv_gives_distinct_sorted_lines() {
    let p = pos(MIDDLEGAME);
    let mut s = Searcher::new(16, 1);
    s.set_multipv(4);
    let mut infos: Vec<Info> = Vec::new();
    s.search(&p, &[], &depth(6), &SearchControl::default(), &mut |i| {
        infos.push(i.clone())
    });
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
    let r = Searcher::new(16, 1).search(&p, &[], &limits, &SearchControl::default(), &mut |_| {});
    assert!(only.contains(&r.best_move.unwrap()));
}

#[test]
fn node_limit_is_respected_and_deterministic() {
    let p = pos(MIDDLEGAME);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let run =
        || Searcher::new(16, 1).search(&p, &[], &limits, &SearchControl::default(), &mut |_| {});
    let a = run();
    let b = run();
    assert!(a.nodes >= 20_000 && a.nodes < 22_000, "{}", a.nodes);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
    assert!(a.best_move.is_some());
}

#[test]
fn fixed_depth_is_deterministic_after_clear() {
    let p = pos(MIDDLEGAME);
    let mut s = Searcher::new(16, 1);
    let a = s.search(&p, &[], &depth(8), &SearchControl::default(), &mut |_| {});
    s.clear();
    let b = s.search(&p, &[], &depth(8), &SearchControl::default(), &mut |_| {});
    assert_eq!(
        (a.nodes, a.best_move, a.value),
        (b.nodes, b.best_move, b.value)
    );
}

#[test]
fn two_threads_find_the_same_mate() {
    let p = pos("r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1");
    let mut s = Searcher::new(16, 2);
    let r = s.search(&p, &[], &depth(7), &SearchControl::default(), &mut |_| {});
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
    let r = s.search(&Chess::default(), &[], &limits, &control, &mut |_| {});
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
    let p = pos("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let r = Searcher::new(16, 1).search(&p, &[], &limits, &control, &mut |_| {});
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
    let r = Searcher::new(16, 1).search(&Chess::default(), &[], &limits, &control, &mut |_| {});
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
        let p = pos(MIDDLEGAME);
        let t = Instant::now();
        let r = searcher.search(&p, &[], &limits, &SearchControl::default(), &mut |_| {});
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
    let p = pos(MIDDLEGAME);
    for n in [1u64, 10, 100] {
        let limits = Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let r =
            Searcher::new(1, 1).search(&p, &[], &limits, &SearchControl::default(), &mut |_| {});
        let m = r.best_move.expect("a move");
        assert!(shakmaty::Position::is_legal(&p, m), "{n}: {m:?}");
    }
}

#[test]
fn a_single_legal_move_is_played_at_once() {
    // White's king has one square (a2); with a long clock the search returns at once.
    let p = pos("1r6/8/8/8/8/2k5/8/K7 w - - 0 1");
    assert_eq!(shakmaty::Position::legal_moves(&p).len(), 1);
    let limits = Limits {
        wtime: Some(Duration::from_secs(60)),
        btime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let mut s = Searcher::new(16, 1);
    let t = Instant::now();
    let r = s.search(&p, &[], &limits, &SearchControl::default(), &mut |_| {});
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
    s.search(
        &pos(MIDDLEGAME),
        &[],
        &depth(9),
        &SearchControl::default(),
        &mut |_| {},
    );
    assert!(s.hashfull() > 0);
    s.clear();
    assert_eq!(s.hashfull(), 0);
}

//! The search finds mates and simple tactics at fixed depth and scores draws by the
//! rules (stalemate, repetition, fifty moves, insufficient material).

use nnue_engine::search::{key, Limits, Score, SearchContext, SearchResult, Searcher};
use nnue_test_support::position;
use shakmaty::{uci::UciMove, CastlingMode, Chess, Position};

fn uci(m: &shakmaty::Move) -> String {
    UciMove::from_move(*m, CastlingMode::Standard).to_string()
}

fn search_with(s: &mut Searcher, p: &Chess, history: &[Chess], limits: Limits) -> SearchResult {
    let keys: Vec<u64> = history.iter().map(key).collect();
    let context = SearchContext {
        history: &keys,
        ..SearchContext::default()
    };
    s.search_with(p, &limits, context)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn best(fen: &str, d: u32) -> SearchResult {
    let mut s = Searcher::new(16, 1);
    search_with(&mut s, &position(fen), &[], depth(d))
}

#[test]
fn mate_in_one() {
    let r = best("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4);
    assert_eq!(uci(&r.best_move.unwrap()), "d1d8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn mate_in_two() {
    // Queen sacrifice then rook mate on the back rank.
    let r = best("r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1", 6);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    assert_eq!(uci(&r.best_move.unwrap()), "b2b8", "{r:?}");
}

#[test]
fn mate_in_three_with_rook_and_king() {
    // KR vs K, Black's king on the edge: mate in 3 at most with best play.
    let r = best("7k/8/5K2/8/8/8/8/R7 w - - 0 1", 8);
    match r.score {
        Score::Mate(n) => assert!((1..=3).contains(&n), "{r:?}"),
        other => panic!("no mate found: {other:?}"),
    }
}

#[test]
fn mated_side_sees_it() {
    // Black's only move Kb8 runs into Rh8 mate.
    let r = best("k7/8/1K6/8/8/8/8/7R b - - 0 1", 5);
    assert_eq!(r.score, Score::Mate(-1), "{r:?}");
    assert_eq!(uci(&r.best_move.unwrap()), "a8b8");
}

#[test]
fn wins_a_hanging_queen() {
    let r = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 5);
    assert_eq!(uci(&r.best_move.unwrap()), "d2d5");
}

#[test]
fn finds_a_knight_fork() {
    // Nc7+ forks king and rook.
    let r = best("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", 6);
    assert_eq!(uci(&r.best_move.unwrap()), "b5c7", "{r:?}");
}

#[test]
fn stalemate_is_a_draw() {
    // Black to move has no legal move and is not in check.
    let mut s = Searcher::new(16, 1);
    let r = search_with(
        &mut s,
        &position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        &[],
        depth(3),
    );
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
    // The side that could stalemate by mistake avoids it: a queen up, White wins.
    let r = best("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 6);
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{r:?}");
}

#[test]
fn insufficient_material_is_a_draw() {
    let r = best("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 6);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn fifty_move_rule_draws() {
    // Halfmove clock 99: any quiet move ends the game drawn, although White is a
    // rook up; the only way to avoid it would be a capture or pawn move (none).
    let r = best("8/8/4k3/8/8/4K3/8/R7 w - - 99 80", 4);
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    // With a fresh clock the rook wins.
    let r = best("8/8/4k3/8/8/4K3/8/R7 w - - 0 80", 4);
    assert!(matches!(r.score, Score::Cp(cp) if cp > 300), "{r:?}");
}

#[test]
fn threefold_repetition_saves_the_losing_side() {
    // Knights shuttle: b1c3 g8f6 c3b1 f6g8 b1c3 g8f6 c3b1. Black, a queen down, can
    // now play f6g8 to reach the start position a third time: a draw.
    let start = position("4k1n1/8/8/8/8/8/8/1N1QK3 w - - 0 1");
    let mut history = vec![start.clone()];
    let mut p = start;
    for text in ["b1c3", "g8f6", "c3b1", "f6g8", "b1c3", "g8f6", "c3b1"] {
        let m = text.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        p.play_unchecked(m);
        history.push(p.clone());
    }
    let root = history.pop().unwrap();
    let mut s = Searcher::new(16, 1);
    let r = search_with(&mut s, &root, &history, depth(6));
    assert_eq!(uci(&r.best_move.unwrap()), "f6g8", "{r:?}");
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    // Without the game history there is no repetition: Black is lost.
    let r = search_with(&mut Searcher::new(16, 1), &root, &[], depth(6));
    assert!(matches!(r.score, Score::Cp(cp) if cp < -300), "{r:?}");
}

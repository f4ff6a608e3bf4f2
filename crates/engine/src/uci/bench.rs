//! `bench [depth]`: a fixed-depth search of a fixed set of positions with a fresh
//! 16 MiB hash and one thread. The total node count depends only on the search code
//! and the evaluation, so it is the engine's signature (a change in it means the
//! search changed); the speed line is the engine's NPS figure.

use std::time::Instant;

use shakmaty::{fen::Fen, CastlingMode, Chess};

use super::output::{format_info, Output};
use crate::eval::EvalKind;
use crate::search::{Info, Limits, SearchContext, SearchControl, Searcher};

/// Depth used when `bench` is given none.
pub const DEFAULT_DEPTH: u32 = 13;

/// Openings, middlegames and endgames: quiet and tactical positions, both sides to
/// move, castling and en passant rights, so that every part of the search runs.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 b - - 3 24",
    "r1b2rk1/pp1nqppp/2p1p3/3p4/2PP4/2N1PN2/PPQ2PPP/R3KB1R w KQ - 1 10",
    "4k3/1p3p2/p1p1p1p1/P1P1P1P1/1P3P2/8/4K3/8 w - - 0 40",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 60",
    "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 b - - 0 30",
    "r2q1rk1/ppp2ppp/2n1bn2/2bpp3/4P3/2PP1NP1/PP1N1PBP/R1BQ1RK1 w - - 0 8",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

/// What `bench` measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds (at least 1).
    pub time_ms: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// The bench positions as shakmaty positions (they are checked by a test).
pub fn positions() -> Vec<Chess> {
    POSITIONS
        .iter()
        .filter_map(|f| {
            f.parse::<Fen>()
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
        })
        .collect()
}

/// Runs the bench with `eval`, printing one summary line per position to `out`.
pub fn run(depth: u32, eval: &EvalKind, out: &Output) -> BenchResult {
    let mut searcher = Searcher::new(16, 1);
    searcher.set_eval(eval.clone());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = SearchControl::default();
    let start = Instant::now();
    let mut nodes = 0;
    let list = positions();
    for (i, pos) in list.iter().enumerate() {
        out.line(&format!(
            "Position: {}/{} {}",
            i + 1,
            list.len(),
            POSITIONS[i]
        ));
        searcher.clear();
        let mut last = None;
        let mut on_info = |info: &Info| last = Some(format_info(info));
        let context = SearchContext {
            control: Some(&control),
            on_info: Some(&mut on_info),
            ..SearchContext::default()
        };
        let result = searcher.search_with(pos, &limits, context);
        if let Some(line) = last {
            out.line(&line);
        }
        nodes += result.nodes;
    }
    let time_ms = (start.elapsed().as_millis() as u64).max(1);
    let r = BenchResult { nodes, time_ms };
    out.line("===========================");
    out.line(&format!("Total time (ms) : {}", r.time_ms));
    out.line(&format!("Nodes searched  : {}", r.nodes));
    out.line(&format!("Nodes/second    : {}", r.nps()));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_legal() {
        assert_eq!(positions().len(), POSITIONS.len());
    }
}

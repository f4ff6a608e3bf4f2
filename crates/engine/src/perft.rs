//! Move-generation verification: perft counts the leaves of the legal-move tree.
//!
//! Perft is the standard way to check a move generator against published counts, and
//! also a crude throughput benchmark.  Leaves are bulk-counted: at depth 1 the length of
//! the legal move list is the answer, so the last ply is never played out.

use shakmaty::{uci::UciMove, CastlingMode, Chess, Move, Position};

/// Number of leaf nodes of the legal move tree of `pos` at `depth` plies.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// One root move with the leaf count below it (a "divide" line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivideEntry {
    /// The root move.
    pub mv: Move,
    /// Leaves under `mv` at `depth - 1`.
    pub nodes: u64,
}

impl DivideEntry {
    /// The move in UCI notation (standard castling).
    pub fn uci(&self) -> String {
        UciMove::from_move(self.mv, CastlingMode::Standard).to_string()
    }
}

/// Leaf counts split per root move, in UCI-string order so output is stable.
pub fn divide(pos: &Chess, depth: u32) -> Vec<DivideEntry> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<DivideEntry> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            DivideEntry {
                mv: m,
                nodes: perft(&child, depth - 1),
            }
        })
        .collect();
    out.sort_by_key(|e| e.uci());
    out
}

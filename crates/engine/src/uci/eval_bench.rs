//! `evalbench [depth]`: the evaluation's speed as the search uses it. From each
//! bench position every line of legal moves is walked to `depth` plies, and every
//! node is evaluated after the move's incremental update, as the search does; so
//! the rate compares nets (feature sets, widths) by what one evaluation costs a
//! search, updates included, without the search's own choices in between. The
//! walk's node count depends only on the positions and the depth, and the sum of
//! all values only on the net: a signature that a change in inference would move.

use std::time::Instant;

use shakmaty::{Chess, Position};

use super::bench;
use super::output::Output;
use crate::eval::{EvalKind, Evaluator};

/// Depth used when `evalbench` is given none: about 18 million evaluations, a
/// few seconds, long enough for a steady rate.
pub const DEFAULT_DEPTH: u32 = 4;

/// What `evalbench` measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalBenchResult {
    /// Positions evaluated (every node of the walk).
    pub evaluations: u64,
    /// The sum of their values: the net's signature.
    pub value_sum: i64,
    /// Wall time in microseconds (at least 1).
    pub time_us: u64,
}

impl EvalBenchResult {
    /// Evaluations per second, updates included.
    pub fn per_second(&self) -> u64 {
        self.evaluations * 1_000_000 / self.time_us.max(1)
    }
}

/// Walks the bench positions to `depth` with `eval`, printing the summary to `out`.
pub fn run(depth: u32, eval: &EvalKind, out: &Output) -> EvalBenchResult {
    let mut evaluator = Evaluator::new(eval);
    let mut totals = (0u64, 0i64);
    let start = Instant::now();
    for pos in bench::positions() {
        evaluator.reset(&pos);
        walk(&mut evaluator, &pos, depth, &mut totals);
    }
    let time_us = (start.elapsed().as_micros() as u64).max(1);
    let r = EvalBenchResult {
        evaluations: totals.0,
        value_sum: totals.1,
        time_us,
    };
    out.line("===========================");
    out.line(&format!("Total time (ms)       : {}", r.time_us / 1000));
    out.line(&format!("Evaluations           : {}", r.evaluations));
    out.line(&format!("Sum of values         : {}", r.value_sum));
    out.line(&format!("Evaluations/second    : {}", r.per_second()));
    r
}

/// Evaluates `pos` and, above depth 0, every child after pushing its move.
fn walk(evaluator: &mut Evaluator, pos: &Chess, depth: u32, totals: &mut (u64, i64)) {
    totals.0 += 1;
    totals.1 += i64::from(evaluator.evaluate(pos));
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        evaluator.push(pos, &m, &child);
        walk(evaluator, &child, depth - 1, totals);
        evaluator.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> Output {
        Output::new(Box::new(std::io::sink()))
    }

    #[test]
    fn the_walk_visits_every_node_of_the_perft_tree() {
        // Depth 1 from each bench position: the position and each legal move.
        let expected: u64 = bench::positions()
            .iter()
            .map(|p| 1 + p.legal_moves().len() as u64)
            .sum();
        let r = run(1, &EvalKind::Classical, &quiet());
        assert_eq!(r.evaluations, expected);
    }

    #[test]
    fn incremental_values_equal_fresh_ones() {
        // The sum over the walk with incremental updates equals the sum of
        // evaluations each made from a fresh refresh.
        // A net with a hidden layer, so the update and every layer run.
        let arch = nnue_core::nnue::Architecture::new("All", 64, &[8]).expect("arch");
        let net = nnue_core::nnue::random::random_network(&arch, 5).expect("net");
        let kind = EvalKind::Nnue(std::sync::Arc::new(net));
        let incremental = run(2, &kind, &quiet()).value_sum;
        let mut fresh = 0i64;
        for pos in bench::positions() {
            fresh += fresh_sum(&kind, &pos, 2);
        }
        assert_eq!(incremental, fresh);
    }

    fn fresh_sum(kind: &EvalKind, pos: &Chess, depth: u32) -> i64 {
        let mut evaluator = Evaluator::new(kind);
        evaluator.reset(pos);
        let mut sum = i64::from(evaluator.evaluate(pos));
        if depth > 0 {
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                sum += fresh_sum(kind, &child, depth - 1);
            }
        }
        sum
    }
}

//! Evaluations the search can use: the classical one (material and piece-square
//! tables, what the first generation of training data is labelled with), NNUE
//! through the core's incremental accumulator, and Stockfish 15.1's HalfKAv2_hm
//! nets through theirs (scaled as 15.1 scales them, [`sf15_scale`]). All return
//! internal units from the side to move's point of view, so they are
//! interchangeable in the search. [`net`] loads either kind of `.nnue` file.

pub mod classical;
pub mod net;
pub mod sf15_scale;

use std::fmt;
use std::sync::Arc;

use nnue_core::nnue::halfka::{HalfKaNetwork, HalfKaStack};
use nnue_core::nnue::{AccumulatorStack, Network};
use shakmaty::{Chess, Move, Position};

use crate::value::EVAL_MAX;

/// Which evaluation a search uses (cheap to clone: the network is shared).
#[derive(Clone)]
pub enum EvalKind {
    Classical,
    Nnue(Arc<Network>),
    /// A Stockfish 15.1 (HalfKAv2_hm) net.
    HalfKa(Arc<HalfKaNetwork>),
}

impl fmt::Debug for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalKind::Classical => write!(f, "Classical"),
            EvalKind::Nnue(net) => write!(f, "Nnue({})", net.architecture().summary()),
            EvalKind::HalfKa(net) => write!(f, "HalfKa({})", net.summary()),
        }
    }
}

/// A per-thread evaluator that follows the search's moves. Enum dispatch keeps the
/// call inlinable; the classical variant needs no state.
pub enum Evaluator {
    Classical,
    Nnue(Box<AccumulatorStack>),
    HalfKa(Box<HalfKaStack>),
}

impl Evaluator {
    /// A fresh evaluator of `kind`.
    pub fn new(kind: &EvalKind) -> Evaluator {
        match kind {
            EvalKind::Classical => Evaluator::Classical,
            EvalKind::Nnue(net) => Evaluator::Nnue(Box::new(AccumulatorStack::new(net.clone()))),
            EvalKind::HalfKa(net) => Evaluator::HalfKa(Box::new(HalfKaStack::new(net.clone()))),
        }
    }

    /// Starts over at `pos` (the search root): a full refresh for NNUE.
    #[inline]
    pub fn reset(&mut self, pos: &Chess) {
        match self {
            Evaluator::Classical => {}
            Evaluator::Nnue(stack) => stack.reset(pos),
            Evaluator::HalfKa(stack) => stack.reset(pos),
        }
    }

    /// Records `mv` played on `before`, giving `after`.
    #[inline]
    pub fn push(&mut self, before: &Chess, mv: &Move, after: &Chess) {
        match self {
            Evaluator::Classical => {}
            Evaluator::Nnue(stack) => stack.push_played(before, mv, after.board()),
            Evaluator::HalfKa(stack) => stack.push_played(before, mv, after.board()),
        }
    }

    /// Records a null move (side to move passes).
    #[inline]
    pub fn push_null(&mut self) {
        match self {
            Evaluator::Classical => {}
            Evaluator::Nnue(stack) => stack.push_null(),
            Evaluator::HalfKa(stack) => stack.push_null(),
        }
    }

    /// Takes back the last push.
    #[inline]
    pub fn pop(&mut self) {
        match self {
            Evaluator::Classical => {}
            Evaluator::Nnue(stack) => stack.pop(),
            Evaluator::HalfKa(stack) => stack.pop(),
        }
    }

    /// The value of `pos` (the position after the pushes so far), side to move,
    /// clamped to [`EVAL_MAX`]: a net's raw output can be anything.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess) -> i32 {
        let raw = match self {
            Evaluator::Classical => classical::evaluate(pos),
            Evaluator::Nnue(stack) => stack.evaluate(pos),
            Evaluator::HalfKa(stack) => {
                let raw = stack.evaluate_raw(pos);
                sf15_scale::search_value(raw, pos.board(), pos.halfmoves())
            }
        };
        raw.clamp(-EVAL_MAX, EVAL_MAX)
    }
}

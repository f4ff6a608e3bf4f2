//! The incremental accumulator stack of a HalfKAv2_hm net, one entry per ply of
//! the current line, as [`crate::nnue::AccumulatorStack`] is for HalfKP: `push`
//! records the move's [`BoardChange`], and `evaluate` walks back to the nearest
//! computed entry (or the nearest own-king move, refreshed through the
//! [`FinnyTable`]) and applies the changes forward, PSQT accumulators alongside.
//! Perspectives are tracked separately, so a king move refreshes only its side.

use std::sync::Arc;

use shakmaty::{Board, Chess, Color, Move, Position};

use super::finny::FinnyTable;
use super::network::{HalfKaNetwork, RawEval};
use super::shape::Shape;
use super::transformer::Psqt;
use crate::features::halfka_v2_hm::HalfKaV2Hm;
use crate::features::{perspective_index, BoardChange, FeatureBlock, FeatureDelta, MoveContext};
use crate::nnue::aligned::Aligned;
use crate::nnue::simd::Kernel;

/// Both perspectives' accumulators of one position, White's first.
#[derive(Clone, Debug)]
struct Entry {
    acc: Aligned<i16>,
    psqt: [Psqt; 2],
    computed: [bool; 2],
    /// What the move into this position changed (none for the root and null moves).
    change: BoardChange,
    board: Board,
}

impl Entry {
    fn new(width: usize) -> Entry {
        Entry {
            acc: Aligned::new(2 * width),
            psqt: [Psqt::default(); 2],
            computed: [false; 2],
            change: BoardChange::none(),
            board: Board::new(),
        }
    }
}

/// Accumulators along the current line, for one search thread.
#[derive(Debug)]
pub struct HalfKaStack {
    net: Arc<HalfKaNetwork>,
    kernel: Kernel,
    entries: Vec<Entry>,
    top: usize,
    finny: FinnyTable,
    features: Vec<u32>,
    delta: FeatureDelta,
    transformed: Aligned<u8>,
}

impl HalfKaStack {
    /// A stack for `net`, using the fastest SIMD kernel of this CPU.
    pub fn new(net: Arc<HalfKaNetwork>) -> HalfKaStack {
        HalfKaStack::with_kernel(net, Kernel::detect())
    }

    /// A stack that uses `kernel` (tests compare kernels with this).
    pub fn with_kernel(net: Arc<HalfKaNetwork>, kernel: Kernel) -> HalfKaStack {
        let width = net.shape().width;
        HalfKaStack {
            finny: FinnyTable::new(&net.transformer),
            net,
            kernel,
            entries: vec![Entry::new(width)],
            top: 0,
            features: Vec::with_capacity(32),
            delta: FeatureDelta::with_capacity(32),
            transformed: Aligned::new(width),
        }
    }

    /// The network this stack evaluates with.
    pub fn network(&self) -> &Arc<HalfKaNetwork> {
        &self.net
    }

    /// Starts a new line at `pos` (its accumulators are computed on first use).
    pub fn reset(&mut self, pos: &Chess) {
        self.top = 0;
        let root = &mut self.entries[0];
        root.board.clone_from(pos.board());
        root.change = BoardChange::none();
        root.computed = [false; 2];
    }

    /// Makes room for one more entry and returns it, not yet computed.
    fn next_entry(&mut self) -> &mut Entry {
        self.top += 1;
        if self.entries.len() <= self.top {
            self.entries.push(Entry::new(self.net.shape().width));
        }
        let entry = &mut self.entries[self.top];
        entry.computed = [false; 2];
        entry
    }

    /// Records the position after `mv` played in `before`.
    pub fn push(&mut self, before: &Chess, mv: &Move) {
        let entry = self.next_entry();
        entry.change = BoardChange::of_move(before.board(), before.turn(), mv);
        entry.board.clone_from(before.board());
        entry.change.apply(&mut entry.board);
    }

    /// [`Self::push`] for a caller that has played the move: `after` is the board
    /// after `mv`.
    pub fn push_played(&mut self, before: &Chess, mv: &Move, after: &Board) {
        let entry = self.next_entry();
        entry.change = BoardChange::of_move(before.board(), before.turn(), mv);
        entry.board.clone_from(after);
    }

    /// Records a null move: the same board with the other side to move.
    pub fn push_null(&mut self) {
        let board = self.entries[self.top].board.clone();
        let entry = self.next_entry();
        entry.board = board;
        entry.change = BoardChange::none();
    }

    /// Returns to the previous position. Popping the root is ignored.
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Brings the top entry's accumulators of `perspective` up to date.
    fn update(&mut self, perspective: Color) {
        let HalfKaStack {
            net,
            kernel,
            entries,
            top,
            finny,
            features,
            delta,
            ..
        } = self;
        let (top, kernel, t) = (*top, *kernel, &net.transformer);
        let p = perspective_index(perspective);
        let w = t.shape.width;
        let mut base = top;
        while !entries[base].computed[p] {
            if base == 0 || entries[base].change.king_moved(perspective) {
                let e = &mut entries[base];
                let (acc, psqt) = (&mut e.acc[p * w..(p + 1) * w], &mut e.psqt[p]);
                finny.refresh(t, kernel, &e.board, perspective, features, acc, psqt);
                e.computed[p] = true;
                break;
            }
            base -= 1;
        }
        for i in base + 1..=top {
            let (done, rest) = entries.split_at_mut(i);
            let (prev, cur) = (&done[i - 1], &mut rest[0]);
            delta.clear();
            let mv = MoveContext::new(&prev.board, &cur.board, &cur.change, perspective);
            HalfKaV2Hm.changed(&mv, delta);
            let (acc, src) = (
                &mut cur.acc[p * w..(p + 1) * w],
                &prev.acc[p * w..(p + 1) * w],
            );
            let (removed, added) = (&delta.removed, &delta.added);
            t.update(
                kernel,
                acc,
                src,
                &mut cur.psqt[p],
                &prev.psqt[p],
                removed,
                added,
            );
            cur.computed[p] = true;
        }
    }

    /// Both parts of the evaluation of the top position `pos` (whose board is the
    /// one pushed; `pos` gives the side to move).
    pub fn evaluate_raw(&mut self, pos: &Chess) -> RawEval {
        debug_assert_eq!(
            &self.entries[self.top].board,
            pos.board(),
            "HalfKaStack::evaluate: position differs from the pushed line"
        );
        self.update(Color::White);
        self.update(Color::Black);
        let w = self.net.shape().width;
        let entry = &self.entries[self.top];
        let (white, black) = entry.acc.split_at(w);
        let turn = pos.turn();
        let (us, them) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let us_psqt = &entry.psqt[perspective_index(turn)];
        let them_psqt = &entry.psqt[perspective_index(!turn)];
        let stack = Shape::stack_of(entry.board.occupied().count());
        let out = &mut self.transformed;
        self.net
            .output(self.kernel, us, them, us_psqt, them_psqt, stack, out)
    }

    /// 15.1's raw value of the top position (`NNUE::evaluate(pos, false)`).
    pub fn evaluate(&mut self, pos: &Chess) -> i32 {
        self.evaluate_raw(pos).value()
    }
}

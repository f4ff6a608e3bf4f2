//! The accumulator stack: one entry per ply of the current search line.
//!
//! `push` only records what the move changed (a [`BoardChange`]) and the board after
//! it; the accumulators are computed on `evaluate`, by walking back to the nearest
//! entry whose accumulator is known — or to the nearest entry that needs a refresh
//! (HalfKP: own king moved), which is then refreshed — and applying the changes
//! forward. Positions that are never evaluated (pruned before their eval) thus cost
//! almost nothing, and every computed entry serves the siblings that follow.
//! The two perspectives are tracked separately, so a king move refreshes only its
//! own side.

use std::sync::Arc;

use shakmaty::{Board, Chess, Color, Move, Position};

use super::activation::{Activation, QA};
use super::aligned::Aligned;
use super::network::{Network, Scratch};
use super::simd::Kernel;
use super::FV_SCALE;
use crate::features::{perspective_index, BoardChange, FeatureDelta, MoveContext};

/// Both perspectives' accumulators of one position, White's first.
#[derive(Clone, Debug)]
struct Entry {
    values: Aligned<i16>,
    computed: [bool; 2],
    /// What the move into this position changed (none for the root and null moves).
    change: BoardChange,
    board: Board,
}

/// Accumulators along the current line, for one search thread.
#[derive(Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    entries: Vec<Entry>,
    top: usize,
    scratch: Scratch,
    features: Vec<u32>,
    delta: FeatureDelta,
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

impl AccumulatorStack {
    /// A stack for `net`, using the fastest SIMD kernel of this CPU.
    pub fn new(net: Arc<Network>) -> Self {
        AccumulatorStack::with_kernel(net, Kernel::detect())
    }

    /// A stack that uses `kernel` (tests compare kernels with this).
    pub fn with_kernel(net: Arc<Network>, kernel: Kernel) -> Self {
        let scratch = net.scratch();
        let root = Entry {
            values: Aligned::new(2 * net.half_dims()),
            computed: [false; 2],
            change: BoardChange::none(),
            board: Board::new(),
        };
        AccumulatorStack {
            net,
            kernel,
            entries: vec![root],
            top: 0,
            scratch,
            features: Vec::with_capacity(64),
            delta: FeatureDelta::with_capacity(64),
        }
    }

    /// The network this stack evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Number of positions on the stack above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// Starts a new line at `pos` (its accumulators are computed on first use).
    pub fn reset(&mut self, pos: &Chess) {
        self.top = 0;
        let root = &mut self.entries[0];
        root.board = pos.board().clone();
        root.change = BoardChange::none();
        root.computed = [false; 2];
    }

    /// Makes room for one more entry and returns it.
    fn next_entry(&mut self) -> &mut Entry {
        self.top += 1;
        if self.entries.len() <= self.top {
            let m = self.net.half_dims();
            self.entries.push(Entry {
                values: Aligned::new(2 * m),
                computed: [false; 2],
                change: BoardChange::none(),
                board: Board::new(),
            });
        }
        &mut self.entries[self.top]
    }

    /// Records the position after `mv` played in `before`.
    pub fn push(&mut self, before: &Chess, mv: &Move) {
        let entry = self.push_change(before, mv);
        entry.board.clone_from(before.board());
        entry.change.apply(&mut entry.board);
    }

    /// [`AccumulatorStack::push`] for a caller that has already played the move:
    /// `after` is the board after `mv`, copied instead of rebuilt (a search makes
    /// every move anyway; this saves replaying it on the stack's own board).
    pub fn push_played(&mut self, before: &Chess, mv: &Move, after: &Board) {
        let entry = self.push_change(before, mv);
        entry.board.clone_from(after);
        debug_assert_eq!(
            entry.board,
            {
                let mut replayed = before.board().clone();
                entry.change.apply(&mut replayed);
                replayed
            },
            "AccumulatorStack::push_played: `after` is not the board after the move"
        );
    }

    /// A new top entry holding what `mv` changes, not yet computed; the caller
    /// sets its board.
    fn push_change(&mut self, before: &Chess, mv: &Move) -> &mut Entry {
        // Built in place: a change made on the stack and then copied into the
        // entry costs a store-forwarding stall (its bytes are written one by one
        // and read back eight at a time).
        let entry = self.next_entry();
        entry.change = BoardChange::of_move(before.board(), before.turn(), mv);
        entry.computed = [false; 2];
        entry
    }

    /// Records a null move: the same board with the other side to move.
    pub fn push_null(&mut self) {
        let board = self.entries[self.top].board.clone();
        let entry = self.next_entry();
        entry.board = board;
        entry.change = BoardChange::none();
        entry.computed = [false; 2];
    }

    /// Returns to the previous position. Popping the root is ignored.
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Brings the top entry's accumulator of `perspective` up to date.
    fn update(&mut self, perspective: Color) {
        self.update_to(perspective, self.top);
    }

    /// Brings entry `target`'s accumulator of `perspective` up to date.
    fn update_to(&mut self, perspective: Color, target: usize) {
        let AccumulatorStack {
            net,
            kernel,
            entries,
            top,
            features,
            delta,
            ..
        } = self;
        let (top, kernel) = (target.min(*top), *kernel);
        let p = perspective_index(perspective);
        let m = net.half_dims();
        let set = net.feature_set();
        // Walk back to the nearest computed entry, or to the entry whose own move
        // needs a refresh (HalfKP: own king moved); refresh that one, so the
        // siblings evaluated later find a computed parent, then update forward.
        let mut base = top;
        while !entries[base].computed[p] {
            let needs_refresh = base == 0 || {
                let (prev, cur) = (&entries[base - 1], &entries[base]);
                set.needs_refresh(&MoveContext::new(
                    &prev.board,
                    &cur.board,
                    &cur.change,
                    perspective,
                ))
            };
            if needs_refresh {
                let entry = &mut entries[base];
                net.refresh(
                    kernel,
                    &entry.board,
                    perspective,
                    features,
                    &mut entry.values[p * m..(p + 1) * m],
                );
                entry.computed[p] = true;
                break;
            }
            base -= 1;
        }
        for i in base + 1..=top {
            let (done, rest) = entries.split_at_mut(i);
            let (prev, cur) = (&done[i - 1], &mut rest[0]);
            delta.clear();
            let mv = MoveContext::new(&prev.board, &cur.board, &cur.change, perspective);
            set.changed(&mv, delta);
            net.update_accumulator(
                kernel,
                &mut cur.values[p * m..(p + 1) * m],
                &prev.values[p * m..(p + 1) * m],
                &delta.removed,
                &delta.added,
            );
            cur.computed[p] = true;
        }
    }

    /// The evaluation of the top position `pos` in internal units from its side
    /// to move's view: the same value as [`super::evaluate`]`(net, pos)`.
    ///
    /// The board is the one the stack tracked through `reset` and `push`; `pos`
    /// supplies the side to move (debug builds check that the boards agree).
    pub fn evaluate(&mut self, pos: &Chess) -> i32 {
        debug_assert_eq!(
            &self.entries[self.top].board,
            pos.board(),
            "AccumulatorStack::evaluate: position differs from the pushed line"
        );
        self.prepare_parent();
        let bucket = self.net.bucket(pos.board());
        if let Some(raw) = self.evaluate_child(pos.turn(), bucket) {
            return raw / FV_SCALE;
        }
        for perspective in COLORS {
            self.update(perspective);
        }
        let m = self.net.half_dims();
        let values = &self.entries[self.top].values;
        let (white, black) = values.split_at(m);
        let (us, them) = match pos.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        self.net
            .output(self.kernel, us, them, bucket, &mut self.scratch)
            / FV_SCALE
    }

    /// Before the fused child evaluation: when the top entry is not computed and
    /// its own move needs no refresh, its parent is brought up to date first (a
    /// parent the search did not evaluate, e.g. a table hit gave its static
    /// value), so the top entry still takes the fused pass.
    fn prepare_parent(&mut self) {
        let top = self.top;
        if top == 0
            || self.entries[top - 1].computed == [true; 2]
            || self.entries[top].computed != [false; 2]
            || self.net.linear_narrow(0).is_none()
        {
            return;
        }
        let set = self.net.feature_set();
        let (prev, cur) = (&self.entries[top - 1], &self.entries[top]);
        let refresh = COLORS.iter().any(|&p| {
            set.needs_refresh(&MoveContext::new(&prev.board, &cur.board, &cur.change, p))
        });
        if !refresh {
            for perspective in COLORS {
                self.update_to(perspective, top - 1);
            }
        }
    }

    /// The common case of a search, done in one fused pass per perspective: the
    /// top entry is a child of a computed entry, its move needs no refresh, and
    /// the net has no hidden layer and int8 rows; the update then also yields the
    /// output (`Kernel::update_narrow_dot`, or `update_narrow_screlu_dot` whose
    /// sum is divided by `QA` once), so the new accumulators are never
    /// read back. The raw output of output bucket `bucket`, or `None` when the
    /// case does not apply.
    fn evaluate_child(&mut self, turn: Color, bucket: usize) -> Option<i32> {
        let AccumulatorStack {
            net,
            kernel,
            entries,
            top,
            delta,
            ..
        } = self;
        let (top, kernel) = (*top, *kernel);
        let linear = net.linear_narrow(bucket)?;
        if top == 0 || entries[top].computed != [false; 2] || entries[top - 1].computed != [true; 2]
        {
            return None;
        }
        let m = net.half_dims();
        let set = net.feature_set();
        let (done, rest) = entries.split_at_mut(top);
        let (prev, cur) = (&done[top - 1], &mut rest[0]);
        let contexts = COLORS.map(|p| MoveContext::new(&prev.board, &cur.board, &cur.change, p));
        if contexts.iter().any(|mv| set.needs_refresh(mv)) {
            return None;
        }
        let mut dots = 0i32;
        for mv in &contexts {
            let p = perspective_index(mv.perspective);
            let weights = if mv.perspective == turn {
                linear.us
            } else {
                linear.them
            };
            let (dst, src) = (
                &mut cur.values[p * m..(p + 1) * m],
                &prev.values[p * m..(p + 1) * m],
            );
            delta.clear();
            set.changed(mv, delta);
            let (removed, added) = (&delta.removed[..], &delta.added[..]);
            let dot = match linear.activation {
                Activation::ClippedRelu => {
                    kernel.update_narrow_dot(dst, src, linear.rows, removed, added, weights)
                }
                Activation::SquaredClippedRelu => {
                    kernel.update_narrow_screlu_dot(dst, src, linear.rows, removed, added, weights)
                }
            };
            dots = dots.wrapping_add(dot);
        }
        cur.computed = [true; 2];
        Some(match linear.activation {
            Activation::ClippedRelu => linear.bias.wrapping_add(dots),
            Activation::SquaredClippedRelu => linear.bias.wrapping_add(dots / QA),
        })
    }

    /// The accumulator of `perspective` at the top (computing it if needed); for
    /// tests that compare incremental and refreshed values.
    pub fn accumulator(&mut self, perspective: Color) -> &[i16] {
        self.update(perspective);
        let m = self.net.half_dims();
        let p = perspective_index(perspective);
        &self.entries[self.top].values[p * m..(p + 1) * m]
    }
}

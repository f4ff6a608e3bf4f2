//! The sparse transformer update of a net without hidden layers, whose
//! accumulator gradients are kept as mask bits and output gradients
//! ([`crate::model::single`]).
//!
//! Entry `e` (`2 * sample + p`) has the gradient `mask_e ⊙ (dy_e · w_p)`, with
//! `w_p` the output weights of perspective `p`. Row `r`'s gradient, the sum
//! over its entries, is therefore
//! `w_0 ⊙ Σ_{e of r, p=0} mask_e · dy_e + w_1 ⊙ Σ_{e of r, p=1} mask_e · dy_e`:
//! each entry adds its `dy` where its mask passes, and the two sums are
//! multiplied by the weights once per row. Summing `dy · w` term by term, as
//! the written-out gradient does, rebuilt every term from its mask at four
//! times the work, and read 8 times the memory (mask bytes, not bits).
//!
//! The batch's entries are grouped by (row, perspective), in sample order.
//! 1. Tasks own a column word ([`WORD_BITS`] columns) of up to
//!    [`GROUPS_PER_TASK`] groups: each group's sum stays in registers while all
//!    its entries pass ([`super::mask_sum`]); the batch's words of one column
//!    word (`2 * samples * 8` bytes) stay in L2.
//! 2. The touched rows are split into parts that combine their two sums with
//!    the weights and update them.
//!
//! Every sum's order is fixed by the batch, whatever the thread count or the
//! instruction set.

use std::ops::Range;

use rayon::prelude::*;

use crate::model::single::{MaskLayout, WORD_BITS};
use crate::model::Model;
use crate::optim::slots::{ft_limit, ModelSlots};
use crate::optim::{Optimizer, Step};

use super::mask_sum::{sum_terms, sum_terms_n, Term};
use super::sparse::{split_rows, touched_groups, RowIndex};

/// (Row, perspective) groups of one gradient task: 256 groups' sums of one
/// column word are 64 KiB, and All's 1536 groups make six tasks per word.
const GROUPS_PER_TASK: usize = 256;

/// Row parts of the update per thread, to balance rows of unequal cost.
const PARTS_PER_THREAD: usize = 4;

/// The accumulator gradients of a batch of a net without hidden layers.
#[derive(Copy, Clone)]
pub struct MaskedGrads<'a> {
    /// Mask words placed by `layout`.
    pub words: &'a [u64],
    /// Each sample's output gradient.
    pub dys: &'a [f32],
    /// The output layer's weights (`2 * half`) the gradients were taken with.
    pub w: &'a [f32],
    pub layout: MaskLayout,
}

impl MaskedGrads<'_> {
    /// Entry `e`'s term in column word `c`.
    #[inline(always)]
    fn term(&self, e: u32, c: usize) -> Term {
        let e = e as usize;
        Term {
            at: self.layout.index(e, c),
            dy: self.dys[e / 2],
        }
    }
}

/// The group of row `r` seen from perspective `p`.
pub(super) fn group_of(r: u32, p: usize) -> usize {
    2 * r as usize + p
}

/// The column words of a row of `half` floats: [`WORD_BITS`] wide, the last
/// one narrower when `half` is not a multiple.
fn column_words(half: usize) -> impl Iterator<Item = Range<usize>> + Clone {
    (0..half)
        .step_by(WORD_BITS)
        .map(move |s| s..(s + WORD_BITS).min(half))
}

/// Column words one gradient task sums together: each entry's index and `dy`
/// are found once for both, and both words' sums (16 AVX-512 registers) fit
/// the registers.
const WORDS_PER_TASK: usize = 2;

/// One gradient task: column words from `c`, some touched groups, and the
/// groups' sums of each word.
type GradTask<'a> = (usize, &'a [u32], Vec<&'a mut [f32]>);

/// Splits `grad` (column word `c` holds `touched.len() * width(c)` floats,
/// group after group) into the gradient tasks.
fn grad_tasks<'a>(touched: &'a [u32], half: usize, mut grad: &'a mut [f32]) -> Vec<GradTask<'a>> {
    let mut tasks = Vec::new();
    let words: Vec<Range<usize>> = column_words(half).collect();
    for (k, span) in words.chunks(WORDS_PER_TASK).enumerate() {
        let mut per_word = Vec::new();
        for cols in span {
            let len = touched.len() * cols.len();
            let (block, rest) = std::mem::take(&mut grad).split_at_mut(len);
            grad = rest;
            per_word.push(block.chunks_mut(GROUPS_PER_TASK * cols.len()));
        }
        for groups in touched.chunks(GROUPS_PER_TASK) {
            let sums = per_word.iter_mut().filter_map(Iterator::next).collect();
            tasks.push((k * WORDS_PER_TASK, groups, sums));
        }
    }
    tasks
}

/// Sums every touched group's terms into `ws.grad` (laid out as
/// [`grad_tasks`] says).
fn sum_groups(grads: MaskedGrads<'_>, ws: &mut RowIndex, touched: &[u32], half: usize) {
    let (starts, entries) = (&ws.starts, &ws.entries);
    ws.grad.clear();
    ws.grad.resize(touched.len() * half, 0.0);
    let stride = grads.layout.word_stride();
    grad_tasks(touched, half, &mut ws.grad)
        .into_par_iter()
        .for_each(|(c, groups, mut sums)| {
            let widths: Vec<usize> = sums.iter().map(|s| s.len() / groups.len()).collect();
            for (k, &g) in groups.iter().enumerate() {
                let list = &entries[starts[g as usize] as usize..starts[g as usize + 1] as usize];
                let term = |e| grads.term(e, c);
                let mut outs = sums
                    .iter_mut()
                    .zip(&widths)
                    .map(|(s, &w)| &mut s[k * w..][..w]);
                match (outs.next(), outs.next()) {
                    (Some(a), Some(b)) => sum_terms_n(grads.words, list, term, stride, [a, b]),
                    (Some(a), None) => sum_terms(grads.words, list, term, a),
                    _ => unreachable!("a task has one or two words"),
                }
            }
        });
}

/// A touched row and where its two groups' sums are among the touched groups.
struct RowSums {
    rows: Vec<u32>,
    /// Per row and perspective, the group's index in the touched groups.
    groups: Vec<[Option<usize>; 2]>,
}

/// The rows of the touched groups (sorted, so each row's groups are adjacent).
fn row_sums(touched: &[u32]) -> RowSums {
    let mut out = RowSums {
        rows: Vec::with_capacity(touched.len()),
        groups: Vec::with_capacity(touched.len()),
    };
    for (k, &g) in touched.iter().enumerate() {
        let row = g / 2;
        if out.rows.last() != Some(&row) {
            out.rows.push(row);
            out.groups.push([None, None]);
        }
        if let Some(last) = out.groups.last_mut() {
            last[g as usize % 2] = Some(k);
        }
    }
    out
}

/// Row gradient columns `cols` into `out`: `w_0 · s_0 + w_1 · s_1`, a missing
/// group's sum `+0`.
fn combine(
    grads: &MaskedGrads<'_>,
    sums: [Option<&[f32]>; 2],
    cols: &Range<usize>,
    out: &mut [f32],
) {
    let half = grads.layout.half;
    let (w0, w1) = grads.w.split_at(half);
    let (w0, w1) = (&w0[cols.clone()], &w1[cols.clone()]);
    let zeros = [0.0f32; WORD_BITS];
    let [s0, s1] = sums.map(|s| s.unwrap_or(&zeros[..cols.len()]));
    for (k, o) in out.iter_mut().enumerate() {
        *o = w0[k] * s0[k] + w1[k] * s1[k];
    }
}

/// Sums each touched row's gradient (see the module documentation) and
/// updates it.
pub fn update_rows(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    ws: &mut RowIndex,
    grads: MaskedGrads<'_>,
    step: Step,
) {
    let half = model.shape.half();
    let groups = 2 * model.shape.rows();
    let touched = touched_groups(&ws.starts, groups);
    sum_groups(grads, ws, &touched, half);

    let step = Step {
        limit: ft_limit(),
        ..step
    };
    let rows = row_sums(&touched);
    let parts = split_rows(
        &rows.rows,
        half,
        PARTS_PER_THREAD * rayon::current_num_threads(),
        &mut model.ft_w,
        &mut slots.ft_w.m,
        &mut slots.ft_w.v,
    );
    let (sums, count) = (&ws.grad, touched.len());
    parts.into_par_iter().for_each(|part| {
        let mut g = [0.0f32; WORD_BITS];
        for (k, &r) in part.touched.iter().enumerate() {
            let row = (r as usize - part.first_row) * half;
            let pair = rows.groups[part.first_touched + k];
            for cols in column_words(half) {
                let width = cols.len();
                // Column word `cols` of every touched group starts at
                // `count * cols.start`; group `k`'s is `k` groups in.
                let sum = |k: usize| &sums[count * cols.start + k * width..][..width];
                combine(&grads, pair.map(|k| k.map(sum)), &cols, &mut g[..width]);
                let span = row + cols.start..row + cols.end;
                opt.update(
                    &mut part.w[span.clone()],
                    &g[..width],
                    &mut part.m[span.clone()],
                    &mut part.v[span],
                    step,
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_sums_pair_each_rows_groups() {
        let touched = [0u32, 1, 3, 4, 9];
        let rows = row_sums(&touched);
        assert_eq!(rows.rows, [0, 1, 2, 4]);
        assert_eq!(
            rows.groups,
            [
                [Some(0), Some(1)],
                [None, Some(2)],
                [Some(3), None],
                [None, Some(4)]
            ]
        );
    }
}

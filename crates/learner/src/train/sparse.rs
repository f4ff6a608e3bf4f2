//! The sparse transformer update of a net whose accumulator gradients are
//! written out (nets with hidden layers; nets without take
//! [`super::masked`]): the batch's (sample, perspective) pairs are grouped by
//! row (a counting sort, in sample order); then
//! 1. the touched rows' gradients are summed by tasks that each own a column
//!    block of [`BLOCK`] floats of at most [`ROWS_PER_TASK`] rows, so every
//!    accumulator gradient is read from memory about once per batch (split by
//!    rows only, each task would read most of the batch's gradients) and a
//!    task's sums stay in L2 while the sample blocks pass;
//! 2. the touched rows are split into parts, one task each, that update them.
//!
//! No atomics and no per-thread dense copies; each row's sum is in sample order
//! whatever the thread count or the split. Rows no sample touched are left
//! alone (lazy update, as sparse trainers do).

use std::ops::Range;

use rayon::prelude::*;

use crate::data::SparseBatch;
use crate::model::kernels::{add, add4, Simd, BLOCK};
use crate::model::Model;
use crate::optim::slots::{ft_limit, ModelSlots};
use crate::optim::{Optimizer, Step};

use super::masked::MaskedGrads;

/// Samples whose accumulator gradients a row task reads together: 128 samples
/// × 2 perspectives × `half` floats stay in the core's cache while every row of
/// the task takes its entries from them.
const SAMPLE_BLOCK: usize = 128;

/// Rows with fewer entries than this many per sample block are summed over the
/// whole batch one after the other, not in the block walk: a HalfKP row of one
/// king square gets one entry every few blocks, so the walk would load and
/// store its sums for each entry, while the entries' gradients (the samples
/// with that king square) are shared with the task's other rows and stay in
/// cache. Shared rows (the factoriser's) keep the walk.
const FEW_PER_BLOCK: usize = 2;

/// Rows of one gradient task: their column block (`ROWS_PER_TASK * BLOCK * 4`
/// bytes, 256 KiB) stays in the core's L2 while every sample block adds to it.
const ROWS_PER_TASK: usize = 1024;

/// Tasks of whole rows when more than [`ROWS_PER_TASK`] rows are touched:
/// enough to balance any thread count this trainer runs with.
const WHOLE_ROW_TASKS: usize = 32;

/// The batch's features grouped by transformer row, and the touched rows'
/// gradients (buffers reused).
#[derive(Default)]
pub struct RowIndex {
    /// The touched rows' summed gradients, column block by column block:
    /// block `c` holds `touched * width(c)` floats, row after row.
    pub(super) grad: Vec<f32>,
    /// Row start offsets into `entries` (`rows + 1`).
    pub(super) starts: Vec<u32>,
    /// `2 * sample + perspective` grouped by row.
    pub(super) entries: Vec<u32>,
    /// Samples of the batch grouped.
    samples: usize,
}

/// Groups the batch's entries (`2 * sample + perspective`) by `key(row,
/// perspective)`, one of `keys` groups, each group in sample order.
fn group_by_row(
    batch: &SparseBatch,
    keys: usize,
    key: impl Fn(u32, usize) -> usize,
    ws: &mut RowIndex,
) {
    ws.samples = batch.len();
    ws.starts.clear();
    ws.starts.resize(keys + 2, 0);
    for (p, list) in [&batch.stm, &batch.nstm].into_iter().enumerate() {
        for &r in list {
            ws.starts[key(r, p) + 2] += 1;
        }
    }
    for r in 2..ws.starts.len() {
        ws.starts[r] += ws.starts[r - 1];
    }
    ws.entries.resize(batch.stm.len() + batch.nstm.len(), 0);
    // `starts[k + 1]` is the next free slot of group k while filling;
    // afterwards it is group k's end, i.e. group k + 1's start.
    for i in 0..batch.len() {
        let (stm, nstm) = batch.rows(i);
        for (p, list) in [stm, nstm].into_iter().enumerate() {
            for &r in list {
                let slot = &mut ws.starts[key(r, p) + 1];
                ws.entries[*slot as usize] = (2 * i + p) as u32;
                *slot += 1;
            }
        }
    }
}

/// Groups the batch's entries for [`update_transformer_rows`]: by row, or
/// with `by_perspective` by (row, perspective) ([`super::masked`]).
pub fn group_entries(batch: &SparseBatch, rows: usize, by_perspective: bool, ws: &mut RowIndex) {
    if by_perspective {
        group_by_row(batch, 2 * rows, super::masked::group_of, ws);
    } else {
        group_by_row(batch, rows, |r, _| r as usize, ws);
    }
}

/// The groups of [`RowIndex::starts`] with at least one entry, in order.
pub(super) fn touched_groups(starts: &[u32], keys: usize) -> Vec<u32> {
    (0..keys as u32)
        .filter(|&r| starts[r as usize] != starts[r as usize + 1])
        .collect()
}

/// The accumulators' gradients of a batch, one per entry
/// (`2 * sample + perspective`), `half` floats each.
#[derive(Copy, Clone)]
pub enum AccGrads<'a> {
    /// Written out (nets with hidden layers).
    Dense(&'a [f32]),
    /// As mask words and output gradients (a net without hidden layers).
    Masked(MaskedGrads<'a>),
}

/// The batch's accumulator gradients grouped by transformer row.
struct Grouped<'a> {
    starts: &'a [u32],
    entries: &'a [u32],
    acc: &'a [f32],
    half: usize,
    blocks: usize,
}

/// `slice[start..start + BLOCK]` as an array.
#[inline(always)]
fn block_of<T>(slice: &[T], start: usize) -> &[T; BLOCK] {
    slice[start..start + BLOCK]
        .try_into()
        .unwrap_or_else(|_| unreachable!("a block is BLOCK elements"))
}

impl Grouped<'_> {
    /// Columns `cols` of the accumulator gradient of entry `e`
    /// (`2 * sample + perspective`) of an [`AccGrads::Dense`] gradient.
    #[inline(always)]
    fn row<'s>(&'s self, acc: &'s [f32], e: u32, cols: &Range<usize>) -> &'s [f32] {
        let start = e as usize * self.half;
        &acc[start + cols.start..start + cols.end]
    }

    /// Sums columns `cols` of each row of `rows` into `g` (`rows.len()` rows of
    /// `cols.len()` floats, zeroed), each row's entries in sample order.
    fn task_gradient(&self, cols: Range<usize>, rows: &[u32], g: &mut [f32]) {
        match Simd::detect() {
            // SAFETY: the CPU supports the instructions (checked at run time).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.task_gradient_avx512(cols, rows, g) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.task_gradient_avx2(cols, rows, g) },
            _ => self.task_gradient_generic(cols, rows, g),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn task_gradient_avx2(&self, cols: Range<usize>, rows: &[u32], g: &mut [f32]) {
        self.task_gradient_generic(cols, rows, g);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn task_gradient_avx512(&self, cols: Range<usize>, rows: &[u32], g: &mut [f32]) {
        self.task_gradient_generic(cols, rows, g);
    }

    /// Rows with few entries ([`FEW_PER_BLOCK`]) are summed one after the
    /// other over the whole batch ([`Self::whole_row`]); the others walk the
    /// batch in blocks of [`SAMPLE_BLOCK`] samples, in each of which every row
    /// adds that block's entries, so the gradients read stay in cache across
    /// rows.
    #[inline(always)]
    fn task_gradient_generic(&self, cols: Range<usize>, rows: &[u32], g: &mut [f32]) {
        let width = cols.len();
        let few = (FEW_PER_BLOCK * self.blocks) as u32;
        let count = |r: u32| self.starts[r as usize + 1] - self.starts[r as usize];
        for (k, &r) in rows.iter().enumerate() {
            if count(r) < few {
                self.whole_row(&cols, r, &mut g[k * width..(k + 1) * width]);
            }
        }
        let mut cursor: Vec<usize> = rows
            .iter()
            .map(|&r| self.starts[r as usize] as usize)
            .collect();
        for b in 0..self.blocks {
            let limit = (2 * SAMPLE_BLOCK * (b + 1)) as u32;
            for (k, &r) in rows.iter().enumerate() {
                if count(r) < few {
                    continue;
                }
                let end = self.starts[r as usize + 1] as usize;
                let from = cursor[k];
                let mut to = from;
                while to < end && self.entries[to] < limit {
                    to += 1;
                }
                if to > from {
                    let entries = &self.entries[from..to];
                    // BLOCK columns at a time (a narrower one last).
                    for c in (0..width).step_by(BLOCK) {
                        let sum = &mut g[k * width + c..(k + 1) * width];
                        let col = cols.start + c;
                        if sum.len() >= BLOCK {
                            self.sum_block(&mut sum[..BLOCK], entries, col);
                        } else {
                            self.sum_slices(sum, entries, &(col..cols.end));
                        }
                    }
                    cursor[k] = to;
                }
            }
        }
    }

    /// Row `r`'s sum (columns `cols`, into `g`) over the whole batch: the same
    /// additions in the same order as the block walk of
    /// [`Self::task_gradient_generic`] (its entries split where a sample block
    /// ends, each part summed as [`Self::sum_block`] does), but each column
    /// block's sums stay in registers across the batch instead of being loaded
    /// and stored once per sample block. For a row with a few entries, most of
    /// them from samples with the same king square, whose gradients the task's
    /// other rows read too.
    #[inline(always)]
    fn whole_row(&self, cols: &Range<usize>, r: u32, g: &mut [f32]) {
        let entries =
            &self.entries[self.starts[r as usize] as usize..self.starts[r as usize + 1] as usize];
        let mut parts = Vec::new();
        let mut from = 0;
        while from < entries.len() {
            let block = entries[from] as usize / (2 * SAMPLE_BLOCK);
            let limit = (2 * SAMPLE_BLOCK * (block + 1)) as u32;
            let to = from + entries[from..].partition_point(|&e| e < limit);
            parts.push(from..to);
            from = to;
        }
        let width = cols.len();
        for c in (0..width).step_by(BLOCK) {
            let sum = &mut g[c..width];
            let col = cols.start + c;
            if sum.len() >= BLOCK {
                let mut sums: [f32; BLOCK] = *block_of(sum, 0);
                for part in &parts {
                    self.add_entries(&mut sums, &entries[part.clone()], col);
                }
                sum[..BLOCK].copy_from_slice(&sums);
            } else {
                for part in &parts {
                    self.sum_slices(sum, &entries[part.clone()], &(col..cols.end));
                }
            }
        }
    }

    /// `g += ` columns `cols` of the gradients of `entries` (one row's entries
    /// in one sample block): four entries at a time, `g += (a + b) + (c + d)`,
    /// then one at a time. The grouping is fixed by the data, so the result does
    /// not depend on the thread count. The [`BLOCK`] sums stay in registers
    /// across all the entries.
    #[inline(always)]
    fn sum_block(&self, g: &mut [f32], entries: &[u32], col: usize) {
        let mut sums: [f32; BLOCK] = *block_of(g, 0);
        self.add_entries(&mut sums, entries, col);
        g.copy_from_slice(&sums);
    }

    /// [`Self::sum_block`] on sums held by the caller.
    #[inline(always)]
    fn add_entries(&self, sums: &mut [f32; BLOCK], entries: &[u32], col: usize) {
        let (acc, half) = (self.acc, self.half);
        let block = |e: u32| block_of(acc, e as usize * half + col);
        let groups = entries.chunks_exact(4);
        let singles = groups.remainder();
        for e in groups {
            let (a, b) = (block(e[0]), block(e[1]));
            let (c, d) = (block(e[2]), block(e[3]));
            for k in 0..BLOCK {
                sums[k] += (a[k] + b[k]) + (c[k] + d[k]);
            }
        }
        for &e in singles {
            let a = block(e);
            for k in 0..BLOCK {
                sums[k] += a[k];
            }
        }
    }

    /// [`Self::sum_block`] for a column block narrower than [`BLOCK`].
    #[inline(always)]
    fn sum_slices(&self, g: &mut [f32], entries: &[u32], cols: &Range<usize>) {
        let acc = self.acc;
        let groups = entries.chunks_exact(4);
        let singles = groups.remainder();
        for e in groups {
            add4(g, [0, 1, 2, 3].map(|j| self.row(acc, e[j], cols)));
        }
        for &e in singles {
            add(g, self.row(acc, e, cols));
        }
    }
}

/// A contiguous range of transformer rows and the touched ones in it.
pub(super) struct RowPart<'a> {
    pub first_row: usize,
    /// Index in the batch's touched rows of `touched[0]`.
    pub first_touched: usize,
    pub touched: &'a [u32],
    pub w: &'a mut [f32],
    pub m: &'a mut [f32],
    pub v: &'a mut [f32],
}

/// Splits the touched rows into about `parts` contiguous parts with their weight
/// and optimizer slices.
pub(super) fn split_rows<'a>(
    touched: &'a [u32],
    half: usize,
    parts: usize,
    mut w: &'a mut [f32],
    mut m: &'a mut [f32],
    mut v: &'a mut [f32],
) -> Vec<RowPart<'a>> {
    let per = touched.len().div_ceil(parts.max(1)).max(1);
    let mut out = Vec::with_capacity(parts);
    let mut row = 0usize;
    for (p, chunk) in touched.chunks(per).enumerate() {
        let end = *chunk.last().unwrap_or(&0) as usize + 1;
        let skip = (chunk[0] as usize - row) * half;
        let take = (end - chunk[0] as usize) * half;
        let (_, rest) = std::mem::take(&mut w).split_at_mut(skip);
        let (wp, rest) = rest.split_at_mut(take);
        w = rest;
        let (_, rest) = std::mem::take(&mut m).split_at_mut(skip);
        let (mp, rest) = rest.split_at_mut(take);
        m = rest;
        let (_, rest) = std::mem::take(&mut v).split_at_mut(skip);
        let (vp, rest) = rest.split_at_mut(take);
        v = rest;
        out.push(RowPart {
            first_row: chunk[0] as usize,
            first_touched: p * per,
            touched: chunk,
            w: wp,
            m: mp,
            v: vp,
        });
        row = end;
    }
    out
}

/// The column blocks of a row of `half` floats: [`BLOCK`] wide, the last one
/// narrower when `half` is not a multiple.
fn column_blocks(half: usize) -> impl Iterator<Item = Range<usize>> + Clone {
    (0..half)
        .step_by(BLOCK)
        .map(move |s| s..(s + BLOCK).min(half))
}

/// Whether the gradient tasks take whole rows (see [`grad_tasks`]).
fn whole_rows(touched: usize) -> bool {
    touched > ROWS_PER_TASK
}

/// One gradient task: a column block of some touched rows and their sums.
type GradTask<'a> = (Range<usize>, &'a [u32], &'a mut [f32]);

/// Splits `grad` (laid out as [`RowIndex::grad`]) into the gradient tasks.
fn grad_tasks<'a>(touched: &'a [u32], half: usize, mut grad: &'a mut [f32]) -> Vec<GradTask<'a>> {
    let mut tasks = Vec::new();
    if whole_rows(touched.len()) {
        // Many rows, each with few entries per sample block (HalfKP): column
        // blocks would only multiply the walks over the rows, so tasks take
        // whole rows.
        let per = touched.len().div_ceil(WHOLE_ROW_TASKS);
        for (rows, g) in touched.chunks(per).zip(grad.chunks_mut(per * half)) {
            tasks.push((0..half, rows, g));
        }
        return tasks;
    }
    for cols in column_blocks(half) {
        let width = cols.len();
        let (block, rest) = std::mem::take(&mut grad).split_at_mut(touched.len() * width);
        grad = rest;
        let rows = touched.chunks(ROWS_PER_TASK);
        for (rows, g) in rows.zip(block.chunks_mut(ROWS_PER_TASK * width)) {
            tasks.push((cols.clone(), rows, g));
        }
    }
    tasks
}

/// Sums each touched row's gradient (column-block tasks, see the module
/// documentation) and updates it (row-part tasks); the batch's entries are
/// grouped first ([`group_entries`]). A row's sum is always in
/// sample order, whatever the thread count.
pub fn update_transformer_rows(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    ws: &mut RowIndex,
    acc: AccGrads<'_>,
    step: Step,
) {
    let acc = match acc {
        AccGrads::Dense(acc) => acc,
        AccGrads::Masked(grads) => {
            return super::masked::update_rows(model, slots, opt, ws, grads, step)
        }
    };
    let half = model.shape.half();
    let rows = model.shape.rows();
    let (starts, entries) = (&ws.starts, &ws.entries);
    let touched = touched_groups(starts, rows);
    let grouped = Grouped {
        starts,
        entries,
        acc,
        half,
        blocks: ws.samples.div_ceil(SAMPLE_BLOCK),
    };
    ws.grad.clear();
    ws.grad.resize(touched.len() * half, 0.0);
    grad_tasks(&touched, half, &mut ws.grad)
        .into_par_iter()
        .for_each(|(cols, rows, g)| grouped.task_gradient(cols, rows, g));

    let step = Step {
        limit: ft_limit(),
        ..step
    };
    let parts = split_rows(
        &touched,
        half,
        4 * rayon::current_num_threads(),
        &mut model.ft_w,
        &mut slots.ft_w.m,
        &mut slots.ft_w.v,
    );
    let grad = &ws.grad;
    let count = touched.len();
    let blocks: Vec<Range<usize>> = if whole_rows(count) {
        std::iter::once(0..half).collect()
    } else {
        column_blocks(half).collect()
    };
    parts.into_par_iter().for_each(|part| {
        for (k, &r) in part.touched.iter().enumerate() {
            let row = (r as usize - part.first_row) * half;
            let index = part.first_touched + k;
            for cols in &blocks {
                // Column block `cols` of every touched row starts at
                // `count * cols.start`; this row's is `index` rows in.
                let from = count * cols.start + index * cols.len();
                let span = row + cols.start..row + cols.end;
                let cols = cols.clone();
                opt.update(
                    &mut part.w[span.clone()],
                    &grad[from..from + cols.len()],
                    &mut part.m[span.clone()],
                    &mut part.v[span],
                    step,
                );
            }
        }
    });
}

//! The sparse transformer update: the batch's (sample, perspective) pairs are
//! grouped by row (a counting sort, in sample order); then
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
use crate::model::single::{element_grad, element_grad_bits, MaskLayout};
use crate::model::Model;
use crate::optim::slots::{ft_limit, ModelSlots};
use crate::optim::{Optimizer, Step};

/// Samples whose accumulator gradients a row task reads together: 128 samples
/// × 2 perspectives × `half` floats stay in the core's cache while every row of
/// the task takes its entries from them.
const SAMPLE_BLOCK: usize = 128;

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
    grad: Vec<f32>,
    /// Row start offsets into `entries` (`rows + 1`).
    starts: Vec<u32>,
    /// `2 * sample + perspective` grouped by row.
    entries: Vec<u32>,
}

/// Groups the batch's (sample, perspective) pairs by transformer row.
fn group_by_row(batch: &SparseBatch, rows: usize, ws: &mut RowIndex) {
    ws.starts.clear();
    ws.starts.resize(rows + 2, 0);
    for &r in batch.stm.iter().chain(&batch.nstm) {
        ws.starts[r as usize + 2] += 1;
    }
    for r in 2..ws.starts.len() {
        ws.starts[r] += ws.starts[r - 1];
    }
    ws.entries.resize(batch.stm.len() + batch.nstm.len(), 0);
    // `starts[r + 1]` is the next free slot of row r while filling; afterwards
    // it is row r's end, i.e. row r + 1's start.
    for i in 0..batch.len() {
        let (stm, nstm) = batch.rows(i);
        for (p, list) in [stm, nstm].into_iter().enumerate() {
            for &r in list {
                let slot = &mut ws.starts[r as usize + 1];
                ws.entries[*slot as usize] = (2 * i + p) as u32;
                *slot += 1;
            }
        }
    }
}

/// The accumulators' gradients of a batch, one per entry
/// (`2 * sample + perspective`), `half` floats each.
#[derive(Copy, Clone)]
pub enum AccGrads<'a> {
    /// Written out (nets with hidden layers).
    Dense(&'a [f32]),
    /// A net without hidden layers: entry `e`'s element `j` is
    /// [`element_grad`]`(mask, dys[e / 2], w[(e % 2) * half + j])`, its mask
    /// byte placed by `layout`.
    Masked {
        masks: &'a [u8],
        dys: &'a [f32],
        /// The output layer's weights (`2 * half`).
        w: &'a [f32],
        layout: MaskLayout,
    },
}

/// The fields of an [`AccGrads::Masked`].
struct Masked<'a> {
    masks: &'a [u8],
    dys: &'a [f32],
    w: &'a [f32],
    layout: MaskLayout,
}

/// The batch's accumulator gradients grouped by transformer row.
struct Grouped<'a> {
    starts: &'a [u32],
    entries: &'a [u32],
    acc: AccGrads<'a>,
    half: usize,
    blocks: usize,
}

/// One entry's [`BLOCK`] columns of an [`AccGrads::Masked`] gradient.
struct MaskedBlock<'a> {
    mask: &'a [u8; BLOCK],
    dy: f32,
    w: &'a [f32; BLOCK],
}

impl MaskedBlock<'_> {
    /// Element `k` (see [`element_grad_bits`] for why its zeros may be `+0`).
    #[inline(always)]
    fn at(&self, k: usize) -> f32 {
        element_grad_bits(self.mask[k], self.dy, self.w[k])
    }
}

/// Sums [`AccGrads::Masked`] terms hold in registers at a time: each term costs
/// a few registers of its own, so half a [`BLOCK`] avoids spilling the sums.
const MASKED_SUMS: usize = BLOCK / 2;

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

    /// Entry `e`'s [`BLOCK`] columns from `col` of an [`AccGrads::Masked`] gradient.
    #[inline(always)]
    fn masked<'s>(&self, source: &Masked<'s>, e: u32, col: usize) -> MaskedBlock<'s> {
        let e = e as usize;
        MaskedBlock {
            mask: block_of(source.masks, source.layout.offset(e, col)),
            dy: source.dys[e / 2],
            w: block_of(source.w, (e % 2) * self.half + col),
        }
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

    /// Walks the batch in blocks of [`SAMPLE_BLOCK`] samples; in each, every row
    /// adds that block's entries, so the gradients read stay in cache across
    /// rows.
    #[inline(always)]
    fn task_gradient_generic(&self, cols: Range<usize>, rows: &[u32], g: &mut [f32]) {
        let masked = match self.acc {
            AccGrads::Masked {
                masks,
                dys,
                w,
                layout,
            } => Some(Masked {
                masks,
                dys,
                w,
                layout,
            }),
            AccGrads::Dense(_) => None,
        };
        let width = cols.len();
        let mut cursor: Vec<usize> = rows
            .iter()
            .map(|&r| self.starts[r as usize] as usize)
            .collect();
        for b in 0..self.blocks {
            let limit = (2 * SAMPLE_BLOCK * (b + 1)) as u32;
            for (k, &r) in rows.iter().enumerate() {
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
                        match (self.acc, &masked) {
                            (_, Some(source)) if sum.len() >= BLOCK => {
                                self.sum_masked_block(source, &mut sum[..BLOCK], entries, col);
                            }
                            (_, Some(source)) => {
                                self.sum_masked_slices(source, sum, entries, &(col..cols.end));
                            }
                            (AccGrads::Dense(acc), None) if sum.len() >= BLOCK => {
                                self.sum_block(acc, &mut sum[..BLOCK], entries, col);
                            }
                            (AccGrads::Dense(acc), None) => {
                                self.sum_slices(acc, sum, entries, &(col..cols.end));
                            }
                            (AccGrads::Masked { .. }, None) => {
                                unreachable!("masked has its source")
                            }
                        }
                    }
                    cursor[k] = to;
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
    fn sum_block(&self, acc: &[f32], g: &mut [f32], entries: &[u32], col: usize) {
        let half = self.half;
        let block = |e: u32| block_of(acc, e as usize * half + col);
        let mut sums = [0.0f32; BLOCK];
        sums.copy_from_slice(g);
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
        g.copy_from_slice(&sums);
    }

    /// [`Self::sum_block`] of an [`AccGrads::Masked`] gradient: each term is
    /// rebuilt from its mask byte, `dy` and output weight (the same value the
    /// backward pass computed), the same groups and the same order.
    #[inline(always)]
    fn sum_masked_block(&self, source: &Masked<'_>, g: &mut [f32], entries: &[u32], col: usize) {
        let groups = entries.chunks_exact(4);
        let singles = groups.remainder();
        for (h, g) in g.chunks_exact_mut(MASKED_SUMS).enumerate() {
            let part = h * MASKED_SUMS..(h + 1) * MASKED_SUMS;
            let mut sums = [0.0f32; MASKED_SUMS];
            sums.copy_from_slice(g);
            for e in groups.clone() {
                let a = self.masked(source, e[0], col);
                let b = self.masked(source, e[1], col);
                let c = self.masked(source, e[2], col);
                let d = self.masked(source, e[3], col);
                for (k, s) in part.clone().zip(sums.iter_mut()) {
                    *s += (a.at(k) + b.at(k)) + (c.at(k) + d.at(k));
                }
            }
            for &e in singles {
                let a = self.masked(source, e, col);
                for (k, s) in part.clone().zip(sums.iter_mut()) {
                    *s += a.at(k);
                }
            }
            g.copy_from_slice(&sums);
        }
    }

    /// [`Self::sum_masked_block`] for a column block narrower than [`BLOCK`].
    fn sum_masked_slices(
        &self,
        source: &Masked<'_>,
        g: &mut [f32],
        entries: &[u32],
        cols: &Range<usize>,
    ) {
        let term = |e: u32, j: usize| {
            let e = e as usize;
            let mask = source.masks[source.layout.offset(e, cols.start) + j - cols.start];
            element_grad(mask, source.dys[e / 2], source.w[(e % 2) * self.half + j])
        };
        let groups = entries.chunks_exact(4);
        let singles = groups.remainder();
        for (k, s) in g.iter_mut().enumerate() {
            let j = cols.start + k;
            for e in groups.clone() {
                *s += (term(e[0], j) + term(e[1], j)) + (term(e[2], j) + term(e[3], j));
            }
            for &e in singles {
                *s += term(e, j);
            }
        }
    }

    /// [`Self::sum_block`] for a column block narrower than [`BLOCK`].
    #[inline(always)]
    fn sum_slices(&self, acc: &[f32], g: &mut [f32], entries: &[u32], cols: &Range<usize>) {
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
struct RowPart<'a> {
    first_row: usize,
    /// Index in the batch's touched rows of `touched[0]`.
    first_touched: usize,
    touched: &'a [u32],
    w: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
}

/// Splits the touched rows into about `parts` contiguous parts with their weight
/// and optimizer slices.
fn split_rows<'a>(
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
/// documentation) and updates it (row-part tasks). A row's sum is always in
/// sample order, whatever the thread count.
pub fn update_transformer_rows(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    batch: &SparseBatch,
    ws: &mut RowIndex,
    acc: AccGrads<'_>,
    step: Step,
) {
    let half = model.shape.half();
    let rows = model.shape.rows();
    group_by_row(batch, rows, ws);
    let (starts, entries) = (&ws.starts, &ws.entries);
    let touched: Vec<u32> = (0..rows as u32)
        .filter(|&r| starts[r as usize] != starts[r as usize + 1])
        .collect();
    let grouped = Grouped {
        starts,
        entries,
        acc,
        half,
        blocks: batch.len().div_ceil(SAMPLE_BLOCK),
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

//! The sparse transformer update: the batch's (sample, perspective) pairs are
//! grouped by row (a counting sort, in sample order), then rows are split into
//! parts, one rayon task each, that sum their rows' gradients and update them.
//! No atomics and no per-thread dense copies; each row's sum is in sample order
//! whatever the thread count. Rows no sample touched are left alone (lazy
//! update, as sparse trainers do).

use rayon::prelude::*;

use crate::data::SparseBatch;
use crate::model::kernels::{add, add4, Simd};
use crate::model::Model;
use crate::optim::slots::{ft_limit, ModelSlots};
use crate::optim::{Optimizer, Step};

/// Samples whose accumulator gradients a row task reads together: 128 samples
/// × 2 perspectives × `half` floats stay in the core's cache while every row of
/// the task takes its entries from them.
const SAMPLE_BLOCK: usize = 128;

/// The batch's features grouped by transformer row (buffers reused).
#[derive(Default)]
pub struct RowIndex {
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

/// The batch's accumulator gradients grouped by transformer row.
struct Grouped<'a> {
    starts: &'a [u32],
    entries: &'a [u32],
    acc: &'a [f32],
    half: usize,
    blocks: usize,
}

impl Grouped<'_> {
    /// The accumulator gradient of entry `e` (`2 * sample + perspective`).
    #[inline(always)]
    fn row(&self, e: u32) -> &[f32] {
        let start = e as usize * self.half;
        &self.acc[start..start + self.half]
    }

    /// The summed gradient of each row of `touched`, each in sample order.
    fn part_gradient(&self, touched: &[u32]) -> Vec<f32> {
        match Simd::detect() {
            // SAFETY: the CPU supports the instructions (checked at run time).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.part_gradient_avx512(touched) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.part_gradient_avx2(touched) },
            _ => self.part_gradient_generic(touched),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn part_gradient_avx2(&self, touched: &[u32]) -> Vec<f32> {
        self.part_gradient_generic(touched)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn part_gradient_avx512(&self, touched: &[u32]) -> Vec<f32> {
        self.part_gradient_generic(touched)
    }

    #[inline(always)]
    fn part_gradient_generic(&self, touched: &[u32]) -> Vec<f32> {
        let half = self.half;
        let mut grad = vec![0.0f32; touched.len() * half];
        let mut cursor: Vec<usize> = touched
            .iter()
            .map(|&r| self.starts[r as usize] as usize)
            .collect();
        for b in 0..self.blocks {
            let limit = (2 * SAMPLE_BLOCK * (b + 1)) as u32;
            for (k, &r) in touched.iter().enumerate() {
                let end = self.starts[r as usize + 1] as usize;
                let g = &mut grad[k * half..(k + 1) * half];
                let c = &mut cursor[k];
                // Four entries at a time: one pass over the row's sum per four
                // gradients read (the grouping is fixed by the data, so the
                // result still does not depend on the thread count).
                while *c + 4 <= end && self.entries[*c + 3] < limit {
                    let e = &self.entries[*c..*c + 4];
                    add4(g, [0, 1, 2, 3].map(|j| self.row(e[j])));
                    *c += 4;
                }
                while *c < end && self.entries[*c] < limit {
                    add(g, self.row(self.entries[*c]));
                    *c += 1;
                }
            }
        }
        grad
    }
}

/// A contiguous range of transformer rows and the touched ones in it.
struct RowPart<'a> {
    first_row: usize,
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
    for chunk in touched.chunks(per) {
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
            touched: chunk,
            w: wp,
            m: mp,
            v: vp,
        });
        row = end;
    }
    out
}

/// Sums each touched row's gradient and updates it. Rows are split into parts,
/// one task each; a task walks the batch in sample blocks and adds, for each of
/// its rows, that block's entries — so a row's sum is always in sample order,
/// whatever the thread count, and the gradients read stay in cache.
pub fn update_transformer_rows(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    batch: &SparseBatch,
    ws: &mut RowIndex,
    acc: &[f32],
    step: Step,
) {
    let half = model.shape.half();
    let rows = model.shape.rows();
    group_by_row(batch, rows, ws);
    let (starts, entries) = (&ws.starts, &ws.entries);
    let touched: Vec<u32> = (0..rows as u32)
        .filter(|&r| starts[r as usize] != starts[r as usize + 1])
        .collect();
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
    let blocks = batch.len().div_ceil(SAMPLE_BLOCK);
    let grouped = Grouped {
        starts,
        entries,
        acc,
        half,
        blocks,
    };
    parts.into_par_iter().for_each(|part| {
        let grad = grouped.part_gradient(part.touched);
        for (k, &r) in part.touched.iter().enumerate() {
            let span =
                (r as usize - part.first_row) * half..(r as usize - part.first_row + 1) * half;
            opt.update(
                &mut part.w[span.clone()],
                &grad[k * half..(k + 1) * half],
                &mut part.m[span.clone()],
                &mut part.v[span],
                step,
            );
        }
    });
}

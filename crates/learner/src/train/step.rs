//! One optimisation step on a batch.
//!
//! 1. Forward and backward of fixed chunks of samples in parallel; each chunk
//!    keeps its own dense gradients, summed afterwards in chunk order.
//! 2. The transformer gradient: the batch's (sample, perspective) pairs are
//!    grouped by row (a counting sort, in sample order), then rows are processed
//!    in parallel, each by one task that sums its gradient and updates it. No
//!    atomics, no per-thread dense copies, and the summation order is the same for
//!    any thread count, so results do not depend on `--threads`. Rows no sample
//!    touched are left alone (lazy update, as sparse trainers do).
//! 3. Dense tensors are updated.

use rayon::prelude::*;

use super::slots::{dense_limits, ft_limit, ModelSlots};
use crate::data::SparseBatch;
use crate::loss::{Figures, LossParams};
use crate::model::dense::GROUP;
use crate::model::kernels::{add, add4, crelu, crelu_passes, Simd};
use crate::model::{Dense, Model, NET_TO_INTERNAL};
use crate::optim::{Optimizer, Step};

/// Samples per parallel task of the dense part. Fixed: it decides the order in
/// which gradients are summed.
pub const CHUNK: usize = 256;

/// Buffers reused from batch to batch.
#[derive(Default)]
pub struct Workspace {
    /// `n * 2 * half`: accumulators, then their gradients.
    acc: Vec<f32>,
    /// Row start offsets into `entries` (`rows + 1`).
    starts: Vec<u32>,
    /// `2 * sample + perspective` grouped by row.
    entries: Vec<u32>,
}

/// Loss settings of one step.
#[derive(Copy, Clone, Debug)]
pub struct LossSetting<'a> {
    pub params: &'a LossParams,
    /// λ of the power form at this point of the run.
    pub power_lambda: f64,
}

/// Gradients of one chunk.
struct ChunkGrad {
    dense: Vec<Dense>,
    ft_b: Vec<f32>,
    figures: Figures,
}

/// Per-sample buffers of the dense part.
struct SampleBuffers {
    inputs: Vec<Vec<f32>>,
    outputs: Vec<Vec<f32>>,
    grads: Vec<Vec<f32>>,
    dx: Vec<f32>,
}

impl SampleBuffers {
    fn new(model: &Model) -> SampleBuffers {
        SampleBuffers {
            inputs: model.dense.iter().map(|d| vec![0.0; d.inputs]).collect(),
            outputs: model.dense.iter().map(|d| vec![0.0; d.outputs]).collect(),
            grads: model.dense.iter().map(|d| vec![0.0; d.outputs]).collect(),
            dx: vec![0.0; 2 * model.shape.half()],
        }
    }
}

/// Trains `model` on `batch` once; returns the sum of the batch's figures.
pub fn train_step(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    loss: LossSetting<'_>,
    batch: &SparseBatch,
    ws: &mut Workspace,
    step: Step,
) -> Figures {
    let n = batch.len();
    if n == 0 {
        return Figures::default();
    }
    let width = 2 * model.shape.half();
    ws.acc.resize(n * width, 0.0);
    let pass = Pass {
        model,
        rows: model.dense.iter().map(Dense::weights_row_major).collect(),
        batch,
        loss,
        n,
    };
    let grads: Vec<ChunkGrad> = ws
        .acc
        .par_chunks_mut(CHUNK * width)
        .enumerate()
        .map(|(c, acc)| pass.chunk(c * CHUNK, acc))
        .collect();
    let mut total = grads
        .into_iter()
        .reduce(|mut a, b| {
            for (x, y) in a.dense.iter_mut().zip(&b.dense) {
                x.add_assign(y);
            }
            add(&mut a.ft_b, &b.ft_b);
            a.figures.add(&b.figures);
            a
        })
        .unwrap_or_else(|| unreachable!("a non-empty batch has a chunk"));
    update_transformer_rows(model, slots, opt, batch, ws, step);
    update_dense(model, slots, opt, &mut total, step);
    total.figures
}

/// What every chunk of a batch's dense pass shares.
struct Pass<'a> {
    model: &'a Model,
    /// Each dense layer's weights row-major, for the input gradients.
    rows: Vec<Vec<f32>>,
    batch: &'a SparseBatch,
    loss: LossSetting<'a>,
    /// Batch size (the loss is a batch mean).
    n: usize,
}

impl Pass<'_> {
    /// Forward and backward of the samples `first..` whose accumulators are
    /// `acc`; leaves the accumulator gradients in `acc`. Compiled for AVX2 too
    /// (see [`Simd`]).
    fn chunk(&self, first: usize, acc: &mut [f32]) -> ChunkGrad {
        match Simd::detect() {
            // SAFETY: the CPU supports the instructions (checked at run time).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.chunk_avx512(first, acc) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.chunk_avx2(first, acc) },
            _ => self.chunk_generic(first, acc),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn chunk_avx2(&self, first: usize, acc: &mut [f32]) -> ChunkGrad {
        self.chunk_generic(first, acc)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn chunk_avx512(&self, first: usize, acc: &mut [f32]) -> ChunkGrad {
        self.chunk_generic(first, acc)
    }

    #[inline(always)]
    fn chunk_generic(&self, first: usize, acc: &mut [f32]) -> ChunkGrad {
        let (model, batch, loss, n) = (self.model, self.batch, self.loss, self.n);
        let half = model.shape.half();
        let width = 2 * half;
        let mut grad = ChunkGrad {
            dense: model
                .dense
                .iter()
                .map(|d| Dense::zeros(d.inputs, d.outputs))
                .collect(),
            ft_b: vec![0.0; half],
            figures: Figures::default(),
        };
        let mut bufs: Vec<SampleBuffers> = (0..GROUP).map(|_| SampleBuffers::new(model)).collect();
        for (g, group) in acc.chunks_mut(GROUP * width).enumerate() {
            for (j, (acc, buf)) in group.chunks_exact_mut(width).zip(&mut bufs).enumerate() {
                let i = first + g * GROUP + j;
                let (stm, nstm) = batch.rows(i);
                let (us, them) = acc.split_at_mut(half);
                model.accumulate(stm, us);
                model.accumulate(nstm, them);
                let v = self.forward(acc, buf);
                let target = batch.targets[i];
                let (_, dldv) = loss.params.eval(v, target, loss.power_lambda);
                grad.figures
                    .add(&Figures::of(loss.params, v, target, loss.power_lambda));
                let dy = dldv * f64::from(NET_TO_INTERNAL) / n as f64;
                self.backward(acc, dy as f32, buf);
                acc.copy_from_slice(&buf.dx);
                add(&mut grad.ft_b, &acc[..half]);
                add(&mut grad.ft_b, &acc[half..]);
            }
            let used = &bufs[..group.len() / width];
            for (k, (layer, g)) in model.dense.iter().zip(&mut grad.dense).enumerate() {
                let xs: Vec<&[f32]> = used.iter().map(|b| b.inputs[k].as_slice()).collect();
                let dys: Vec<&[f32]> = used.iter().map(|b| b.grads[k].as_slice()).collect();
                layer.accumulate_grad_group(&xs, &dys, g);
            }
        }
        grad
    }

    /// The dense layers from the accumulators `acc`; the value in internal units.
    #[inline(always)]
    fn forward(&self, acc: &[f32], buf: &mut SampleBuffers) -> f64 {
        let last = self.model.dense.len() - 1;
        for (x, &a) in buf.inputs[0].iter_mut().zip(acc) {
            *x = crelu(a);
        }
        for (k, layer) in self.model.dense.iter().enumerate() {
            layer.forward(&buf.inputs[k], &mut buf.outputs[k]);
            if k < last {
                for (x, &h) in buf.inputs[k + 1].iter_mut().zip(&buf.outputs[k]) {
                    *x = crelu(h);
                }
            }
        }
        f64::from(buf.outputs[last][0]) * f64::from(NET_TO_INTERNAL)
    }

    /// Back through the dense layers from the output gradient `dy`: each
    /// layer's output gradient into `buf.grads` (the weight gradients are summed
    /// per group of samples afterwards), the accumulators' gradient into `buf.dx`.
    #[inline(always)]
    fn backward(&self, acc: &[f32], dy: f32, buf: &mut SampleBuffers) {
        let last = self.model.dense.len() - 1;
        buf.grads[last][0] = dy;
        for k in (0..=last).rev() {
            let layer = &self.model.dense[k];
            if k > 0 {
                let (lower, upper) = buf.grads.split_at_mut(k);
                let pre = &buf.outputs[k - 1];
                layer.input_grad(&self.rows[k], &upper[0], &mut lower[k - 1], |i| {
                    crelu_passes(pre[i])
                });
            } else {
                layer.input_grad(&self.rows[0], &buf.grads[0], &mut buf.dx, |i| {
                    crelu_passes(acc[i])
                });
            }
        }
    }
}

/// Groups the batch's (sample, perspective) pairs by transformer row.
fn group_by_row(batch: &SparseBatch, rows: usize, ws: &mut Workspace) {
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

/// Samples whose accumulator gradients a row task reads together: 128 samples
/// × 2 perspectives × `half` floats stay in the core's cache while every row of
/// the task takes its entries from them.
const SAMPLE_BLOCK: usize = 128;

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
fn update_transformer_rows(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    batch: &SparseBatch,
    ws: &mut Workspace,
    step: Step,
) {
    let half = model.shape.half();
    let rows = model.shape.rows();
    group_by_row(batch, rows, ws);
    let (starts, entries, acc) = (&ws.starts, &ws.entries, &ws.acc);
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

/// Updates the transformer biases and every dense layer.
fn update_dense(
    model: &mut Model,
    slots: &mut ModelSlots,
    opt: &Optimizer,
    grad: &mut ChunkGrad,
    step: Step,
) {
    let ft = Step {
        limit: ft_limit(),
        ..step
    };
    let s = &mut slots.ft_b;
    opt.update(&mut model.ft_b, &grad.ft_b, &mut s.m, &mut s.v, ft);
    let layers = model.dense.len();
    for (k, ((layer, g), (sw, sb))) in model
        .dense
        .iter_mut()
        .zip(&grad.dense)
        .zip(slots.dense.iter_mut())
        .enumerate()
    {
        let (wl, bl) = dense_limits(k, layers);
        let ws = Step { limit: wl, ..step };
        let bs = Step { limit: bl, ..step };
        opt.update(&mut layer.wt, &g.wt, &mut sw.m, &mut sw.v, ws);
        opt.update(&mut layer.b, &g.b, &mut sb.m, &mut sb.v, bs);
    }
}

/// The values (internal units) of every sample of `batch`, in parallel.
pub fn evaluate_batch(model: &Model, batch: &SparseBatch) -> Vec<f64> {
    (0..batch.len())
        .collect::<Vec<_>>()
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let mut trace = crate::model::Trace::new(model);
            chunk
                .iter()
                .map(|&i| {
                    let (stm, nstm) = batch.rows(i);
                    f64::from(model.forward(stm, nstm, &mut trace)) * f64::from(NET_TO_INTERNAL)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

//! One optimisation step on a batch.
//!
//! 1. Forward and backward of fixed chunks of samples in parallel; each chunk
//!    keeps its own dense gradients, summed afterwards in chunk order.
//! 2. The transformer rows the batch touched are summed and updated
//!    ([`super::sparse`]), each by one task, in an order that does not depend on
//!    `--threads`.
//! 3. Dense tensors are updated.
//!
//! With `--quantization-aware`, step 1 runs rounded copies of the dense layers
//! ([`crate::model::fake_quant`]) and their gradients go to the float weights.

use std::borrow::Cow;

use nnue_core::nnue::Activation;

use rayon::prelude::*;

use crate::data::SparseBatch;
use crate::loss::{Figures, LossKind, LossParams};
use crate::model::dense::GROUP;
use crate::model::fake_quant::quantized_dense;
use crate::model::kernels::{activate, add, crelu, crelu_dot, crelu_passes, passing_slope, Simd};
use crate::model::single;
use crate::model::{Dense, Model, NET_TO_INTERNAL};
use crate::optim::slots::{dense_limits, ft_limit, ModelSlots};
use crate::optim::{Optimizer, Step};
use crate::pqr::triplet_figures;

use super::masked::MaskedGrads;
use super::sparse::AccGrads;

/// Samples per parallel task of the dense part (a power of two, for the mask
/// layout). Fixed: it decides the order in which gradients are summed.
pub const CHUNK: usize = 256;
const _: () = assert!(CHUNK.is_power_of_two());

/// Buffers reused from batch to batch.
#[derive(Default)]
pub struct Workspace {
    /// `n * 2 * half`: accumulators, then their gradients (nets with hidden
    /// layers, an SCReLU transformer or output buckets).
    acc: Vec<f32>,
    /// ClippedReLU's mask bits (`n * 2 * half`, in words) and `n` output
    /// gradients: the accumulators' gradients of a plain net without hidden
    /// layers ([`single`]).
    masks: Vec<u64>,
    dys: Vec<f32>,
    /// The batch's features grouped by transformer row.
    rows: super::sparse::RowIndex,
}

/// Loss settings of one step.
#[derive(Copy, Clone, Debug)]
pub struct LossSetting<'a> {
    pub params: &'a LossParams,
    /// λ of the power form at this point of the run.
    pub power_lambda: f64,
    /// Run the dense layers at their quantized values (`--quantization-aware`).
    pub quantization_aware: bool,
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
    let dense: Cow<'_, [Dense]> = if loss.quantization_aware {
        Cow::Owned(quantized_dense(&model.dense))
    } else {
        Cow::Borrowed(&model.dense)
    };
    let mut pass = Pass {
        model,
        rows: dense.iter().map(Dense::weights_row_major).collect(),
        dense: &dense,
        batch,
        loss,
        n,
        given: None,
    };
    let pqr = (loss.params.kind == LossKind::Pqr).then(|| {
        let values = pass.values();
        triplet_figures(loss.params, &values, &batch.targets)
    });
    pass.given = pqr.as_ref().map(|(_, grads)| grads.as_slice());
    let fused = is_fused(model, &dense);
    let layout = mask_layout(width / 2, n);
    let rows = model.shape.rows();
    let (masks, dys, acc) = (&mut ws.masks, &mut ws.dys, &mut ws.acc);
    // The batch's entries are grouped by row while the dense pass runs: the
    // grouping needs only the batch.
    let (grads, ()) = rayon::join(
        || pass.chunks(fused, layout, ChunkBuffers { masks, dys, acc }),
        || super::sparse::group_entries(batch, rows, fused, &mut ws.rows),
    );
    let mut total = sum_chunks(grads);
    // The output weights the masks' gradients were taken with (rounded ones
    // with `--quantization-aware`), owned: the model is updated next.
    let output_weights = fused.then(|| dense[0].wt.clone());
    if let Some((figures, _)) = pqr {
        total.figures = figures;
    }
    drop(pass);
    drop(dense);
    let source = match &output_weights {
        Some(w) => AccGrads::Masked(MaskedGrads {
            words: &ws.masks,
            dys: &ws.dys,
            w,
            layout,
        }),
        None => AccGrads::Dense(&ws.acc),
    };
    super::sparse::update_transformer_rows(model, slots, opt, &mut ws.rows, source, step);
    update_dense(model, slots, opt, &mut total, step);
    total.figures
}

/// Whether the batch takes the fused pass of a net without hidden layers, which
/// keeps ClippedReLU's masks (one bit per element) instead of the accumulators'
/// gradients. SCReLU's gradients take the general path; so do material buckets
/// (one output layer of the eight per sample).
fn is_fused(model: &Model, dense: &[Dense]) -> bool {
    let arch = &model.shape.arch;
    dense.len() == 1 && arch.activation == Activation::ClippedRelu && arch.output_buckets == 1
}

/// The chunks' gradients summed in chunk order (the order is fixed, so the sum
/// does not depend on `--threads`).
fn sum_chunks(grads: Vec<ChunkGrad>) -> ChunkGrad {
    grads
        .into_iter()
        .reduce(|mut a, b| {
            for (x, y) in a.dense.iter_mut().zip(&b.dense) {
                x.add_assign(y);
            }
            add(&mut a.ft_b, &b.ft_b);
            a.figures.add(&b.figures);
            a
        })
        .unwrap_or_else(|| unreachable!("a non-empty batch has a chunk"))
}

/// The workspace's buffers the dense pass writes: the fused pass's masks and
/// output gradients, or the general pass's accumulators.
struct ChunkBuffers<'a> {
    masks: &'a mut Vec<u64>,
    dys: &'a mut Vec<f32>,
    acc: &'a mut Vec<f32>,
}

/// Where the mask words of a batch of `samples` go (see [`single::MaskLayout`]).
fn mask_layout(half: usize, samples: usize) -> single::MaskLayout {
    single::MaskLayout {
        half,
        samples,
        chunk_log2: CHUNK.trailing_zeros(),
    }
}

/// What every chunk of a batch's dense pass shares.
struct Pass<'a> {
    model: &'a Model,
    /// The dense layers the pass runs: the model's, or their rounded copies.
    dense: &'a [Dense],
    /// Each dense layer's weights row-major, for the input gradients.
    rows: Vec<Vec<f32>>,
    batch: &'a SparseBatch,
    loss: LossSetting<'a>,
    /// Batch size (the loss is a batch mean).
    n: usize,
    /// Each sample's `dL/dv`, already a batch mean, when the loss couples
    /// samples (PQR triplets): computed from [`Self::values`] first.
    given: Option<&'a [f64]>,
}

impl Pass<'_> {
    /// The dense pass over the batch in parallel chunks of [`CHUNK`] samples,
    /// each chunk's gradients apart: the fused one when `fused` (masks and
    /// output gradients in `buffers`), else the general one (accumulators).
    fn chunks(
        &self,
        fused: bool,
        layout: single::MaskLayout,
        buffers: ChunkBuffers<'_>,
    ) -> Vec<ChunkGrad> {
        let (n, width) = (self.n, 2 * self.model.shape.half());
        if fused {
            buffers.masks.resize(layout.total_words(), 0);
            buffers.dys.resize(n, 0.0);
            buffers
                .masks
                .par_chunks_mut(layout.chunk_words())
                .zip(buffers.dys.par_chunks_mut(CHUNK))
                .enumerate()
                .map(|(c, (masks, dys))| self.single_chunk(c * CHUNK, masks, dys))
                .collect()
        } else {
            buffers.acc.resize(n * width, 0.0);
            buffers
                .acc
                .par_chunks_mut(CHUNK * width)
                .enumerate()
                .map(|(c, acc)| self.chunk(c * CHUNK, acc))
                .collect()
        }
    }

    /// Every sample's value (internal units) through the pass's dense layers,
    /// in parallel chunks.
    fn values(&self) -> Vec<f64> {
        let width = 2 * self.model.shape.half();
        (0..self.n)
            .collect::<Vec<_>>()
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut buf = SampleBuffers::new(self.model);
                let mut acc = vec![0.0f32; width];
                chunk
                    .iter()
                    .map(|&i| {
                        let (stm, nstm) = self.batch.rows(i);
                        let (us, them) = acc.split_at_mut(width / 2);
                        self.model.accumulate(stm, us);
                        self.model.accumulate(nstm, them);
                        self.forward(&acc, self.batch.bucket(i), &mut buf)
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Sample `i`'s output gradient `dL/dy` (`y` = `v` in float-output
    /// units) as a share of the batch mean, adding its figures to `figures`
    /// (given gradients: the figures were taken with them).
    #[inline(always)]
    fn output_grad(&self, i: usize, v: f64, figures: &mut Figures) -> f64 {
        if let Some(given) = self.given {
            return given[i] * f64::from(NET_TO_INTERNAL);
        }
        let (params, lambda) = (self.loss.params, self.loss.power_lambda);
        let target = self.batch.targets[i];
        let (_, dldv) = params.eval(v, target, lambda);
        figures.add(&Figures::of(params, v, target, lambda));
        dldv * f64::from(NET_TO_INTERNAL) / self.n as f64
    }

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
        let (model, batch) = (self.model, self.batch);
        let half = model.shape.half();
        let width = 2 * half;
        let mut grad = ChunkGrad {
            dense: self
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
                let bucket = batch.bucket(i);
                let v = self.forward(acc, bucket, buf);
                let dy = self.output_grad(i, v, &mut grad.figures);
                self.backward(acc, bucket, dy as f32, buf);
                acc.copy_from_slice(&buf.dx);
                add(&mut grad.ft_b, &acc[..half]);
                add(&mut grad.ft_b, &acc[half..]);
            }
            let used = &bufs[..group.len() / width];
            for (k, (layer, g)) in self.dense.iter().zip(&mut grad.dense).enumerate() {
                let xs: Vec<&[f32]> = used.iter().map(|b| b.inputs[k].as_slice()).collect();
                let dys: Vec<&[f32]> = used.iter().map(|b| b.grads[k].as_slice()).collect();
                layer.accumulate_grad_group(&xs, &dys, g);
            }
        }
        grad
    }

    /// Forward and backward of the samples `first..` of a net without hidden
    /// layers: their ClippedReLU masks into `masks`, their output gradients into
    /// `dys` ([`single`]). Compiled for AVX2 too (see [`Simd`]).
    fn single_chunk(&self, first: usize, masks: &mut [u64], dys: &mut [f32]) -> ChunkGrad {
        match Simd::detect() {
            // SAFETY: the CPU supports the instructions (checked at run time).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.single_chunk_avx512(first, masks, dys) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.single_chunk_avx2(first, masks, dys) },
            _ => self.single_chunk_generic(first, masks, dys),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn single_chunk_avx2(&self, first: usize, masks: &mut [u64], dys: &mut [f32]) -> ChunkGrad {
        self.single_chunk_generic(first, masks, dys)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn single_chunk_avx512(&self, first: usize, masks: &mut [u64], dys: &mut [f32]) -> ChunkGrad {
        self.single_chunk_generic(first, masks, dys)
    }

    /// The forward pass is one dot product of the clipped accumulators, the
    /// backward pass one fused pass ([`single::backward`]): the same
    /// operations in the same order as [`Self::chunk_generic`].
    #[inline(always)]
    fn single_chunk_generic(&self, first: usize, masks: &mut [u64], dys: &mut [f32]) -> ChunkGrad {
        let (model, batch, n) = (self.model, self.batch, self.n);
        let half = model.shape.half();
        let layer = &self.dense[0];
        let mut grad = ChunkGrad {
            dense: vec![Dense::zeros(layer.inputs, layer.outputs)],
            ft_b: vec![0.0; half],
            figures: Figures::default(),
        };
        let mut acc = vec![0.0f32; 2 * half];
        let mut mask = vec![0u8; 2 * half];
        let layout = mask_layout(half, n);
        for (j, dy_out) in dys.iter_mut().enumerate() {
            let i = first + j;
            let (stm, nstm) = batch.rows(i);
            let (us, them) = acc.split_at_mut(half);
            model.accumulate(stm, us);
            model.accumulate(nstm, them);
            let out = layer.b[0] + crelu_dot(&acc, &layer.wt);
            let v = f64::from(out) * f64::from(NET_TO_INTERNAL);
            let dy = self.output_grad(i, v, &mut grad.figures) as f32;
            let g = &mut grad.dense[0];
            single::backward(&acc, &layer.wt, dy, &mut g.wt, &mut grad.ft_b, &mut mask);
            layout.scatter(i, &mask, masks);
            g.b[0] += dy;
            *dy_out = dy;
        }
        grad
    }

    /// The dense layers from the accumulators `acc`; the value of output
    /// `bucket` in internal units.
    #[inline(always)]
    fn forward(&self, acc: &[f32], bucket: usize, buf: &mut SampleBuffers) -> f64 {
        let last = self.dense.len() - 1;
        let activation = self.model.shape.arch.activation;
        for (x, &a) in buf.inputs[0].iter_mut().zip(acc) {
            *x = activate(activation, a);
        }
        for (k, layer) in self.dense.iter().enumerate() {
            layer.forward(&buf.inputs[k], &mut buf.outputs[k]);
            if k < last {
                for (x, &h) in buf.inputs[k + 1].iter_mut().zip(&buf.outputs[k]) {
                    *x = crelu(h);
                }
            }
        }
        f64::from(buf.outputs[last][bucket]) * f64::from(NET_TO_INTERNAL)
    }

    /// Back through the dense layers from the output gradient `dy` of output
    /// `bucket` (the other outputs' gradients are 0): each
    /// layer's output gradient into `buf.grads` (the weight gradients are summed
    /// per group of samples afterwards), the accumulators' gradient into `buf.dx`.
    #[inline(always)]
    fn backward(&self, acc: &[f32], bucket: usize, dy: f32, buf: &mut SampleBuffers) {
        let last = self.dense.len() - 1;
        buf.grads[last].fill(0.0);
        buf.grads[last][bucket] = dy;
        for k in (0..=last).rev() {
            let layer = &self.dense[k];
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
                let activation = self.model.shape.arch.activation;
                if activation != Activation::ClippedRelu {
                    for (d, &a) in buf.dx.iter_mut().zip(acc) {
                        *d *= passing_slope(activation, a);
                    }
                }
            }
        }
    }
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
                    let value = model.forward(stm, nstm, batch.buckets[i], &mut trace);
                    f64::from(value) * f64::from(NET_TO_INTERNAL)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

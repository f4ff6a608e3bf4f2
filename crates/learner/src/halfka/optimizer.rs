//! The optimizer state of a [`HalfKaModel`] and one step: `--optimizer` (Adam by
//! default) applied to each tensor with the batch's mean gradient, transformer
//! rows only where the batch touched them. Weights are kept within the limits
//! that quantize without clamping (see [`super::quantize`]): hidden weights
//! ±127/64, output weights ±127²/9600, transformer values half the i16 range
//! over 127 (a real row plus its virtual row still fits).

use super::gradients::Gradients;
use super::model::HalfKaModel;
use super::stack::FloatStack;
use crate::model::Dense;
use crate::optim::{Optimizer, Slots, Step};

/// Transformer weights and biases: half of `i16::MAX / 127`.
const FT_LIMIT: f32 = 128.0;
/// Hidden weights: `127 / 64`.
const HIDDEN_LIMIT: f32 = 127.0 / 64.0;
/// Output weights: `127 · 127 / 9600`.
const OUTPUT_LIMIT: f32 = 127.0 * 127.0 / 9600.0;
/// Biases of the affine layers and PSQT weights: far inside i32 at their scales.
const WIDE_LIMIT: f32 = 10_000.0;

/// Slots of one dense layer: weights and biases.
#[derive(Clone, Debug)]
pub(super) struct DenseSlots {
    pub(super) wt: Slots,
    pub(super) b: Slots,
}

impl DenseSlots {
    fn new(d: &Dense, opt: &Optimizer) -> DenseSlots {
        DenseSlots {
            wt: opt.slots(d.wt.len()),
            b: opt.slots(d.b.len()),
        }
    }
}

/// The optimizer's per-weight state of the whole model.
#[derive(Clone, Debug)]
pub struct HalfKaSlots {
    pub(super) ft_w: Slots,
    pub(super) ft_b: Slots,
    pub(super) psqt: Slots,
    pub(super) stacks: Vec<[DenseSlots; 3]>,
    /// Updates so far (Adam's bias correction).
    pub(super) t: u64,
    /// Scratch: a scaled gradient.
    scaled: Vec<f32>,
}

/// Updates `w` with `scale · g` within `±limit`.
fn update(
    opt: &Optimizer,
    (w, g, s): (&mut [f32], &[f32], &mut Slots),
    range: std::ops::Range<usize>,
    scaled: &mut Vec<f32>,
    step: Step,
    scale: f32,
) {
    scaled.clear();
    scaled.extend(g[range.clone()].iter().map(|&x| x * scale));
    let (m, v) = (&mut s.m[range.clone()], &mut s.v[range.clone()]);
    opt.update(&mut w[range], scaled, m, v, step);
}

impl HalfKaSlots {
    /// Zero state for `model`.
    pub fn new(model: &HalfKaModel, opt: &Optimizer) -> HalfKaSlots {
        let dense = |s: &FloatStack| {
            [
                DenseSlots::new(&s.fc0, opt),
                DenseSlots::new(&s.fc1, opt),
                DenseSlots::new(&s.fc2, opt),
            ]
        };
        HalfKaSlots {
            ft_w: opt.slots(model.ft_w.len()),
            ft_b: opt.slots(model.ft_b.len()),
            psqt: opt.slots(model.psqt.len()),
            stacks: model.stacks.iter().map(dense).collect(),
            t: 0,
            scaled: Vec::new(),
        }
    }

    /// One update with learning rate `lr` and the batch's summed gradients
    /// `g` times `scale` (one over the batch size).
    pub fn step(
        &mut self,
        model: &mut HalfKaModel,
        g: &Gradients,
        lr: f32,
        scale: f32,
        opt: &Optimizer,
    ) {
        self.t += 1;
        let at = |limit| Step {
            lr,
            t: self.t,
            limit,
        };
        let (ft, wide) = (at(FT_LIMIT), at(WIDE_LIMIT));
        let w = model.width;
        let sc = &mut self.scaled;
        for &r in &g.touched {
            let rows = r as usize * w..(r as usize + 1) * w;
            let t = (&mut model.ft_w[..], &g.ft_w[..], &mut self.ft_w);
            update(opt, t, rows, sc, ft, scale);
        }
        let t = (&mut model.ft_b[..], &g.ft_b[..], &mut self.ft_b);
        update(opt, t, 0..w, sc, ft, scale);
        let n = model.psqt.len();
        let t = (&mut model.psqt[..], &g.psqt[..], &mut self.psqt);
        update(opt, t, 0..n, sc, wide, scale);
        let limits = [at(HIDDEN_LIMIT), at(HIDDEN_LIMIT), at(OUTPUT_LIMIT)];
        for ((s, gs), slots) in model.stacks.iter_mut().zip(&g.stacks).zip(&mut self.stacks) {
            let layers = [&mut s.fc0, &mut s.fc1, &mut s.fc2];
            let grads = [&gs.fc0, &gs.fc1, &gs.fc2];
            for ((d, gd), (sl, limit)) in layers
                .into_iter()
                .zip(grads)
                .zip(slots.iter_mut().zip(limits))
            {
                let n = d.wt.len();
                update(
                    opt,
                    (&mut d.wt[..], &gd.wt[..], &mut sl.wt),
                    0..n,
                    sc,
                    limit,
                    scale,
                );
                let n = d.b.len();
                update(
                    opt,
                    (&mut d.b[..], &gd.b[..], &mut sl.b),
                    0..n,
                    sc,
                    wide,
                    scale,
                );
            }
        }
    }
}

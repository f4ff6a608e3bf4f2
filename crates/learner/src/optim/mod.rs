//! Optimizers ([`OptimizerKind`]) applied one tensor slice at a time, so the
//! sparse transformer can update just the rows a batch touched, and the learning
//! rate schedule ([`schedule`]).

pub mod schedule;
pub mod slots;

pub use schedule::{LrSchedule, Schedule, ScheduleError, ScheduleState, Verdict};

use crate::model::kernels::Simd;

/// `--optimizer`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OptimizerKind {
    /// Plain stochastic gradient descent (with optional momentum).
    Sgd,
    /// AdaGrad: per-weight rates from the summed squared gradients.
    Adagrad,
    /// Adam; `--weight-decay` is added to the gradient (L2).
    Adam,
    /// Adam with decoupled weight decay.
    Adamw,
}

/// Optimizer settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimizer {
    pub kind: OptimizerKind,
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    pub weight_decay: f32,
    /// SGD momentum (0 = none).
    pub momentum: f32,
    /// Each gradient element is clipped to ±this (nodchip's `max_grad`).
    pub max_grad: f32,
}

impl Default for Optimizer {
    /// Adam with the usual betas and epsilon, no weight decay, gradients
    /// clipped to ±1: the trainer's defaults, which `bench` measures too.
    fn default() -> Optimizer {
        Optimizer {
            kind: OptimizerKind::Adam,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            momentum: 0.0,
            max_grad: 1.0,
        }
    }
}

/// Per-weight optimizer state of one tensor: `m` (momentum / first moment) and
/// `v` (squared gradients); unused ones stay zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slots {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

/// What one update needs besides the tensors.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    pub lr: f32,
    /// 1-based update count (Adam's bias correction).
    pub t: u64,
    /// Weights are kept within ±this so they quantize without clamping.
    pub limit: f32,
}

impl Optimizer {
    /// State for a tensor of `n` weights (both slots, whatever the optimizer, so
    /// every tensor splits into rows the same way).
    pub fn slots(&self, n: usize) -> Slots {
        Slots {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// Updates `w` with gradient `g`; `m` and `v` are the matching slices of the
    /// tensor's [`Slots`] (empty where unused).
    #[inline]
    pub fn update(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: Step) {
        let clip = self.max_grad;
        let lr = step.lr;
        match self.kind {
            OptimizerKind::Sgd => {
                let wd = self.weight_decay;
                if self.momentum == 0.0 {
                    for (w, &g) in w.iter_mut().zip(g) {
                        let g = g.clamp(-clip, clip) + wd * *w;
                        *w = (*w - lr * g).clamp(-step.limit, step.limit);
                    }
                } else {
                    for ((w, &g), m) in w.iter_mut().zip(g).zip(m.iter_mut()) {
                        let g = g.clamp(-clip, clip) + wd * *w;
                        *m = self.momentum * *m + g;
                        *w = (*w - lr * *m).clamp(-step.limit, step.limit);
                    }
                }
            }
            OptimizerKind::Adagrad => {
                for ((w, &g), v) in w.iter_mut().zip(g).zip(v.iter_mut()) {
                    let g = g.clamp(-clip, clip) + self.weight_decay * *w;
                    *v += g * g;
                    *w = (*w - lr * g / (v.sqrt() + self.eps)).clamp(-step.limit, step.limit);
                }
            }
            OptimizerKind::Adam | OptimizerKind::Adamw => self.adam(w, g, m, v, step),
        }
    }

    /// Adam over a slice, compiled for AVX2 and AVX-512 too (see [`Simd`]):
    /// the same operations per element (no fused multiply-adds), so every
    /// build gives the same bits.
    fn adam(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: Step) {
        match Simd::detect() {
            // SAFETY: the CPU supports the instructions (checked at run time).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => unsafe { self.adam_avx512(w, g, m, v, step) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { self.adam_avx2(w, g, m, v, step) },
            _ => self.adam_generic(w, g, m, v, step),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn adam_avx2(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: Step) {
        self.adam_generic(w, g, m, v, step);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn adam_avx512(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: Step) {
        self.adam_generic(w, g, m, v, step);
    }

    #[inline(always)]
    fn adam_generic(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], step: Step) {
        let t = step.t.min(i32::MAX as u64) as i32;
        let c1 = 1.0 / (1.0 - self.beta1.powi(t));
        let c2 = 1.0 / (1.0 - self.beta2.powi(t));
        let (b1, b2, clip) = (self.beta1, self.beta2, self.max_grad);
        let (l2, decoupled) = match self.kind {
            OptimizerKind::Adamw => (0.0, self.weight_decay),
            _ => (self.weight_decay, 0.0),
        };
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            let g = g.clamp(-clip, clip) + l2 * *w;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let delta = (*m * c1) / ((*v * c2).sqrt() + self.eps) + decoupled * *w;
            *w = (*w - step.lr * delta).clamp(-step.limit, step.limit);
        }
    }
}

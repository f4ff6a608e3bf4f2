//! One float layer stack of a HalfKAv2_hm net, the float form of what 15.1 computes
//! in integers (`nnue_core::nnue::halfka::stack`), as nnue-pytorch's model does:
//!
//! ```text
//! l1  = fc_0(x)                          width -> 16
//! h   = clamp([l1[0..15]² · 127/128, l1[0..15]], 0, 1)      30 values
//! l2  = clamp(fc_1(h), 0, 1)             30 -> 32
//! out = fc_2(l2) + l1[15]                32 -> 1, plus the skip output
//! ```
//!
//! `out` is in the net's output units (600 internal units each).

use nnue_core::nnue::halfka::shape::{L1, L2};

use crate::model::init::uniform_vec;
use crate::model::kernels::dot;
use crate::model::Dense;

/// `fc_0`'s outputs: `L1` fed on plus the skip output.
pub const FC0_OUT: usize = L1 + 1;
/// `fc_1`'s inputs: the squared then the clipped `fc_0` outputs.
pub const FC1_IN: usize = 2 * L1;
/// The integer net's square is `x² >> 19` of `fc_0`'s `127 · 64` units, which is
/// `127/128` of the float square (nnue-pytorch's factor).
const SQUARE_FACTOR: f32 = 127.0 / 128.0;

/// `fc_0`, `fc_1`, `fc_2` of one stack.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatStack {
    pub fc0: Dense,
    pub fc1: Dense,
    pub fc2: Dense,
}

/// One stack's intermediate values of a forward pass.
#[derive(Clone, Debug, Default)]
pub struct StackTrace {
    pub l1: [f32; FC0_OUT],
    pub h: [f32; FC1_IN],
    pub l2: [f32; L2],
    pub y2: [f32; L2],
}

/// `clamp(x, 0, 1)` and whether the gradient passes it.
fn clip(x: f32) -> (f32, bool) {
    (x.clamp(0.0, 1.0), x > 0.0 && x < 1.0)
}

/// A layer of `inputs -> outputs`, uniform in `±1/√inputs`, from stream `stream`.
fn dense(seed: u64, stream: u64, inputs: usize, outputs: usize) -> Dense {
    let scale = 1.0 / (inputs as f32).sqrt();
    Dense {
        inputs,
        outputs,
        wt: uniform_vec(seed, stream, inputs * outputs, scale),
        b: uniform_vec(seed, stream + 1, outputs, scale),
    }
}

impl FloatStack {
    /// A stack fed by `width` transformed values; the output bias starts at 0.
    pub fn new(seed: u64, width: usize) -> FloatStack {
        let mut fc2 = dense(seed, 14, L2, 1);
        fc2.b[0] = 0.0;
        FloatStack {
            fc0: dense(seed, 10, width, FC0_OUT),
            fc1: dense(seed, 12, FC1_IN, L2),
            fc2,
        }
    }

    /// Zero gradients of the same shape.
    pub fn zeros_like(&self) -> FloatStack {
        FloatStack {
            fc0: Dense::zeros(self.fc0.inputs, FC0_OUT),
            fc1: Dense::zeros(FC1_IN, L2),
            fc2: Dense::zeros(L2, 1),
        }
    }

    /// The output for transformed input `x`, every layer kept in `t`.
    pub fn forward(&self, x: &[f32], t: &mut StackTrace) -> f32 {
        self.fc0.forward(x, &mut t.l1);
        for i in 0..L1 {
            t.h[i] = clip(t.l1[i] * t.l1[i] * SQUARE_FACTOR).0;
            t.h[L1 + i] = clip(t.l1[i]).0;
        }
        self.fc1.forward(&t.h, &mut t.l2);
        for (y, &v) in t.y2.iter_mut().zip(&t.l2) {
            *y = clip(v).0;
        }
        let mut out = [0.0f32];
        self.fc2.forward(&t.y2, &mut out);
        out[0] + t.l1[L1]
    }

    /// Adds this sample's gradients for output gradient `dout` into `grad` and
    /// writes the input gradient into `dx` (`width` values).
    pub fn backward(
        &self,
        x: &[f32],
        t: &StackTrace,
        dout: f32,
        grad: &mut FloatStack,
        dx: &mut [f32],
    ) {
        self.fc2.accumulate_grad(&t.y2, &[dout], &mut grad.fc2);
        let mut dl2 = [0.0f32; L2];
        for (o, d) in dl2.iter_mut().enumerate() {
            *d = if clip(t.l2[o]).1 {
                self.fc2.wt[o] * dout
            } else {
                0.0
            };
        }
        self.fc1.accumulate_grad(&t.h, &dl2, &mut grad.fc1);
        let mut dl1 = [0.0f32; FC0_OUT];
        let dh = |k: usize| dot(&self.fc1.wt[k * L2..(k + 1) * L2], &dl2);
        for (i, (d, &l)) in dl1.iter_mut().zip(&t.l1).take(L1).enumerate() {
            *d = 0.0;
            if clip(l * l * SQUARE_FACTOR).1 {
                *d += dh(i) * 2.0 * l * SQUARE_FACTOR;
            }
            if clip(l).1 {
                *d += dh(L1 + i);
            }
        }
        dl1[L1] = dout;
        self.fc0.accumulate_grad(x, &dl1, &mut grad.fc0);
        for (i, d) in dx.iter_mut().enumerate() {
            *d = dot(&self.fc0.wt[i * FC0_OUT..(i + 1) * FC0_OUT], &dl1);
        }
    }
}

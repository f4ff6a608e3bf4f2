//! The gradients of a batch for [`HalfKaModel`]: dense tensors for the biases,
//! the PSQT weights and the stacks, and transformer rows kept sparse (only the
//! rows a batch touched are non-zero, listed in `touched`, so clearing and the
//! optimizer step cost what the batch used, not the 23,296 rows).

use nnue_core::nnue::halfka::shape::STACKS;

use super::model::{HalfKaModel, Trace, OUTPUT_TO_INTERNAL};
use super::stack::FloatStack;
use crate::model::kernels::add;

/// Summed gradients of one batch.
#[derive(Clone, Debug)]
pub struct Gradients {
    /// `rows × width`; only the rows in `touched` are non-zero.
    pub ft_w: Vec<f32>,
    /// The rows of `ft_w` this batch touched, each once.
    pub touched: Vec<u32>,
    is_touched: Vec<bool>,
    pub ft_b: Vec<f32>,
    /// `rows × STACKS`.
    pub psqt: Vec<f32>,
    pub stacks: Vec<FloatStack>,
    /// Scratch: the stack's input gradient and the accumulators' gradients.
    dx: Vec<f32>,
    dacc: Vec<f32>,
}

impl Gradients {
    /// Zero gradients for `model`.
    pub fn new(model: &HalfKaModel) -> Gradients {
        let rows = model.rows.rows();
        Gradients {
            ft_w: vec![0.0; rows * model.width],
            touched: Vec::new(),
            is_touched: vec![false; rows],
            ft_b: vec![0.0; model.width],
            psqt: vec![0.0; rows * STACKS],
            stacks: model.stacks.iter().map(FloatStack::zeros_like).collect(),
            dx: vec![0.0; model.width],
            dacc: vec![0.0; 2 * model.width],
        }
    }

    /// Back to zero for the next batch.
    pub fn clear(&mut self, width: usize) {
        for &r in &self.touched {
            self.ft_w[r as usize * width..(r as usize + 1) * width].fill(0.0);
            self.is_touched[r as usize] = false;
        }
        self.touched.clear();
        self.ft_b.fill(0.0);
        self.psqt.fill(0.0);
        for s in &mut self.stacks {
            for d in [&mut s.fc0, &mut s.fc1, &mut s.fc2] {
                d.clear();
            }
        }
    }

    /// Adds `g` to transformer row `row`.
    fn add_row(&mut self, row: u32, g: &[f32]) {
        let r = row as usize;
        if !self.is_touched[r] {
            self.is_touched[r] = true;
            self.touched.push(row);
        }
        add(&mut self.ft_w[r * g.len()..(r + 1) * g.len()], g);
    }

    /// Adds the gradients of one sample whose forward pass left `t`, for the
    /// loss gradient `dvalue` with respect to its value (internal units).
    pub fn accumulate(
        &mut self,
        model: &HalfKaModel,
        (us, them, stack): (&[u32], &[u32], usize),
        t: &Trace,
        dvalue: f32,
    ) {
        let dout = dvalue * OUTPUT_TO_INTERNAL;
        let (w, half) = (model.width, model.width / 2);
        let mut dx = std::mem::take(&mut self.dx);
        let mut dacc = std::mem::take(&mut self.dacc);
        model.stacks[stack].backward(&t.x, &t.stack, dout, &mut self.stacks[stack], &mut dx);
        for side in 0..2 {
            let acc = &t.acc[side * w..(side + 1) * w];
            let d = &mut dacc[side * w..(side + 1) * w];
            for j in 0..half {
                let g = dx[side * half + j] * (127.0 / 128.0);
                let (a, b) = (acc[j], acc[j + half]);
                let passes = |v: f32| v > 0.0 && v < 1.0;
                d[j] = if passes(a) {
                    g * b.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                d[j + half] = if passes(b) {
                    g * a.clamp(0.0, 1.0)
                } else {
                    0.0
                };
            }
        }
        let (d_us, d_them) = dacc.split_at(w);
        add(&mut self.ft_b, d_us);
        add(&mut self.ft_b, d_them);
        for &r in us {
            self.add_row(r, d_us);
            self.psqt[r as usize * STACKS + stack] += dout / 2.0;
        }
        for &r in them {
            self.add_row(r, d_them);
            self.psqt[r as usize * STACKS + stack] -= dout / 2.0;
        }
        self.dx = dx;
        self.dacc = dacc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halfka::Sample;
    use nnue_test_support::position;
    use shakmaty::Position;

    /// Rows and stack of `fen`, side to move first.
    fn sample(model: &HalfKaModel, fen: &str) -> (Vec<u32>, Vec<u32>, usize) {
        let pos = position(fen);
        let s = Sample::of(model.rows, pos.board(), pos.turn());
        (s.us, s.them, s.stack)
    }

    /// The parameter a finite-difference probe named `name` moves.
    fn probed<'a>(
        model: &'a mut HalfKaModel,
        name: &str,
        (row, virt, stack): (usize, usize, usize),
    ) -> &'a mut f32 {
        match name {
            "ft_w" => &mut model.ft_w[row * 64 + 5],
            "ft_v" => &mut model.ft_w[virt * 64 + 40],
            "ft_b" => &mut model.ft_b[7],
            "psqt" => &mut model.psqt[row * STACKS + stack],
            "fc0" => &mut model.stacks[stack].fc0.wt[9 * 16 + 2],
            "fc1" => &mut model.stacks[stack].fc1.wt[20 * 32 + 4],
            _ => &mut model.stacks[stack].fc2.b[0],
        }
    }

    /// Every tensor's analytic gradient of the value (internal units) equals a
    /// central difference within 2% and f32's rounding of values in the
    /// hundreds (the clamps are not near the probed values at this seed).
    #[test]
    fn gradients_match_finite_differences() {
        let mut model = HalfKaModel::new(64, true, 3);
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8";
        let (us, them, stack) = sample(&model, fen);
        let mut t = model.trace();
        model.forward(&us, &them, stack, &mut t);
        let mut g = Gradients::new(&model);
        g.accumulate(&model, (&us, &them, stack), &t, 1.0);
        let (row, virt) = (us[3] as usize, us[us.len() - 1] as usize);
        let probes: Vec<(&str, f32)> = vec![
            ("ft_w", g.ft_w[row * 64 + 5]),
            ("ft_v", g.ft_w[virt * 64 + 40]),
            ("ft_b", g.ft_b[7]),
            ("psqt", g.psqt[row * STACKS + stack]),
            ("fc0", g.stacks[stack].fc0.wt[9 * 16 + 2]),
            ("fc1", g.stacks[stack].fc1.wt[20 * 32 + 4]),
            ("fc2", g.stacks[stack].fc2.b[0]),
        ];
        for (name, analytic) in probes {
            let eps = 1e-2f32;
            let mut value_at = |delta: f32| {
                let p = probed(&mut model, name, (row, virt, stack));
                let old = *p;
                *p = old + delta;
                let v = model.forward(&us, &them, stack, &mut t);
                *probed(&mut model, name, (row, virt, stack)) = old;
                f64::from(v)
            };
            let numeric = (value_at(eps) - value_at(-eps)) / (2.0 * f64::from(eps));
            let a = f64::from(analytic);
            assert!(
                (numeric - a).abs() <= 0.02 * a.abs() + 0.05,
                "{name}: analytic {a}, numeric {numeric}"
            );
        }
    }
}

//! A dense affine layer of the float model, weights stored input-major
//! (`wt[i * outputs + o]`), so the forward pass adds one contiguous row per
//! non-zero input (ClippedReLU leaves many zeros) and the weight gradient is the
//! same loop.

use super::kernels::{axpy, dot, BLOCK};

/// Most samples [`Dense::accumulate_grad_group`] takes at once.
pub const GROUP: usize = 8;

/// Weights and biases of one affine layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    /// `inputs * outputs`, input-major.
    pub wt: Vec<f32>,
    pub b: Vec<f32>,
}

impl Dense {
    /// A zero layer.
    pub fn zeros(inputs: usize, outputs: usize) -> Dense {
        Dense {
            inputs,
            outputs,
            wt: vec![0.0; inputs * outputs],
            b: vec![0.0; outputs],
        }
    }

    /// `out = b + Wᵀx`.
    #[inline(always)]
    pub fn forward(&self, x: &[f32], out: &mut [f32]) {
        if self.outputs == 1 {
            out[0] = self.b[0] + dot(x, &self.wt);
            return;
        }
        match self.outputs {
            8 => self.forward_fixed::<8>(x, out),
            16 => self.forward_fixed::<16>(x, out),
            32 => self.forward_fixed::<32>(x, out),
            64 => self.forward_fixed::<64>(x, out),
            _ => {
                out.copy_from_slice(&self.b);
                for (i, &xi) in x.iter().enumerate() {
                    if xi != 0.0 {
                        axpy(out, xi, &self.wt[i * self.outputs..(i + 1) * self.outputs]);
                    }
                }
            }
        }
    }

    /// [`Self::forward`] for `N` outputs known at compile time: the sums stay in
    /// registers instead of going through memory once per input. Same order of
    /// additions as the general loop, so the same result.
    #[inline(always)]
    fn forward_fixed<const N: usize>(&self, x: &[f32], out: &mut [f32]) {
        let mut sums = [0.0f32; N];
        sums.copy_from_slice(&self.b[..N]);
        for (xi, row) in x.iter().zip(self.wt.chunks_exact(N)) {
            if *xi != 0.0 {
                for (s, &w) in sums.iter_mut().zip(row) {
                    *s += xi * w;
                }
            }
        }
        out[..N].copy_from_slice(&sums);
    }

    /// Accumulates this sample's weight and bias gradients into `grad` for the
    /// output gradient `dy` and input `x`.
    #[inline(always)]
    pub fn accumulate_grad(&self, x: &[f32], dy: &[f32], grad: &mut Dense) {
        if self.outputs == 1 {
            axpy(&mut grad.wt, dy[0], x);
            grad.b[0] += dy[0];
            return;
        }
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                axpy(
                    &mut grad.wt[i * self.outputs..(i + 1) * self.outputs],
                    xi,
                    dy,
                );
            }
        }
        super::kernels::add(&mut grad.b, dy);
    }

    /// Accumulates the gradients of a group of at most [`GROUP`] samples (inputs
    /// `xs[s]`, output gradients `dys[s]`): the same additions, in the same order
    /// per weight, as [`Self::accumulate_grad`] sample after sample, but each
    /// gradient row stays in registers across the group instead of going through
    /// memory once per sample.
    #[inline(always)]
    pub fn accumulate_grad_group(&self, xs: &[&[f32]], dys: &[&[f32]], grad: &mut Dense) {
        match self.outputs {
            8 => self.accumulate_fixed::<8>(xs, dys, grad),
            16 => self.accumulate_fixed::<16>(xs, dys, grad),
            32 => self.accumulate_fixed::<32>(xs, dys, grad),
            64 => self.accumulate_fixed::<64>(xs, dys, grad),
            _ => {
                for (x, dy) in xs.iter().zip(dys) {
                    self.accumulate_grad(x, dy, grad);
                }
            }
        }
    }

    #[inline(always)]
    fn accumulate_fixed<const N: usize>(&self, xs: &[&[f32]], dys: &[&[f32]], grad: &mut Dense) {
        let count = xs.len().min(GROUP);
        let mut d = [[0.0f32; N]; GROUP];
        for (row, dy) in d.iter_mut().zip(dys) {
            row.copy_from_slice(&dy[..N]);
        }
        // Two rows at a time: their sums are independent chains of additions,
        // so one row's wait for the previous addition overlaps the other's.
        let mut pairs = grad.wt.chunks_exact_mut(2 * N);
        for (p, rows) in (&mut pairs).enumerate() {
            let (i, j) = (2 * p, 2 * p + 1);
            let mut a: [f32; N] = *first_n(&rows[..N]);
            let mut b: [f32; N] = *first_n(&rows[N..]);
            for (x, dy) in xs[..count].iter().zip(&d) {
                let (xi, xj) = (x[i], x[j]);
                if xi != 0.0 {
                    for (s, &g) in a.iter_mut().zip(dy) {
                        *s += xi * g;
                    }
                }
                if xj != 0.0 {
                    for (s, &g) in b.iter_mut().zip(dy) {
                        *s += xj * g;
                    }
                }
            }
            rows[..N].copy_from_slice(&a);
            rows[N..].copy_from_slice(&b);
        }
        let last = pairs.into_remainder();
        if !last.is_empty() {
            let i = self.inputs - 1;
            let mut sums: [f32; N] = *first_n(last);
            for (x, dy) in xs[..count].iter().zip(&d) {
                let xi = x[i];
                if xi != 0.0 {
                    for (s, &g) in sums.iter_mut().zip(dy) {
                        *s += xi * g;
                    }
                }
            }
            last.copy_from_slice(&sums);
        }
        for dy in &dys[..count] {
            super::kernels::add(&mut grad.b, dy);
        }
    }

    /// The input gradient `dx[i] = Σ_o W[o][i] dy[o]` where `passes(i)` (elsewhere
    /// ClippedReLU blocks it and 0 is written). `rows` is [`Self::weights_row_major`],
    /// so the sum is one contiguous row per non-zero `dy[o]` — and behind a
    /// ClippedReLU many are zero. [`BLOCK`] inputs at a time are summed in
    /// registers (the same additions, in the same order over `o`, as adding row
    /// after row into `dx`), and the blocked ones are written with a select, not
    /// a masked store.
    #[inline(always)]
    pub fn input_grad(
        &self,
        rows: &[f32],
        dy: &[f32],
        dx: &mut [f32],
        passes: impl Fn(usize) -> bool,
    ) {
        let n = self.inputs;
        let blocked = n - n % BLOCK;
        for start in (0..blocked).step_by(BLOCK) {
            let mut sums = [0.0f32; BLOCK];
            for (o, &d) in dy.iter().enumerate() {
                if d != 0.0 {
                    let from = o * n + start;
                    axpy(&mut sums, d, &rows[from..from + BLOCK]);
                }
            }
            for (k, (x, &s)) in dx[start..start + BLOCK].iter_mut().zip(&sums).enumerate() {
                *x = if passes(start + k) { s } else { 0.0 };
            }
        }
        if blocked < n {
            let tail = &mut dx[blocked..n];
            tail.fill(0.0);
            for (o, &d) in dy.iter().enumerate() {
                if d != 0.0 {
                    axpy(tail, d, &rows[o * n + blocked..(o + 1) * n]);
                }
            }
            for (k, x) in tail.iter_mut().enumerate() {
                if !passes(blocked + k) {
                    *x = 0.0;
                }
            }
        }
    }

    /// Weights row-major `[outputs][inputs]`, the file's order.
    pub fn weights_row_major(&self) -> Vec<f32> {
        let mut w = vec![0.0; self.inputs * self.outputs];
        for i in 0..self.inputs {
            for o in 0..self.outputs {
                w[o * self.inputs + i] = self.wt[i * self.outputs + o];
            }
        }
        w
    }

    /// Sets every parameter to 0 (gradient buffers are reused).
    pub fn clear(&mut self) {
        self.wt.fill(0.0);
        self.b.fill(0.0);
    }

    /// `self += other` (same shape), in a fixed order.
    pub fn add_assign(&mut self, other: &Dense) {
        super::kernels::add(&mut self.wt, &other.wt);
        super::kernels::add(&mut self.b, &other.b);
    }
}

/// The first `N` elements of `v` as an array.
#[inline(always)]
fn first_n<const N: usize>(v: &[f32]) -> &[f32; N] {
    v[..N]
        .try_into()
        .unwrap_or_else(|_| unreachable!("at least N elements"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values with ClippedReLU's zeros (`clip`) and fractions that make the
    /// order of additions visible.
    fn values(n: usize, seed: u32, clip: bool) -> Vec<f32> {
        (0..n)
            .map(|i| {
                let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8;
                let v = (x % 20_000) as f32 / 7_919.0 - 1.1;
                if clip {
                    v.max(0.0)
                } else {
                    v
                }
            })
            .collect()
    }

    #[test]
    fn group_gradient_matches_sample_after_sample() {
        for (inputs, outputs) in [(64, 32), (33, 32), (17, 8), (9, 3)] {
            let layer = Dense::zeros(inputs, outputs);
            for samples in [1, 5, GROUP] {
                let xs: Vec<Vec<f32>> = (0..samples)
                    .map(|s| values(inputs, 10 + s as u32, true))
                    .collect();
                let dys: Vec<Vec<f32>> = (0..samples)
                    .map(|s| values(outputs, 40 + s as u32, false))
                    .collect();
                let mut expected = Dense::zeros(inputs, outputs);
                expected.wt = values(inputs * outputs, 3, false);
                let mut got = expected.clone();
                for (x, dy) in xs.iter().zip(&dys) {
                    layer.accumulate_grad(x, dy, &mut expected);
                }
                let xs: Vec<&[f32]> = xs.iter().map(Vec::as_slice).collect();
                let dys: Vec<&[f32]> = dys.iter().map(Vec::as_slice).collect();
                layer.accumulate_grad_group(&xs, &dys, &mut got);
                let bits = |d: &Dense| -> Vec<u32> {
                    d.wt.iter().chain(&d.b).map(|x| x.to_bits()).collect()
                };
                assert_eq!(bits(&got), bits(&expected), "{inputs}x{outputs}, {samples}");
            }
        }
    }
}

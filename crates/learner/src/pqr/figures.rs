//! A batch of triplets' loss, gradients and report figures from its values.
//! The report's cross entropies are measured on `p` alone, the game position
//! whose score and result come from the data (`r` has neither), and its loss
//! column is the PQR loss of the triplet: every figure is a mean per triplet.

use crate::loss::{Figures, LossParams, Target};

use super::loss::pqr_loss;
use super::TRIPLET_LEN;

/// Summed figures of the triplets of `values` (p, q, r in turn, internal
/// units) and each value's `dL/dv` divided by the triplet count (the loss is
/// a mean over triplets).
pub fn triplet_figures(
    params: &LossParams,
    values: &[f64],
    targets: &[Target],
) -> (Figures, Vec<f64>) {
    let triplets = values.len() / TRIPLET_LEN;
    let mut sum = Figures::default();
    let mut grads = vec![0.0; values.len()];
    for (t, v) in values.chunks_exact(TRIPLET_LEN).enumerate() {
        let at = t * TRIPLET_LEN;
        let l = pqr_loss(v[0], v[1], v[2], params.coefficient);
        for (g, dl) in grads[at..at + TRIPLET_LEN].iter_mut().zip(l.grads) {
            *g = dl / triplets as f64;
        }
        let mut f = Figures::of(params, v[0], targets[at], 0.0);
        f.loss = l.loss;
        sum.add(&f);
    }
    (sum, grads)
}

//! The PQR loss: the negative log likelihood of three inequalities between
//! the net's values `f` (side to move's view, internal units):
//!
//! - `f(r) > f(q)`: the random move is worse for the player at `p`, so better
//!   for the opponent, who is to move at both `q` and `r`;
//! - `f(p) > −f(q)` and `f(p) < −f(q)`: together they pull `f(p) = −f(q)`
//!   (zero sum: the move played keeps the value, seen from the other side).
//!
//! Each probability is a sigmoid of a difference of values scaled as the WDL
//! model scales them, `x·a/b` with `a/b` = the winning probability coefficient
//! `c` of the other losses (`LossParams::coefficient`, 1/361 by default,
//! [`crate::loss::DEFAULT_COEFFICIENT`]):
//!
//! `L = −ln σ(c(f(r) − f(q))) − ln σ(c(f(p) + f(q))) − ln σ(−c(f(p) + f(q)))`.
//!
//! The thesis prints the first term as `−ln σ(q − r)`, the opposite of the
//! inequality it states; the sign here follows the inequality (a test trains
//! on a game and checks `f(q) < f(r)`). The last two terms are at least
//! `2 ln 2` together, reached at `f(p) = −f(q)`, so the loss never falls below
//! `2 ln 2 ≈ 1.386`.

/// A triplet's loss and its gradients with respect to `f(p)`, `f(q)`, `f(r)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PqrLoss {
    pub loss: f64,
    /// `[dL/df(p), dL/df(q), dL/df(r)]`.
    pub grads: [f64; 3],
}

/// `−ln σ(x)`, computed without overflow for large `|x|`.
fn neg_log_sigmoid(x: f64) -> f64 {
    (-x).max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The loss of values `p`, `q`, `r` (internal units) with coefficient `c`.
pub fn pqr_loss(p: f64, q: f64, r: f64, c: f64) -> PqrLoss {
    let rank = c * (r - q);
    let sum = c * (p + q);
    let loss = neg_log_sigmoid(rank) + neg_log_sigmoid(sum) + neg_log_sigmoid(-sum);
    // d/dx −ln σ(x) = σ(x) − 1; the two zero-sum terms give 2σ(s) − 1.
    let d_rank = crate::loss::sigmoid(rank) - 1.0;
    let d_sum = 2.0 * crate::loss::sigmoid(sum) - 1.0;
    PqrLoss {
        loss,
        grads: [c * d_sum, c * (d_sum - d_rank), c * d_rank],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: f64 = 1.0 / 361.0;

    #[test]
    fn gradients_match_finite_differences() {
        let at = [120.0, -80.0, 40.0];
        let exact = pqr_loss(at[0], at[1], at[2], C);
        for k in 0..3 {
            let h = 1e-3;
            let (mut up, mut down) = (at, at);
            up[k] += h;
            down[k] -= h;
            let numeric = (pqr_loss(up[0], up[1], up[2], C).loss
                - pqr_loss(down[0], down[1], down[2], C).loss)
                / (2.0 * h);
            assert!((numeric - exact.grads[k]).abs() < 1e-9, "value {k}");
        }
    }

    #[test]
    fn ranking_r_above_q_lowers_the_loss() {
        let good = pqr_loss(0.0, 0.0, 300.0, C).loss;
        let bad = pqr_loss(0.0, 0.0, -300.0, C).loss;
        assert!(good < bad);
        // Descending the gradient moves q down and r up.
        let g = pqr_loss(0.0, 0.0, 0.0, C).grads;
        assert!(g[1] > 0.0 && g[2] < 0.0);
    }

    #[test]
    fn the_zero_sum_terms_are_smallest_at_p_equal_minus_q() {
        let floor = 2.0 * std::f64::consts::LN_2;
        let at = pqr_loss(50.0, -50.0, 1e6, C).loss;
        assert!((at - floor).abs() < 1e-9);
        assert!(pqr_loss(60.0, -50.0, 1e6, C).loss > at);
        assert!(pqr_loss(1e5, 1e5, -1e5, C).loss.is_finite());
    }
}

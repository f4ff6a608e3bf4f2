//! Training losses. Each takes the net's value `v` and the record's `score` (both
//! internal units, side to move's view) and game result `t ∈ {0, ½, 1}`, and
//! returns the loss and `dL/dv`. Computed in f64: a batch mean of tiny gradients
//! in f32 would lose digits, and finite-difference tests need the precision.
//!
//! Notation (nodchip's learner): `wp(v) = σ(c·v)` with `c` the winning
//! probability coefficient (1/361 by default; nodchip used ln 10 / 832 ≈ 1/361.3),
//! `q = wp(v)`, `p = wp(score)`, `m = λp + (1 − λ)t`.

/// Which loss `--loss` selects.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LossKind {
    /// Cross entropy of `m` and `q` (nodchip's default, "ELMO").
    Elmo,
    /// Cross entropy of `p` and `q`.
    CrossEntropy,
    /// Squared difference of `p` and `q`.
    WinningPercentage,
    /// Squared difference of the values, in float-output units:
    /// `((v − score) / 600)²` (CROSS_ENTROPY_FOR_VALUE's MSE).
    MseValue,
    /// nnue-pytorch: `|pt − qf|^pow` with win/loss-symmetric sigmoids, offsets and
    /// scalings, and lambda moving from `start` to `end` over the run.
    Power,
    /// The thesis: `|σ(v/361) − σ(score/410)|^2.6`.
    Thesis,
    /// The thesis' PQR loss on triplets of game positions ([`crate::pqr`]);
    /// it needs no score or result. Per position it is zero: the training
    /// step and validation take it triplet by triplet.
    Pqr,
}

/// Parameters of the losses.
#[derive(Clone, Debug, PartialEq)]
pub struct LossParams {
    pub kind: LossKind,
    /// Winning probability coefficient `c`.
    pub coefficient: f64,
    /// λ for `|score| ≤ lambda_limit`.
    pub lambda: f64,
    /// λ above the limit.
    pub lambda2: f64,
    pub lambda_limit: f64,
    /// nnue-pytorch's power-form constants.
    pub power: PowerParams,
}

/// nnue-pytorch's loss constants (its defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct PowerParams {
    pub in_offset: f64,
    pub out_offset: f64,
    pub in_scaling: f64,
    pub out_scaling: f64,
    pub exponent: f64,
}

impl Default for PowerParams {
    fn default() -> PowerParams {
        PowerParams {
            in_offset: 270.0,
            out_offset: 270.0,
            in_scaling: 340.0,
            out_scaling: 380.0,
            exponent: 2.5,
        }
    }
}

/// Thesis loss: output scale, target scale, exponent.
pub const THESIS_OUT_SCALE: f64 = 361.0;
pub const THESIS_TARGET_SCALE: f64 = 410.0;
pub const THESIS_EXPONENT: f64 = 2.6;

/// Default winning probability coefficient.
pub const DEFAULT_COEFFICIENT: f64 = 1.0 / 361.0;

/// Default `lambda_limit`: scores up to it use `lambda` (with λ = λ2 the limit
/// has no effect).
pub const DEFAULT_LAMBDA_LIMIT: f64 = 32000.0;

/// The command line's loss: Elmo with λ = 1 (pure score), the default
/// coefficient, and nnue-pytorch's power constants; `nnue-learn train` without
/// loss options, its `bench`, and the tests that train briefly all use it.
impl Default for LossParams {
    fn default() -> LossParams {
        LossParams {
            kind: LossKind::Elmo,
            coefficient: DEFAULT_COEFFICIENT,
            lambda: 1.0,
            lambda2: 1.0,
            lambda_limit: DEFAULT_LAMBDA_LIMIT,
            power: PowerParams::default(),
        }
    }
}

/// One training target.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Target {
    /// Search score, internal units, side to move's view.
    pub score: f32,
    /// Game result from the side to move's view: 0 loss, ½ draw, 1 win.
    pub result: f32,
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Smallest probability used inside a logarithm.
const EPS: f64 = 1e-12;

/// Cross entropy `−(a ln b + (1 − a) ln(1 − b))`.
pub fn cross_entropy(a: f64, b: f64) -> f64 {
    let b = b.clamp(EPS, 1.0 - EPS);
    -(a * b.ln() + (1.0 - a) * (1.0 - b).ln())
}

/// `|d|^e` and its derivative with respect to `d`.
fn power(d: f64, e: f64) -> (f64, f64) {
    let a = d.abs();
    (a.powf(e), e * a.powf(e - 1.0) * d.signum())
}

impl LossParams {
    /// λ for a record with this score (nodchip's `lambda_limit` rule).
    pub fn lambda_for(&self, score: f64) -> f64 {
        if score.abs() <= self.lambda_limit {
            self.lambda
        } else {
            self.lambda2
        }
    }

    /// `(loss, dL/dv)` for value `v`. `lambda` is the run's current λ for the
    /// power form (it moves from start to end); the other losses use
    /// [`Self::lambda_for`].
    pub fn eval(&self, v: f64, target: Target, power_lambda: f64) -> (f64, f64) {
        let score = f64::from(target.score);
        let t = f64::from(target.result);
        let c = self.coefficient;
        match self.kind {
            LossKind::Elmo | LossKind::CrossEntropy => {
                let q = sigmoid(c * v);
                let p = sigmoid(c * score);
                let m = if self.kind == LossKind::Elmo {
                    let l = self.lambda_for(score);
                    l * p + (1.0 - l) * t
                } else {
                    p
                };
                (cross_entropy(m, q), c * (q - m))
            }
            LossKind::WinningPercentage => {
                let q = sigmoid(c * v);
                let p = sigmoid(c * score);
                ((q - p).powi(2), 2.0 * (q - p) * q * (1.0 - q) * c)
            }
            LossKind::MseValue => {
                let s = f64::from(crate::model::NET_TO_INTERNAL);
                let d = (v - score) / s;
                (d * d, 2.0 * d / s)
            }
            LossKind::Power => self.power_loss(v, score, t, power_lambda),
            LossKind::Thesis => {
                let q = sigmoid(v / THESIS_OUT_SCALE);
                let p = sigmoid(score / THESIS_TARGET_SCALE);
                let (l, dl) = power(q - p, THESIS_EXPONENT);
                (l, dl * q * (1.0 - q) / THESIS_OUT_SCALE)
            }
            LossKind::Pqr => (0.0, 0.0),
        }
    }

    /// nnue-pytorch's loss: expected score `½(1 + σ(win) − σ(loss))` of net and
    /// teacher, the teacher mixed with the result by λ, distance to the power 2.5.
    fn power_loss(&self, v: f64, score: f64, t: f64, lambda: f64) -> (f64, f64) {
        let k = &self.power;
        let qw = sigmoid((v - k.in_offset) / k.in_scaling);
        let ql = sigmoid((-v - k.in_offset) / k.in_scaling);
        let qf = 0.5 * (1.0 + qw - ql);
        let pw = sigmoid((score - k.out_offset) / k.out_scaling);
        let pl = sigmoid((-score - k.out_offset) / k.out_scaling);
        let pf = 0.5 * (1.0 + pw - pl);
        let pt = lambda * pf + (1.0 - lambda) * t;
        let (l, dl) = power(qf - pt, k.exponent);
        let dqf = 0.5 * (qw * (1.0 - qw) + ql * (1.0 - ql)) / k.in_scaling;
        (l, dl * dqf)
    }
}

/// nodchip's report figures for one position (what its learner prints as
/// `cross_entropy_eval`, `cross_entropy_win`, `cross_entropy` and the entropies).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Figures {
    pub cross_entropy_eval: f64,
    pub cross_entropy_win: f64,
    pub cross_entropy: f64,
    pub entropy_eval: f64,
    pub entropy_win: f64,
    pub entropy: f64,
    /// The selected training loss.
    pub loss: f64,
}

impl Figures {
    /// The figures of one position with value `v`.
    pub fn of(params: &LossParams, v: f64, target: Target, power_lambda: f64) -> Figures {
        let c = params.coefficient;
        let score = f64::from(target.score);
        let t = f64::from(target.result);
        let q = sigmoid(c * v);
        let p = sigmoid(c * score);
        let l = params.lambda_for(score);
        let m = l * p + (1.0 - l) * t;
        Figures {
            cross_entropy_eval: cross_entropy(p, q),
            cross_entropy_win: cross_entropy(t, q),
            cross_entropy: cross_entropy(m, q),
            entropy_eval: cross_entropy(p, p),
            entropy_win: cross_entropy(t, t),
            entropy: cross_entropy(m, m),
            loss: params.eval(v, target, power_lambda).0,
        }
    }

    /// Sum of two sets of figures (averaged later with [`Self::scaled`]).
    pub fn add(&mut self, other: &Figures) {
        self.cross_entropy_eval += other.cross_entropy_eval;
        self.cross_entropy_win += other.cross_entropy_win;
        self.cross_entropy += other.cross_entropy;
        self.entropy_eval += other.entropy_eval;
        self.entropy_win += other.entropy_win;
        self.entropy += other.entropy;
        self.loss += other.loss;
    }

    /// The figures in a fixed order (checkpoints).
    pub fn to_values(&self) -> [f64; 7] {
        [
            self.cross_entropy_eval,
            self.cross_entropy_win,
            self.cross_entropy,
            self.entropy_eval,
            self.entropy_win,
            self.entropy,
            self.loss,
        ]
    }

    /// Inverse of [`Self::to_values`].
    pub fn from_values(v: [f64; 7]) -> Figures {
        Figures {
            cross_entropy_eval: v[0],
            cross_entropy_win: v[1],
            cross_entropy: v[2],
            entropy_eval: v[3],
            entropy_win: v[4],
            entropy: v[5],
            loss: v[6],
        }
    }

    /// Every figure times `k`.
    pub fn scaled(&self, k: f64) -> Figures {
        Figures {
            cross_entropy_eval: self.cross_entropy_eval * k,
            cross_entropy_win: self.cross_entropy_win * k,
            cross_entropy: self.cross_entropy * k,
            entropy_eval: self.entropy_eval * k,
            entropy_win: self.entropy_win * k,
            entropy: self.entropy * k,
            loss: self.loss * k,
        }
    }
}

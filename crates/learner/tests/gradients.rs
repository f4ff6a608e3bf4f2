//! Gradient checks: every loss's dL/dv and every layer's gradient (transformer
//! rows and biases, hidden and output layers, the factoriser's virtual rows,
//! SCReLU transformers and material output buckets) against central finite
//! differences of an independent f64 forward pass.
//!
//! The trainer's gradient is read back through one plain SGD step with rate 1
//! (`w_new = w − g`), so the real training path — chunked backward, rows grouped
//! by feature, sparse update — is what is checked.

mod common;

use nnue_core::nnue::Activation;
use nnue_learner::data::SparseBatch;
use nnue_learner::loss::{LossKind, LossParams, PowerParams, Target, DEFAULT_COEFFICIENT};
use nnue_learner::model::{Model, ModelShape, NET_TO_INTERNAL};
use nnue_learner::optim::{Optimizer, OptimizerKind, Step};
use nnue_learner::train::slots::ModelSlots;
use nnue_learner::train::step::{train_step, LossSetting, Workspace};

const KINDS: [LossKind; 6] = [
    LossKind::Elmo,
    LossKind::CrossEntropy,
    LossKind::WinningPercentage,
    LossKind::MseValue,
    LossKind::Power,
    LossKind::Thesis,
];

fn params(kind: LossKind) -> LossParams {
    LossParams {
        kind,
        coefficient: DEFAULT_COEFFICIENT,
        lambda: 0.7,
        lambda2: 0.4,
        lambda_limit: 500.0,
        power: PowerParams::default(),
    }
}

#[test]
fn every_loss_derivative_matches_finite_differences() {
    for kind in KINDS {
        let p = params(kind);
        for (v, score, result) in [
            (35.0, 120.0, 1.0),
            (-410.0, -90.0, 0.0),
            (800.0, 900.0, 0.5),
            (3.0, -2000.0, 0.0),
            (-1200.0, 640.0, 1.0),
        ] {
            let t = Target { score, result };
            let (_, analytic) = p.eval(v, t, 0.8);
            let h = 1e-4;
            let numeric = (p.eval(v + h, t, 0.8).0 - p.eval(v - h, t, 0.8).0) / (2.0 * h);
            let err = (analytic - numeric).abs();
            assert!(
                err <= 1e-6 * numeric.abs().max(1e-4),
                "{kind:?} at v={v}, score={score}: analytic {analytic}, numeric {numeric}"
            );
        }
    }
}

#[test]
fn elmo_is_cross_entropy_of_the_mixed_target() {
    // nodchip: with λ = 1 ELMO is the cross entropy with the teacher, and its
    // gradient vanishes when the net's value equals the score.
    let mut p = params(LossKind::Elmo);
    p.lambda = 1.0;
    let t = Target {
        score: 250.0,
        result: 0.0,
    };
    let (loss, grad) = p.eval(250.0, t, 1.0);
    let q: f64 = 1.0 / (1.0 + (-250.0f64 / 361.0).exp());
    let entropy = -(q * q.ln() + (1.0 - q) * (1.0 - q).ln());
    assert!((loss - entropy).abs() < 1e-12);
    assert!(grad.abs() < 1e-15);
}

/// Independent f64 forward: the loss mean over `batch`.
fn reference_loss(model: &Model, batch: &SparseBatch, p: &LossParams) -> f64 {
    let half = model.shape.half();
    let squared = model.shape.arch.activation == Activation::SquaredClippedRelu;
    let mut total = 0.0;
    for i in 0..batch.len() {
        let (stm, nstm) = batch.rows(i);
        let mut x: Vec<f64> = Vec::with_capacity(2 * half);
        for rows in [stm, nstm] {
            for k in 0..half {
                let mut a = f64::from(model.ft_b[k]);
                for &r in rows {
                    a += f64::from(model.ft_w[r as usize * half + k]);
                }
                let clipped = a.clamp(0.0, 1.0);
                x.push(if squared { clipped * clipped } else { clipped });
            }
        }
        let last = model.dense.len() - 1;
        for (l, d) in model.dense.iter().enumerate() {
            let mut y: Vec<f64> = d.b.iter().map(|&b| f64::from(b)).collect();
            for (i, &xi) in x.iter().enumerate() {
                for (o, yo) in y.iter_mut().enumerate() {
                    *yo += xi * f64::from(d.wt[i * d.outputs + o]);
                }
            }
            x = if l < last {
                y.iter().map(|v| v.clamp(0.0, 1.0)).collect()
            } else {
                y
            };
        }
        let v = x[batch.bucket(i)] * f64::from(NET_TO_INTERNAL);
        total += p.eval(v, batch.targets[i], 1.0).0;
    }
    total / batch.len() as f64
}

/// Plain SGD, rate 1, no clipping: one step subtracts exactly the gradient.
fn plain_sgd() -> Optimizer {
    Optimizer {
        kind: OptimizerKind::Sgd,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
        weight_decay: 0.0,
        momentum: 0.0,
        max_grad: f32::MAX,
    }
}

/// The trainer's gradient of every parameter, flattened in the order of
/// [`param_mut`].
fn trainer_gradient(model: &Model, batch: &SparseBatch, p: &LossParams) -> Model {
    trainer_gradient_with(model, batch, p, false)
}

/// [`trainer_gradient`], with `--quantization-aware` on or off.
fn trainer_gradient_with(
    model: &Model,
    batch: &SparseBatch,
    p: &LossParams,
    quantization_aware: bool,
) -> Model {
    let mut after = model.clone();
    let opt = plain_sgd();
    let mut slots = ModelSlots::new(&after, &opt);
    let loss = LossSetting {
        params: p,
        power_lambda: 1.0,
        quantization_aware,
    };
    let step = Step {
        lr: 1.0,
        t: 1,
        limit: f32::MAX,
    };
    train_step(
        &mut after,
        &mut slots,
        &opt,
        loss,
        batch,
        &mut Workspace::default(),
        step,
    );
    // g = w − w_new, stored in a model-shaped value.
    let mut g = model.clone();
    let pairs = [(&mut g.ft_w, &after.ft_w), (&mut g.ft_b, &after.ft_b)];
    for (gw, aw) in pairs {
        gw.iter_mut().zip(aw).for_each(|(g, a)| *g -= a);
    }
    for (gd, ad) in g.dense.iter_mut().zip(&after.dense) {
        gd.wt.iter_mut().zip(&ad.wt).for_each(|(g, a)| *g -= a);
        gd.b.iter_mut().zip(&ad.b).for_each(|(g, a)| *g -= a);
    }
    g
}

/// Parameter `k` of a tensor chosen by `tensor` (0 ft_w, 1 ft_b, 2.. dense w/b).
fn param_mut(model: &mut Model, tensor: usize, k: usize) -> &mut f32 {
    match tensor {
        0 => &mut model.ft_w[k],
        1 => &mut model.ft_b[k],
        t => {
            let d = &mut model.dense[(t - 2) / 2];
            if t % 2 == 0 {
                &mut d.wt[k]
            } else {
                &mut d.b[k]
            }
        }
    }
}

/// `dL/dparam` by a central difference of the f64 reference.
fn central_difference(
    model: &Model,
    batch: &SparseBatch,
    p: &LossParams,
    tensor: usize,
    k: usize,
    h: f32,
) -> f64 {
    let mut m = model.clone();
    let base = *param_mut(&mut m, tensor, k);
    *param_mut(&mut m, tensor, k) = base + h;
    let up = reference_loss(&m, batch, p);
    *param_mut(&mut m, tensor, k) = base - h;
    let down = reference_loss(&m, batch, p);
    // The f32 parameter moved by exactly these amounts.
    (up - down) / (f64::from(base + h) - f64::from(base - h))
}

/// Checks `samples` parameters of every tensor whose numeric derivative is not
/// at a ClippedReLU kink.
fn check_model(model: &Model, batch: &SparseBatch, p: &LossParams, ft_rows: &[usize]) {
    let grad = trainer_gradient(model, batch, p);
    let half = model.shape.half();
    let mut tensors: Vec<(usize, Vec<usize>)> = vec![
        (0, ft_rows.iter().map(|&r| r * half + r % half).collect()),
        (1, (0..half).step_by(3).collect()),
    ];
    for (l, d) in model.dense.iter().enumerate() {
        tensors.push((
            2 + 2 * l,
            (0..d.wt.len()).step_by(d.wt.len() / 7 + 1).collect(),
        ));
        tensors.push((3 + 2 * l, (0..d.b.len()).collect()));
    }
    let mut checked = 0;
    for (tensor, ks) in tensors {
        for k in ks {
            let numeric = central_difference(model, batch, p, tensor, k, 1e-3);
            let finer = central_difference(model, batch, p, tensor, k, 2.5e-4);
            if (numeric - finer).abs() > 0.01 * numeric.abs().max(1e-7) {
                // A ClippedReLU kink lies within the step: the loss is not
                // differentiable there, so finite differences say nothing.
                continue;
            }
            let analytic = f64::from(*param_mut(&mut grad.clone(), tensor, k));
            let scale = numeric.abs().max(analytic.abs()).max(1e-7);
            assert!(
                (numeric - analytic).abs() <= 0.02 * scale + 2e-8,
                "tensor {tensor} index {k}: trainer {analytic:e}, finite difference {numeric:e}"
            );
            checked += 1;
        }
    }
    assert!(checked > 20);
}

#[test]
fn every_layer_gradient_matches_finite_differences() {
    let shape = ModelShape::new("All", 16, &[8, 4], false).unwrap();
    let model = Model::new(shape.clone(), 3, 32);
    let batch = common::sample_batch(&shape, 24, 97);
    // Rows that are active in the batch: the first sample's pieces.
    let rows: Vec<usize> = batch.rows(0).0.iter().map(|&r| r as usize).collect();
    for kind in [LossKind::Elmo, LossKind::MseValue, LossKind::Thesis] {
        check_model(&model, &batch, &params(kind), &rows);
    }
}

#[test]
fn screlu_and_bucket_gradients_match_finite_differences() {
    for (hidden, activation, buckets) in [
        (&[][..], Activation::SquaredClippedRelu, 1),
        (&[][..], Activation::ClippedRelu, 8),
        (&[8][..], Activation::SquaredClippedRelu, 8),
    ] {
        let shape = ModelShape::new("All", 16, hidden, false)
            .unwrap()
            .with_output(activation, buckets)
            .unwrap();
        let model = Model::new(shape.clone(), 5, 32);
        let batch = common::sample_batch(&shape, 24, 97);
        let used: std::collections::BTreeSet<usize> =
            (0..batch.len()).map(|i| batch.bucket(i)).collect();
        assert!(
            buckets == 1 || used.len() > 2,
            "the batch spans few buckets: {used:?}"
        );
        let rows: Vec<usize> = batch.rows(0).0.iter().map(|&r| r as usize).collect();
        for kind in [LossKind::Elmo, LossKind::MseValue] {
            check_model(&model, &batch, &params(kind), &rows);
        }
    }
}

/// Quantization-aware steps take the gradient of the rounded dense layers and
/// apply it to the float ones (straight through): exactly the plain gradient of
/// the rounded model.
#[test]
fn quantization_aware_gradient_is_the_rounded_models() {
    let shape = ModelShape::new("All", 16, &[8], false).unwrap();
    let model = Model::new(shape.clone(), 9, 32);
    let rounded = model.with_quantized_dense();
    let batch = common::sample_batch(&shape, 24, 97);
    let p = params(LossKind::Elmo);
    let aware = trainer_gradient_with(&model, &batch, &p, true);
    let plain = trainer_gradient_with(&rounded, &batch, &p, false);
    let float = trainer_gradient_with(&model, &batch, &p, false);
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-6);
    assert!(close(&aware.ft_w, &plain.ft_w));
    assert!(close(&aware.ft_b, &plain.ft_b));
    for (a, b) in aware.dense.iter().zip(&plain.dense) {
        assert!(close(&a.wt, &b.wt) && close(&a.b, &b.b));
    }
    // and the rounding does change it
    assert!(!close(&aware.ft_w, &float.ft_w));
}

#[test]
fn factoriser_gradient_matches_finite_differences() {
    let shape = ModelShape::new("HalfKP", 8, &[4], true).unwrap();
    let model = Model::new(shape.clone(), 5, 60);
    let batch = common::sample_batch(&shape, 16, 131);
    // Virtual rows come after the 41024 real ones; take those of the first sample.
    let rows: Vec<usize> = batch
        .rows(0)
        .0
        .iter()
        .map(|&r| r as usize)
        .filter(|&r| r >= 41024)
        .collect();
    assert_eq!(rows.len(), batch.rows(0).0.len() / 2);
    check_model(&model, &batch, &params(LossKind::Power), &rows);
}

#[test]
fn factoriser_export_sums_virtual_rows_into_real_ones() {
    let shape = ModelShape::new("HalfKP", 4, &[4], true).unwrap();
    let model = Model::new(shape, 9, 60);
    let merged = model.merged_ft_weights();
    assert_eq!(merged.len(), 41024 * 4);
    // Feature 2573 (formats.md 5.1: white pawn a2, king e1) shares the virtual
    // row of plane offset 2573 % 641 = 9 with the same pawn for every king square.
    for real in [2573usize, 9, 641 * 63 + 9] {
        let v = 41024 + real % 641;
        assert_eq!(v, 41024 + 9);
        for k in 0..4 {
            assert_eq!(
                merged[real * 4 + k],
                model.ft_w[real * 4 + k] + model.ft_w[v * 4 + k]
            );
        }
    }
}

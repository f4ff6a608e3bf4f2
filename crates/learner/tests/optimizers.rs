//! Optimizer updates against the textbook formulas (PyTorch's documented Adam,
//! AdamW, Adagrad and SGD with momentum), computed here in f64.

use nnue_learner::optim::{Optimizer, OptimizerKind, Step};

fn optimizer(kind: OptimizerKind, weight_decay: f32, momentum: f32) -> Optimizer {
    Optimizer {
        kind,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
        weight_decay,
        momentum,
        max_grad: 10.0,
    }
}

/// Runs three steps of `opt` on one weight with gradients `grads`.
fn run(opt: &Optimizer, grads: [f32; 3]) -> f32 {
    let (mut w, mut m, mut v) = ([1.0f32], [0.0f32], [0.0f32]);
    for (t, g) in grads.into_iter().enumerate() {
        let step = Step {
            lr: 0.1,
            t: t as u64 + 1,
            limit: 100.0,
        };
        opt.update(&mut w, &[g], &mut m, &mut v, step);
    }
    w[0]
}

const GRADS: [f32; 3] = [0.5, -0.2, 0.3];

fn close(a: f32, b: f64) {
    assert!((f64::from(a) - b).abs() < 1e-6, "{a} vs {b}");
}

#[test]
fn adam_and_adamw() {
    for (kind, wd) in [(OptimizerKind::Adam, 0.01), (OptimizerKind::Adamw, 0.01)] {
        let (mut w, mut m, mut v) = (1.0f64, 0.0f64, 0.0f64);
        for (t, &g) in GRADS.iter().enumerate() {
            let t = t as i32 + 1;
            let mut g = f64::from(g);
            if kind == OptimizerKind::Adam {
                g += wd * w; // L2 folded into the gradient
            }
            m = 0.9 * m + 0.1 * g;
            v = 0.999 * v + 0.001 * g * g;
            let mhat = m / (1.0 - 0.9f64.powi(t));
            let vhat = v / (1.0 - 0.999f64.powi(t));
            let mut delta = mhat / (vhat.sqrt() + 1e-8);
            if kind == OptimizerKind::Adamw {
                delta += wd * w; // decoupled
            }
            w -= 0.1 * delta;
        }
        close(run(&optimizer(kind, wd as f32, 0.0), GRADS), w);
    }
}

#[test]
fn adagrad_and_sgd() {
    let mut w = 1.0f64;
    let mut sum = 0.0f64;
    for &g in &GRADS {
        let g = f64::from(g);
        sum += g * g;
        w -= 0.1 * g / (sum.sqrt() + 1e-8);
    }
    close(run(&optimizer(OptimizerKind::Adagrad, 0.0, 0.0), GRADS), w);

    let (mut w, mut buf) = (1.0f64, 0.0f64);
    for &g in &GRADS {
        buf = 0.8 * buf + f64::from(g);
        w -= 0.1 * buf;
    }
    close(run(&optimizer(OptimizerKind::Sgd, 0.0, 0.8), GRADS), w);
    close(
        run(&optimizer(OptimizerKind::Sgd, 0.0, 0.0), GRADS),
        1.0 - 0.1 * 0.6,
    );
}

#[test]
fn clipping_and_weight_limits() {
    // Gradients are clipped element-wise to ±max_grad (nodchip's max_grad).
    let mut opt = optimizer(OptimizerKind::Sgd, 0.0, 0.0);
    opt.max_grad = 0.25;
    close(
        run(&opt, [5.0, 5.0, -1.0]),
        1.0 - 0.1 * (0.25 + 0.25 - 0.25),
    );
    // Weights never leave ±limit, so they quantize without clamping.
    let mut w = [1.9f32];
    let step = Step {
        lr: 1.0,
        t: 1,
        limit: 1.98,
    };
    opt.max_grad = 10.0;
    opt.update(&mut w, &[-3.0], &mut [0.0], &mut [0.0], step);
    assert_eq!(w[0], 1.98);
}

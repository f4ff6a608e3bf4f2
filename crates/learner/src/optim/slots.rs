//! Optimizer state for every tensor of a model, and the weight limits that keep
//! every parameter quantizable.

use nnue_core::nnue::ParameterKind;

use crate::model::Model;
use crate::optim::{Optimizer, Slots};

/// [`Slots`] of each tensor, in the model's order.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSlots {
    pub ft_w: Slots,
    pub ft_b: Slots,
    /// `(weights, biases)` of each dense layer.
    pub dense: Vec<(Slots, Slots)>,
}

impl ModelSlots {
    /// Fresh state for `model`.
    pub fn new(model: &Model, opt: &Optimizer) -> ModelSlots {
        ModelSlots {
            ft_w: opt.slots(model.ft_w.len()),
            ft_b: opt.slots(model.ft_b.len()),
            dense: model
                .dense
                .iter()
                .map(|d| (opt.slots(d.wt.len()), opt.slots(d.b.len())))
                .collect(),
        }
    }
}

/// Limit of transformer weights and biases. Half the i16 range, so a real row
/// plus its factoriser row still fits after merging.
pub fn ft_limit() -> f32 {
    ParameterKind::Transformer.float_limit() / 2.0
}

/// `(weight, bias)` limits of dense layer `k` of `layers`.
pub fn dense_limits(k: usize, layers: usize) -> (f32, f32) {
    let (weights, biases) = ParameterKind::of_layer(k, layers);
    (weights.float_limit(), biases.float_limit())
}

//! The float model to 15.1's integers (`nnue_core::nnue::halfka`), with the
//! scales 15.1's inference implies (nnue-pytorch's serializer uses the same
//! ones for this architecture):
//!
//! | tensor | scale | type |
//! |---|---|---|
//! | transformer biases and weights | 127 (1.0 is 127 after the clamp) | i16 |
//! | PSQT weights | 600 · 16 = 9600 (raw units per output unit) | i32 |
//! | hidden weights (`fc_0`, `fc_1`) | 64 (`WeightScaleBits`), within ±127/64 | i8 |
//! | hidden biases | 127 · 64 | i32 |
//! | output weights (`fc_2`) | 9600 / 127, within ±127²/9600 | i8 |
//! | output bias | 9600 | i32 |
//!
//! Virtual rows are folded into the real ones first. Rows of the affine layers
//! are padded with zeros to 32 inputs, as the file stores them. Values outside a
//! type's range are clamped and counted.

use nnue_core::features::halfka_v2_hm::HALFKA_SIZE;
use nnue_core::nnue::aligned::Aligned;
use nnue_core::nnue::halfka::shape::{padded, Shape, STACKS, WEIGHT_SCALE_BITS};
use nnue_core::nnue::halfka::stack::{Affine, LayerStack};
use nnue_core::nnue::halfka::transformer::Transformer;
use nnue_core::nnue::halfka::HalfKaNetwork;

use super::features::virtual_row;
use super::model::HalfKaModel;
use super::stack::FloatStack;
use crate::model::Dense;

/// One after the transformer's clamp, and the activations' 1.0.
const QUANTIZED_ONE: f32 = 127.0;
/// Raw output units per float output unit (`600 · OutputScale`).
const OUTPUT_UNIT: f32 = 9600.0;
/// Hidden weights' scale.
const HIDDEN_WEIGHT_SCALE: f32 = (1 << WEIGHT_SCALE_BITS) as f32;
/// Output weights' scale: the output layer's input is in units of 127.
const OUTPUT_WEIGHT_SCALE: f32 = OUTPUT_UNIT / QUANTIZED_ONE;

/// Rounds `x · scale` into `lo..=hi`, counting a clamp in `clamped`.
fn round(x: f32, scale: f32, (lo, hi): (f32, f32), clamped: &mut u64) -> i64 {
    let v = (x * scale).round();
    if v < lo || v > hi {
        *clamped += 1;
    }
    v.clamp(lo, hi) as i64
}

/// An affine layer: biases at `bias_scale`, weights at `weight_scale` (i8).
fn affine(d: &Dense, bias_scale: f32, weight_scale: f32, clamped: &mut u64) -> Affine {
    let row = padded(d.inputs);
    let mut weights = vec![0i8; d.outputs * row];
    for o in 0..d.outputs {
        for i in 0..d.inputs {
            let w = d.wt[i * d.outputs + o];
            weights[o * row + i] = round(w, weight_scale, (-128.0, 127.0), clamped) as i8;
        }
    }
    let i32s = (i32::MIN as f32, i32::MAX as f32);
    Affine {
        biases: d
            .b
            .iter()
            .map(|&b| round(b, bias_scale, i32s, clamped) as i32)
            .collect(),
        weights: Aligned::from_slice(&weights),
    }
}

/// One layer stack.
fn layer_stack(s: &FloatStack, clamped: &mut u64) -> LayerStack {
    let hidden_bias = QUANTIZED_ONE * HIDDEN_WEIGHT_SCALE;
    LayerStack {
        fc0: affine(&s.fc0, hidden_bias, HIDDEN_WEIGHT_SCALE, clamped),
        fc1: affine(&s.fc1, hidden_bias, HIDDEN_WEIGHT_SCALE, clamped),
        fc2: affine(&s.fc2, OUTPUT_UNIT, OUTPUT_WEIGHT_SCALE, clamped),
    }
}

/// The transformer, virtual rows folded in.
fn transformer(m: &HalfKaModel, clamped: &mut u64) -> Transformer {
    let w = m.width;
    let i16s = (f32::from(i16::MIN), f32::from(i16::MAX));
    let i32s = (i32::MIN as f32, i32::MAX as f32);
    let mut weights = Vec::with_capacity(HALFKA_SIZE * w);
    let mut psqt = Vec::with_capacity(HALFKA_SIZE * STACKS);
    for f in 0..HALFKA_SIZE {
        let v = m.rows.factorize.then(|| virtual_row(f as u32) as usize);
        let row = |table: &[f32], n: usize, r: usize| table[r * n..(r + 1) * n].to_vec();
        let (mut ft, mut ps) = (row(&m.ft_w, w, f), row(&m.psqt, STACKS, f));
        if let Some(v) = v {
            ft.iter_mut()
                .zip(row(&m.ft_w, w, v))
                .for_each(|(a, b)| *a += b);
            ps.iter_mut()
                .zip(row(&m.psqt, STACKS, v))
                .for_each(|(a, b)| *a += b);
        }
        weights.extend(
            ft.iter()
                .map(|&x| round(x, QUANTIZED_ONE, i16s, clamped) as i16),
        );
        psqt.extend(
            ps.iter()
                .map(|&x| round(x, OUTPUT_UNIT, i32s, clamped) as i32),
        );
    }
    let biases: Vec<i16> = m
        .ft_b
        .iter()
        .map(|&b| round(b, QUANTIZED_ONE, i16s, clamped) as i16)
        .collect();
    Transformer {
        shape: Shape { width: w },
        biases: Aligned::from_slice(&biases),
        weights: Aligned::from_slice(&weights),
        psqt,
    }
}

/// The integer net of `model` with `description`, and how many values were clamped.
pub fn quantize(model: &HalfKaModel, description: &str) -> (HalfKaNetwork, u64) {
    let mut clamped = 0;
    let transformer = transformer(model, &mut clamped);
    let stacks = model
        .stacks
        .iter()
        .map(|s| layer_stack(s, &mut clamped))
        .collect();
    let net = HalfKaNetwork {
        description: description.as_bytes().to_vec(),
        transformer,
        stacks,
    };
    (net, clamped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halfka::Sample;
    use crate::model::init::uniform;
    use nnue_test_support::position;
    use shakmaty::Position;

    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
        "8/6n1/8/8/2k5/2N5/2K5/8 b - - 0 75",
        "r3k2r/1pp2ppp/p1n5/4P3/1b1q4/2N5/PPP2PPP/R2QKB1R w KQkq - 0 12",
    ];

    /// What the integer net's floors (the transformer's `/ 128`, the
    /// activations' `>> 6` and `>> 19`, the final `/ 16`) may cost on these
    /// positions, internal units: about 0.03 pawn. Measured: -64.6 vs -53,
    /// 716.0 vs 726, 7.9 vs 0, 63.9 vs 59, 149.8 vs 152. A wrong scale would
    /// be off by hundreds on the second position.
    const ROUNDING: f64 = 12.0;

    /// The integer net's raw value (15.1's inference in the core) follows the
    /// float model's value: the scales put every tensor where 15.1 reads it.
    /// The virtual rows are non-zero, so folding them in is checked too.
    #[test]
    fn the_integer_net_evaluates_as_the_float_model() {
        let mut model = HalfKaModel::new(128, true, 9);
        let real = HALFKA_SIZE * model.width;
        for (i, w) in model.ft_w[real..].iter_mut().enumerate() {
            *w = 0.05 * uniform(9, 77, i as u64);
        }
        for (i, p) in model.psqt.iter_mut().enumerate() {
            *p += 0.1 * uniform(9, 78, i as u64);
        }
        let (net, clamped) = quantize(&model, "test");
        assert_eq!(clamped, 0);
        let bytes = net.to_bytes();
        let back = HalfKaNetwork::from_bytes(&bytes, "test").unwrap();
        let mut t = model.trace();
        for fen in FENS {
            let pos = position(fen);
            let s = Sample::of(model.rows, pos.board(), pos.turn());
            let float = model.forward(&s.us, &s.them, s.stack, &mut t);
            let int = back.evaluate(&pos);
            assert!(
                (f64::from(float) - f64::from(int)).abs() <= ROUNDING,
                "{fen}: float {float}, integer {int}"
            );
        }
    }
}

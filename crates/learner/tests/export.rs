//! The exported integer net against the float model, layer by layer, and the
//! exported HalfKP file against Stockfish 12's format rules (formats.md 4.1–4.3).

mod common;

use nnue_core::data::{BinReader, ReaderOptions};
use nnue_core::nnue::{Kernel, Network, ParameterKind};
use nnue_learner::model::{Extractor, Model, ModelShape, Trace, NET_TO_INTERNAL};

/// End-to-end tolerance between the float model's value and the quantized
/// net's, internal units.
struct Tolerance {
    output: f64,
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// Compares every layer for 200 sample positions; returns the largest layer
/// difference as a share of its bound, and the largest value difference.
fn compare(shape: ModelShape, seed: u64, tol: &Tolerance) -> (f64, f64) {
    let extractor = Extractor::new(&shape);
    let model = Model::new(shape, seed, extractor.max_rows());
    let (net, report) = model.export().unwrap();
    assert_eq!(report.clamped(), 0);
    let reader = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let kernel = Kernel::detect();
    let half = model.shape.half();
    let mut scratch = net.scratch();
    let mut trace = Trace::new(&model);
    let (mut stm, mut nstm, mut feats) = (Vec::new(), Vec::new(), Vec::new());
    let mut worst = (0.0f64, 0.0f64);
    for i in (0..3000).step_by(15) {
        let record = reader.get(i).unwrap();
        let pos = &record.position;
        extractor.rows(&pos.board, pos.turn, &mut stm, &mut nstm);
        let y = model.forward(&stm, &nstm, 0, &mut trace);
        let (mut us, mut them) = (vec![0i16; half], vec![0i16; half]);
        net.refresh(kernel, &pos.board, pos.turn, &mut feats, &mut us);
        net.refresh(kernel, &pos.board, !pos.turn, &mut feats, &mut them);
        let raw = net.forward(kernel, &us, &them, 0, &mut scratch);
        // Accumulators: each weight and the bias round by at most ½ at scale 127.
        let real = [stm.len(), nstm.len()];
        for (p, acc) in [&us, &them].into_iter().enumerate() {
            let bound = 0.5 * (real[p] + 1) as f64;
            let floats = &trace.acc[p * half..(p + 1) * half];
            for (k, (&int, &float)) in acc.iter().zip(floats).enumerate() {
                let float = f64::from(float) * 127.0;
                let diff = (f64::from(int) - float).abs();
                assert!(
                    diff <= bound,
                    "record {i} acc {p}/{k}: int {int} float {float}"
                );
            }
        }
        let transformed = scratch.transformed(half);
        for (k, &t) in transformed.iter().enumerate() {
            let float = f64::from(trace.inputs[0][k]) * 127.0;
            // Clamping keeps the accumulator bound; side to move's half first.
            let bound = 0.5 * (real[k / half] + 1) as f64;
            assert!(
                (f64::from(t) - float).abs() <= bound,
                "record {i} input {k}"
            );
        }
        // Each integer layer against the float layer applied to the integer
        // layer's own (dequantized) inputs: the difference is only weight and
        // bias rounding, bounded by ½ step · Σ inputs + ½ bias step.
        let last = model.dense.len() - 1;
        let mut x: Vec<f64> = transformed.iter().map(|&t| f64::from(t) / 127.0).collect();
        for (l, d) in model.dense.iter().enumerate() {
            let (w_step, out_scale) = if l == last {
                (127.0 / 9600.0, 9600.0)
            } else {
                (1.0 / 64.0, 64.0 * 127.0)
            };
            let bound = 0.5 * w_step * x.iter().sum::<f64>() + 0.5 / out_scale + 1e-9;
            for o in 0..d.outputs {
                let float = f64::from(d.b[o])
                    + x.iter()
                        .enumerate()
                        .map(|(k, &xk)| xk * f64::from(d.wt[k * d.outputs + o]))
                        .sum::<f64>();
                let int = f64::from(scratch.affine_output(l)[o]) / out_scale;
                let diff = (int - float).abs();
                worst.0 = worst.0.max(diff / bound);
                assert!(
                    diff <= bound,
                    "record {i} layer {l} output {o}: int {int} float {float}"
                );
            }
            if l < last {
                x = scratch
                    .activation(l)
                    .iter()
                    .map(|&a| f64::from(a) / 127.0)
                    .collect();
            }
        }
        let float_value = f64::from(y) * f64::from(NET_TO_INTERNAL);
        let int_value = f64::from(raw) / 16.0;
        let diff = (int_value - float_value).abs();
        worst.1 = worst.1.max(diff);
        assert!(
            diff <= tol.output,
            "record {i}: int {int_value} float {float_value}"
        );
    }
    worst
}

#[test]
fn float_and_integer_forward_agree_layer_by_layer() {
    // Layers: exact rounding bounds (see `compare`). End to end, where rounding
    // of every layer compounds: within 24 internal units (about 0.1 pawn).
    let tol = Tolerance { output: 24.0 };
    for (spec, half, hidden, seed) in [
        ("All", 64, vec![16], 1),
        ("HalfKP", 32, vec![8, 8], 2),
        ("All+H+V", 32, vec![8], 3),
    ] {
        let shape = ModelShape::new(spec, half, &hidden, false).unwrap();
        let worst = compare(shape, seed, &tol);
        eprintln!(
            "{spec}: worst layer {:.3} of its bound, worst value {:.2}",
            worst.0, worst.1
        );
    }
    let factorized = ModelShape::new("King-All", 32, &[8], true).unwrap();
    compare(factorized, 4, &tol);
}

/// `model` with every parameter moved onto the file's grid (quantized and
/// back), so the float model and the exported net hold the same values.
fn on_file_grid(model: &Model) -> Model {
    let mut grid = model.clone();
    let round = |values: &mut [f32], kind: ParameterKind| {
        values.iter_mut().for_each(|x| *x = kind.rounded(*x));
    };
    round(&mut grid.ft_w, ParameterKind::Transformer);
    round(&mut grid.ft_b, ParameterKind::Transformer);
    let layers = grid.dense.len();
    for (k, dense) in grid.dense.iter_mut().enumerate() {
        let (weights, biases) = ParameterKind::of_layer(k, layers);
        round(&mut dense.wt, weights);
        round(&mut dense.b, biases);
    }
    grid
}

/// The largest and the mean |integer − float| value (internal units) of
/// `model`'s exported net over 200 sample positions, the integer value through
/// the engine's evaluation (its output bucket included).
fn value_differences(model: &Model) -> (f64, f64) {
    let extractor = Extractor::new(&model.shape);
    let (net, report) = model.export().unwrap();
    assert_eq!(report.clamped(), 0);
    let reader = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let mut trace = Trace::new(model);
    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
    let (mut worst, mut total, mut count) = (0.0f64, 0.0f64, 0.0f64);
    for i in (0..3000).step_by(15) {
        let pos = reader.get(i).unwrap().position;
        extractor.rows(&pos.board, pos.turn, &mut stm, &mut nstm);
        let bucket = extractor.bucket(&pos.board);
        let float = model.forward(&stm, &nstm, bucket, &mut trace);
        let float = f64::from(float) * f64::from(NET_TO_INTERNAL);
        let int = f64::from(net.evaluate_board(Kernel::detect(), &pos.board, pos.turn));
        let diff = (int - float).abs();
        worst = worst.max(diff);
        total += diff;
        count += 1.0;
    }
    (worst, total / count)
}

#[test]
fn screlu_and_bucketed_nets_agree_with_the_float_model() {
    use nnue_core::nnue::Activation::{ClippedRelu, SquaredClippedRelu};
    // With the float parameters on the file's grid, a net without hidden
    // layers computes the float value exactly but for truncations: Σ c²·w / 127
    // (< 1 raw unit), then raw / 16 (< 1 internal unit), so within 1 + 1/16.
    const EXACT: f64 = 1.0 + 1.0 / 16.0;
    // With a hidden layer, the transformed input c² / 127 and the hidden
    // layer's >> 6 truncate too: within the 24 units the ClippedReLU nets are
    // held to (`float_and_integer_forward_agree_layer_by_layer`).
    const HIDDEN: f64 = 24.0;
    for (spec, half, hidden, activation, buckets) in [
        ("All", 256, &[][..], ClippedRelu, 1),
        ("All", 256, &[][..], SquaredClippedRelu, 1),
        ("All", 256, &[][..], ClippedRelu, 8),
        ("All", 256, &[][..], SquaredClippedRelu, 8),
        ("HalfKP", 64, &[][..], SquaredClippedRelu, 8),
        ("All", 64, &[16][..], SquaredClippedRelu, 8),
    ] {
        let shape = ModelShape::new(spec, half, hidden, false)
            .unwrap()
            .with_output(activation, buckets)
            .unwrap();
        let summary = shape.arch.summary();
        let extractor = Extractor::new(&shape);
        let model = Model::new(shape, 9, extractor.max_rows());
        let (raw_worst, raw_mean) = value_differences(&model);
        let (worst, mean) = value_differences(&on_file_grid(&model));
        eprintln!(
            "{summary}: worst {worst:.2}, mean {mean:.2} internal units on the grid; \
             {raw_worst:.2} and {raw_mean:.2} off it"
        );
        let tolerance = if hidden.is_empty() { EXACT } else { HIDDEN };
        assert!(worst <= tolerance, "{summary}: worst {worst}, mean {mean}");
    }
}

#[test]
fn exported_halfkp_passes_stockfish_12_format_rules() {
    let shape = ModelShape::new("HalfKP", 256, &[32, 32], false).unwrap();
    let model = Model::new(shape, 7, 30);
    let (net, _) = model.export().unwrap();
    let bytes = net.to_bytes();
    // formats.md 4.1: total size, version, hashes at their offsets.
    assert_eq!(bytes.len(), 21_022_697);
    assert_eq!(le_u32(&bytes, 0), 0x7AF3_2F16);
    assert_eq!(le_u32(&bytes, 4), 0x3E5A_A6EE);
    assert_eq!(le_u32(&bytes, 8), 177);
    assert_eq!(
        &bytes[12..189],
        b"Features=HalfKP(Friend)[41024->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))"
    );
    assert_eq!(le_u32(&bytes, 189), 0x5D69_D7B8);
    assert_eq!(le_u32(&bytes, 21_004_993), 0x6333_7156);
    // Transformer biases: 0.5 · 127 = 63.5 rounds half away from zero.
    assert_eq!(i16::from_le_bytes([bytes[193], bytes[194]]), 64);
    let back = Network::from_bytes(&bytes, "exported").unwrap();
    assert_eq!(back.to_bytes(), bytes);
}

//! `--init-net`: a `.nnue` file dequantized into the float model exports back to
//! the same bytes, starts training at the loaded net's loss, and with
//! `--factorize` starts from the same effective net.

mod common;

use std::path::Path;

use common::{figure, material_run, material_teacher, Train};
use nnue_core::nnue::{random_network, Architecture, Network, ParameterKind};
use nnue_learner::model::{Extractor, Model, ModelShape};

/// Exporting the model loaded from `net` gives `net`'s bytes.
fn assert_round_trip(net: &Network, shape: &ModelShape) -> Model {
    let model = Model::from_network(net, shape).unwrap();
    let (back, report) = model.export().unwrap();
    assert_eq!(report.clamped(), 0);
    assert!(back.to_bytes() == net.to_bytes(), "{}", shape.fingerprint());
    model
}

#[test]
fn loading_inverts_the_export_for_every_architecture() {
    for (spec, half, hidden, seed) in [
        ("HalfKP", 32, vec![8, 8], 1),
        ("All", 64, vec![16], 2),
        ("All+H+V", 32, vec![8, 4], 3),
        ("All", 16, vec![], 4),
    ] {
        let shape = ModelShape::new(spec, half, &hidden, false).unwrap();
        let extractor = Extractor::new(&shape);
        let trained = Model::new(shape.clone(), seed, extractor.max_rows());
        let (net, _) = trained.export().unwrap();
        let model = assert_round_trip(&net, &shape);
        // Every value is the integer over the export's scale (formats.md 4.4).
        let q = net.ft_weights()[5];
        let expected = f64::from(q) / 127.0;
        assert_eq!(model.ft_w[5], expected as f32);
        let out = &net.layers()[hidden.len()];
        let expected = f64::from(out.biases[0]) / 9600.0;
        assert_eq!(model.dense[hidden.len()].b[0], expected as f32);
    }
}

#[test]
fn screlu_and_bucketed_nets_load_and_export_back() {
    use nnue_core::nnue::Activation;
    for hidden in [&[][..], &[8][..]] {
        let shape = ModelShape::new("All", 32, hidden, false)
            .unwrap()
            .with_output(Activation::SquaredClippedRelu, 8)
            .unwrap();
        let extractor = Extractor::new(&shape);
        let (net, _) = Model::new(shape.clone(), 6, extractor.max_rows())
            .export()
            .unwrap();
        let model = assert_round_trip(&net, &shape);
        assert_eq!(model.dense[hidden.len()].outputs, 8);
    }
}

#[test]
fn stockfish_12_random_halfkp_round_trips() {
    // The reference generator's net (make_random_halfkp.py, seed 20201002; see
    // tests/data/README.md), whose Stockfish 12 evaluations tests/data holds.
    let net = random_network(&Architecture::halfkp_256(), 20201002).unwrap();
    let shape = ModelShape::new("HalfKP", 256, &[32, 32], false).unwrap();
    let model = assert_round_trip(&net, &shape);
    let row = net.ft_row(41023);
    assert_eq!(
        model.ft_w[41023 * 256 + 255],
        ParameterKind::Transformer.to_float(i64::from(row[255]))
    );
}

#[test]
fn factoriser_rows_start_at_zero() {
    for (spec, half, hidden) in [("HalfKP", 16, vec![4, 4]), ("King-All", 32, vec![8])] {
        let arch = Architecture::new(spec, half, &hidden).unwrap();
        let net = random_network(&arch, 5).unwrap();
        let shape = ModelShape::new(spec, half, &hidden, true).unwrap();
        let model = assert_round_trip(&net, &shape);
        let real = shape.inputs() * half;
        assert_eq!(model.ft_w.len(), shape.rows() * half);
        assert!(model.ft_w[real..].iter().all(|&w| w == 0.0));
        assert_eq!(model.merged_ft_weights(), model.ft_w[..real].to_vec());
    }
}

/// Runs `args` quietly with `--force` (the tests rewrite one output); panics
/// with stderr on failure.
fn train_ok(args: Train) -> String {
    args.arg("--force").quiet().learn_ok()
}

/// `--epochs 0` from `init` with the model options `model` writes `init`'s bytes.
fn zero_epochs_rewrite(dir: &Path, init: &Path, model: &[&str]) -> String {
    let out = dir.join("rewritten.nnue");
    let args = Train::on_sample()
        .args(["--epochs", "0"])
        .file("--init-net", init)
        .output(&out)
        .args(model);
    let text = train_ok(args);
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(init).unwrap(),
        "{model:?}"
    );
    assert!(text.contains("after 0 epochs, 0 positions"), "{text}");
    text
}

#[test]
fn export_init_net_export_is_byte_identical() {
    let dir = common::temp_dir("init-identical");
    // A net our trainer wrote (All, --hidden=).
    let first = dir.join("first.nnue");
    let all = ["--feature-set", "All", "--ft-size", "16", "--hidden=8,4"];
    train_ok(
        Train::on_sample()
            .run("1", "600", "100")
            .output(&first)
            .args(all),
    );
    let text = zero_epochs_rewrite(&dir, &first, &all);
    assert!(text.contains(&format!("starting from {}", first.display())));
    // Stockfish 12's HalfKP 256x2-32-32 (the reference random net).
    let sf12 = dir.join("sf12.nnue");
    random_network(&Architecture::halfkp_256(), 20201002)
        .unwrap()
        .save(&sf12)
        .unwrap();
    zero_epochs_rewrite(&dir, &sf12, &["--feature-set", "HalfKP"]);
}

#[test]
fn training_starts_at_the_loaded_nets_loss() {
    let dir = common::temp_dir("init-loss");
    let (train, validation) = material_teacher(&dir);
    let first = dir.join("first.nnue");
    let run = material_run(&train, &validation);
    let out = train_ok(run.clone().args(["--epochs", "3"]).output(&first));
    let random_start = figure(&out, "initial validation loss");
    let trained = figure(&out, "; validation loss");

    let second = dir.join("second.nnue");
    let args = run.args(["--epochs", "0"]).output(&second);
    let out = train_ok(args.file("--init-net", &first));
    let loaded_start = figure(&out, "initial validation loss");
    eprintln!("random start {random_start}, trained {trained}, loaded {loaded_start}");
    // The loaded net is the trained float model up to weight rounding.
    let gain = random_start - trained;
    assert!(
        gain > 0.05,
        "training did not learn: {random_start} -> {trained}"
    );
    assert!(
        (loaded_start - trained).abs() < 0.02 * gain,
        "loaded {loaded_start}, trained {trained}, random {random_start}"
    );
    assert_eq!(figure(&out, "; validation loss"), loaded_start);
}

#[test]
fn factorised_start_is_the_loaded_net() {
    let dir = common::temp_dir("init-factorize");
    let init = dir.join("king-all.nnue");
    let arch = Architecture::new("King-All", 32, &[8]).unwrap();
    random_network(&arch, 9).unwrap().save(&init).unwrap();
    let model = [
        "--feature-set",
        "King-All",
        "--ft-size",
        "32",
        "--hidden",
        "8",
    ];
    let plain = zero_epochs_rewrite(&dir, &init, &model);
    let mut factorized = model.to_vec();
    factorized.push("--factorize");
    let with_factors = zero_epochs_rewrite(&dir, &init, &factorized);
    let initial = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("initial validation loss"))
            .unwrap()
            .to_string()
    };
    assert_eq!(initial(&plain), initial(&with_factors));
}

/// `net`'s affine layers as [`Network::from_parameters`] takes them.
fn unpadded_layers(net: &Network) -> Vec<(Vec<i32>, Vec<i8>)> {
    net.layers()
        .iter()
        .map(|l| {
            let row = l.row_len();
            let weights = (0..l.outputs)
                .flat_map(|o| l.weights.as_slice()[o * row..o * row + l.inputs].to_vec())
                .collect();
            (l.biases.clone(), weights)
        })
        .collect()
}

#[test]
fn values_beyond_the_trainers_limit_are_reported() {
    let dir = common::temp_dir("init-limit");
    let arch = Architecture::new("All", 16, &[4]).unwrap();
    let net = random_network(&arch, 3).unwrap();
    let mut ft_w = net.ft_weights().to_vec();
    // The trainer keeps transformer values within half the i16 range (±129.0 in
    // float), so a factoriser row still fits when merged.
    ft_w[100] = 20_000;
    ft_w[101] = -16_000;
    let layers = unpadded_layers(&net);
    let big = Network::from_parameters(arch, net.ft_biases().to_vec(), ft_w, layers).unwrap();
    let path = dir.join("big.nnue");
    big.save(&path).unwrap();
    let model = ["--feature-set", "All", "--ft-size", "16", "--hidden", "4"];
    let text = zero_epochs_rewrite(&dir, &path, &model);
    assert!(
        text.contains(
            "(1 transformer parameters beyond the trainer's ±129.0 are clipped when trained)"
        ),
        "{text}"
    );
}

#[test]
fn a_bias_no_float_can_hold_is_refused() {
    let arch = Architecture::new("All", 16, &[4]).unwrap();
    let net = random_network(&arch, 3).unwrap();
    let mut layers = unpadded_layers(&net);
    // 2^31 - 1 over 8128 needs more than an f32's 24 bits to come back exactly.
    layers[0].0[2] = i32::MAX;
    let ft_b = net.ft_biases().to_vec();
    let ft_w = net.ft_weights().to_vec();
    let odd = Network::from_parameters(arch, ft_b, ft_w, layers).unwrap();
    let shape = ModelShape::new("All", 16, &[4], false).unwrap();
    let problem = Model::from_network(&odd, &shape).unwrap_err();
    assert_eq!(
        problem.to_string(),
        "layer 0 bias 2147483647 has no 32-bit float that exports back to it"
    );
}

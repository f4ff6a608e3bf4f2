//! `--quantization-aware`: training runs the dense layers at the exported net's
//! integer values and reports measure the exported net itself, so the values it
//! reports are the exported net's exactly, while a float run's are not.

mod common;

use std::path::Path;

use common::{figure, learn, material_teacher};

/// The last start-position value a training log reports.
fn last_startpos(log: &str) -> f64 {
    let last = log.lines().rfind(|l| l.contains("startpos eval")).unwrap();
    figure(last, "startpos eval")
}

/// Trains an All net with no hidden layer (the output layer's rounding is at its
/// coarsest) and returns the start position's value as the run's last report
/// gave it and as the exported net, reloaded, gives it (internal units).
fn reported_and_exported(dir: &Path, extra: &[&str]) -> (f64, f64) {
    let (train, validation) = material_teacher(dir);
    let net = dir.join("net.nnue");
    let reloaded = dir.join("reloaded.nnue");
    let model = "--feature-set All --ft-size 256 --hidden= --batch-size 64 --epoch-size 4800";
    let mut base = vec!["train", "--no-progress", "--lr", "0.005", "--seed", "3"];
    base.extend(model.split(' '));
    base.extend(["--train", train.to_str().unwrap()]);
    base.extend(["--validation", validation.to_str().unwrap()]);
    let mut args = base.clone();
    args.extend(["--epochs", "4", "--output-net", net.to_str().unwrap()]);
    args.extend(["--loss-output-interval", "4800"]);
    args.extend(extra);
    let (ok, _, out, err) = learn(&args);
    assert!(ok, "{err}");
    let reported = last_startpos(&out);
    let mut args = base.clone();
    args.extend(["--epochs", "0", "--output-net", reloaded.to_str().unwrap()]);
    args.extend(["--init-net", net.to_str().unwrap()]);
    let (ok, _, out, err) = learn(&args);
    assert!(ok, "{err}");
    (reported, last_startpos(&out))
}

#[test]
fn the_reported_values_are_the_exported_nets() {
    let (float_reported, float_exported) =
        reported_and_exported(&common::temp_dir("qat-float"), &[]);
    let (qat_reported, qat_exported) =
        reported_and_exported(&common::temp_dir("qat-on"), &["--quantization-aware"]);
    eprintln!("float {float_reported} -> {float_exported}, aware {qat_reported} -> {qat_exported}");
    let float_gap = (float_exported - float_reported).abs();
    let qat_gap = (qat_exported - qat_reported).abs();
    // Both reports measure the same integer parameters.
    assert!(
        qat_gap < 1e-6,
        "aware: reported {qat_reported}, exported {qat_exported}"
    );
    assert!(
        float_gap >= 3.0 * qat_gap.max(1.0),
        "float gap {float_gap}, aware gap {qat_gap}"
    );
}

//! `nnue-learn train` end to end: learning on a generated data set, exact
//! `--resume`, thread-count independence, nodchip's option names.

mod common;

use std::path::Path;

use common::{figure, learn, material_teacher};

/// A small All 768->32x2-8-1 run on `data` (validation held out).
fn base_args<'a>(data: &'a str, net: &'a str) -> Vec<&'a str> {
    vec![
        "train",
        "--train",
        data,
        "--feature-set",
        "All",
        "--ft-size",
        "32",
        "--hidden",
        "8",
        "--validation-fraction",
        "0.2",
        "--epoch-size",
        "1000",
        "--loss-output-interval",
        "100000000",
        "--no-progress",
        "--output-net",
        net,
    ]
}

#[test]
fn validation_loss_falls_well_below_the_initial_nets() {
    let dir = common::temp_dir("falls");
    let (train, validation) = material_teacher(&dir);
    let net = dir.join("net.nnue");
    let args = [
        "train",
        "--train",
        train.to_str().unwrap(),
        "--validation",
        validation.to_str().unwrap(),
        "--feature-set",
        "All",
        "--ft-size",
        "32",
        "--hidden",
        "8",
        "--batch-size",
        "32",
        "--epoch-size",
        "2400",
        "--epochs",
        "5",
        "--lr",
        "0.01",
        "--loss-output-interval",
        "100000000",
        "--no-progress",
        "--output-net",
        net.to_str().unwrap(),
    ];
    let (ok, _, out, err) = learn(&args);
    assert!(ok, "{err}");
    // ELMO with λ = 1 is the cross entropy with the teacher; what a net can
    // remove is the part above the teacher's own entropy.
    let entropy = figure(&out, "test_entropy_eval");
    let initial = figure(&out, "initial validation loss") - entropy;
    let line = out.lines().find(|l| l.starts_with("epoch 5 done")).unwrap();
    let last = figure(line, "validation loss") - entropy;
    assert!(
        last < 0.3 * initial,
        "excess loss: initial {initial}, final {last}\n{out}"
    );
    // The CSV has one row per epoch and the plot exists.
    let csv = std::fs::read_to_string(dir.join("net.csv")).unwrap();
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(std::fs::metadata(dir.join("net.png")).unwrap().len() > 1000);
    let net_bytes = std::fs::read(&net).unwrap();
    assert!(nnue_core::nnue::Network::from_bytes(&net_bytes, "net").is_ok());
}

/// Runs `args` plus `extra`; panics with stderr on failure.
fn run_ok(args: &[&str], extra: &[&str]) -> String {
    let all: Vec<&str> = args.iter().chain(extra).copied().collect();
    let (ok, _, out, err) = learn(&all);
    assert!(ok, "{all:?}: {err}");
    out
}

#[test]
fn resume_after_interruption_equals_an_uninterrupted_run() {
    let dir = common::temp_dir("resume");
    let data = common::sample_bin();
    let (a, b) = (dir.join("a"), dir.join("b"));
    let (net_a, net_b) = (dir.join("a.nnue"), dir.join("b.nnue"));
    let mut args_a = base_args(data.to_str().unwrap(), net_a.to_str().unwrap());
    args_a.extend([
        "--epochs",
        "3",
        "--batch-size",
        "128",
        "--checkpoint-dir",
        a.to_str().unwrap(),
    ]);
    args_a.extend([
        "--newbob-decay",
        "0.5",
        "--smart-fen-skipping",
        "--random-fen-skipping",
        "1",
    ]);
    run_ok(&args_a, &["--threads", "2"]);

    let mut args_b = base_args(data.to_str().unwrap(), net_b.to_str().unwrap());
    args_b.extend([
        "--epochs",
        "3",
        "--batch-size",
        "128",
        "--checkpoint-dir",
        b.to_str().unwrap(),
    ]);
    args_b.extend([
        "--newbob-decay",
        "0.5",
        "--smart-fen-skipping",
        "--random-fen-skipping",
        "1",
    ]);
    // Interrupted mid-epoch (batch 11 of 24), then twice resumed.
    let mut stop = args_b.clone();
    stop.extend(["--stop-after-batches", "11"]);
    let (ok, code, _, err) = learn(&stop);
    // Stopped as Ctrl-C stops it: exit status 130.
    assert!(!ok && code == 130, "{err}");
    assert!(
        err.starts_with("nnue-learn: error: interrupted: checkpoint saved in"),
        "{err}"
    );
    let mut again = stop.clone();
    again.push("--resume");
    let (ok, _, _, err) = learn(&again);
    assert!(!ok, "{err}");
    run_ok(&args_b, &["--resume", "--threads", "2"]);

    assert!(std::fs::read(&net_a).unwrap() == std::fs::read(&net_b).unwrap());
    let ckpt = |d: &Path| std::fs::read(d.join("checkpoint.bin")).unwrap();
    assert!(ckpt(&a) == ckpt(&b), "checkpoints differ");
    let csv = |p: &Path| std::fs::read_to_string(p.with_extension("csv")).unwrap();
    assert_eq!(csv(&net_a), csv(&net_b));
}

/// The `lr` column of a run's CSV, one value per epoch.
fn csv_rates(net: &Path) -> Vec<f64> {
    let csv = std::fs::read_to_string(net.with_extension("csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = header.iter().position(|h| *h == "lr").unwrap();
    lines
        .map(|l| l.split(',').nth(column).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn cosine_with_warmup_resumes_on_the_same_curve() {
    let dir = common::temp_dir("resume-cosine");
    let data = common::sample_bin();
    let data = data.to_str().unwrap();
    let (lr, lr_final) = (0.002, 0.0002);
    // 2 epochs of 8 batches (1000 positions in batches of 128): 16 batches,
    // the first 5 warming up.
    let run = |name: &str| {
        let net = dir.join(format!("{name}.nnue"));
        let ckpt = dir.join(name);
        let mut args: Vec<String> = base_args(data, net.to_str().unwrap())
            .iter()
            .map(|a| a.to_string())
            .collect();
        for a in [
            "--epochs",
            "2",
            "--batch-size",
            "128",
            "--lr",
            "0.002",
            "--lr-schedule",
            "cosine",
            "--lr-final",
            "0.0002",
            "--lr-warmup-batches",
            "5",
            "--checkpoint-dir",
            ckpt.to_str().unwrap(),
        ] {
            args.push(a.to_string());
        }
        (net, ckpt, args)
    };
    let (net_a, a, args_a) = run("a");
    let args_a: Vec<&str> = args_a.iter().map(String::as_str).collect();
    run_ok(&args_a, &[]);

    let (net_b, b, args_b) = run("b");
    let args_b: Vec<&str> = args_b.iter().map(String::as_str).collect();
    // Interrupted during the warm-up (after batch 3), then resumed and
    // interrupted again in the second epoch (after batch 10).
    let stop = |extra: &[&'static str]| {
        let all: Vec<&str> = args_b
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect();
        let (ok, code, _, err) = learn(&all);
        assert!(!ok && code == 130, "{err}");
    };
    stop(&["--stop-after-batches", "3"]);
    stop(&["--resume", "--stop-after-batches", "7"]);
    run_ok(&args_b, &["--resume"]);

    assert!(std::fs::read(&net_a).unwrap() == std::fs::read(&net_b).unwrap());
    let ckpt = |d: &Path| std::fs::read(d.join("checkpoint.bin")).unwrap();
    assert!(ckpt(&a) == ckpt(&b), "checkpoints differ");
    // The CSV's rate is the next batch's: half way down the cosine after
    // epoch 1 (batch 8 of 16), the final rate after the last.
    let rates = csv_rates(&net_a);
    assert_eq!(rates.len(), 2);
    assert!(
        (rates[0] - (lr + lr_final) / 2.0).abs() < 1e-12,
        "{rates:?}"
    );
    assert!((rates[1] - lr_final).abs() < 1e-12, "{rates:?}");
    assert_eq!(csv_rates(&net_b), rates);

    // The curve changes the weights: the default schedule trains another net.
    let (net_c, _, args_c) = run("c");
    let plain: Vec<&str> = args_c
        .iter()
        .map(String::as_str)
        .take_while(|a| *a != "--lr-schedule")
        .collect();
    run_ok(&plain, &[]);
    assert!(std::fs::read(&net_a).unwrap() != std::fs::read(&net_c).unwrap());
}

#[test]
fn one_and_two_threads_give_the_same_weights() {
    let dir = common::temp_dir("threads");
    let data = common::sample_bin();
    // A net with a hidden layer, and one without (its transformer gradient is
    // summed from mask bits, `train/masked.rs`), 136 wide: two full mask words
    // and a narrow one.
    let shapes: [&[&str]; 2] = [&[], &["--ft-size", "136", "--hidden="]];
    for (k, shape) in shapes.iter().enumerate() {
        let mut nets = Vec::new();
        for threads in ["1", "2"] {
            let net = dir.join(format!("s{k}t{threads}.nnue"));
            let ckpt = dir.join(format!("s{k}c{threads}"));
            let mut args = base_args(data.to_str().unwrap(), net.to_str().unwrap());
            // Batches of 700 are three chunks of the dense pass.
            args.extend(["--epochs", "2", "--threads", threads, "--batch-size", "700"]);
            args.extend(["--checkpoint-dir", ckpt.to_str().unwrap()]);
            args.extend(shape.iter().copied());
            run_ok(&args, &[]);
            nets.push((
                std::fs::read(&net).unwrap(),
                std::fs::read(ckpt.join("checkpoint.bin")).unwrap(),
            ));
        }
        assert!(nets[0].0 == nets[1].0, "{shape:?}: nets differ");
        assert!(nets[0].1 == nets[1].1, "{shape:?}: checkpoints differ");
    }
}

#[test]
fn nodchip_option_names_are_accepted() {
    let dir = common::temp_dir("nodchip");
    let data = common::sample_bin();
    let net = dir.join("n.nnue");
    let args = [
        "train",
        "--train",
        data.to_str().unwrap(),
        "--feature-set",
        "All",
        "--ft-size",
        "16",
        "--hidden",
        "4",
        "--output-net",
        net.to_str().unwrap(),
        "--no-progress",
        "eta",
        "0.002",
        "nn_batch_size",
        "100",
        "epoch_size",
        "500",
        "epochs",
        "1",
        "lambda",
        "0.5",
        "newbob_decay",
        "0.5",
        "--validation_count",
        "300",
        "--use_draw_games_in_training",
        "0",
        "eval_limit",
        "3000",
        "loss_output_interval",
        "250",
    ];
    let out = run_ok(&args, &[]);
    assert_eq!(out.matches("PROGRESS:").count(), 3, "{out}");
    assert!(out.contains("lr = 2.000000e-3"), "{out}");
    // 150 held out (5 %), of which 6 score beyond eval_limit 3000.
    assert!(out.contains("on 144 positions"), "{out}");
}

#[test]
fn mirror_is_reproducible_across_threads_and_resume() {
    let dir = common::temp_dir("mirror");
    let data = common::sample_bin();
    let run = |name: &str, extra: &[&str]| {
        let net = dir.join(format!("{name}.nnue"));
        let ckpt = dir.join(name);
        let mut args = base_args(data.to_str().unwrap(), net.to_str().unwrap());
        args.extend(["--epochs", "2", "--batch-size", "128", "--seed", "5"]);
        args.extend(["--checkpoint-dir", ckpt.to_str().unwrap()]);
        args.extend(extra);
        let (ok, _, _, err) = learn(&args);
        (ok, err, net, ckpt.join("checkpoint.bin"))
    };
    let (ok, err, net_a, ckpt_a) = run("a", &["--mirror", "--threads", "1"]);
    assert!(ok, "{err}");
    // Two threads, interrupted after 5 batches, then resumed.
    let (ok, err, _, _) = run(
        "b",
        &["--mirror", "--threads", "2", "--stop-after-batches", "5"],
    );
    assert!(!ok && err.contains("interrupted"), "{err}");
    let (ok, err, net_b, ckpt_b) = run("b", &["--mirror", "--threads", "2", "--resume"]);
    assert!(ok, "{err}");
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert!(read(&net_a) == read(&net_b), "nets differ");
    assert!(read(&ckpt_a) == read(&ckpt_b), "checkpoints differ");
    // Mirroring changes what is trained.
    let (ok, err, net_c, _) = run("c", &["--threads", "1"]);
    assert!(ok, "{err}");
    assert!(read(&net_a) != read(&net_c), "--mirror changed nothing");
}

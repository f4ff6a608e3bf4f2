//! `nnue-learn train` end to end: learning on a generated data set, exact
//! `--resume`, thread-count independence, nodchip's option names.

mod common;

use std::path::Path;

use common::{figure, material_run, material_teacher, Train};

/// A small All 768->32x2-8-1 run on the sample (validation held out) writing `net`.
fn base(net: &Path) -> Train {
    Train::on_sample()
        .all("32")
        .hidden("8")
        .args(["--validation-fraction", "0.2", "--epoch-size", "1000"])
        .quiet()
        .output(net)
}

#[test]
fn validation_loss_falls_well_below_the_initial_nets() {
    let dir = common::temp_dir("falls");
    let (train, validation) = material_teacher(&dir);
    let net = dir.join("net.nnue");
    let out = material_run(&train, &validation)
        .args(["--epochs", "5"])
        .quiet()
        .output(&net)
        .learn_ok();
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

#[test]
fn resume_after_interruption_equals_an_uninterrupted_run() {
    let dir = common::temp_dir("resume");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let (net_a, net_b) = (dir.join("a.nnue"), dir.join("b.nnue"));
    // Three epochs of 8 batches writing `net`, checkpoints in `ckpt`.
    let args = |net: &Path, ckpt: &Path| {
        base(net)
            .args(["--epochs", "3", "--batch-size", "128"])
            .file("--checkpoint-dir", ckpt)
            .args(["--newbob-decay", "0.5", "--smart-fen-skipping"])
            .args(["--random-fen-skipping", "1", "--wld-fen-skipping"])
    };
    args(&net_a, &a).args(["--threads", "2"]).learn_ok();

    let args_b = args(&net_b, &b);
    // Interrupted mid-epoch (batch 11 of 24), then twice resumed.
    let stop = args_b.clone().args(["--stop-after-batches", "11"]);
    let (ok, code, _, err) = stop.learn();
    // Stopped as Ctrl-C stops it: exit status 130.
    assert!(!ok && code == 130, "{err}");
    assert!(
        err.starts_with("nnue-learn: stopped by Ctrl-C (SIGINT): checkpoint saved in"),
        "{err}"
    );
    let (ok, _, _, err) = stop.arg("--resume").learn();
    assert!(!ok, "{err}");
    args_b.args(["--resume", "--threads", "2"]).learn_ok();

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
    let (lr, lr_final) = (0.002, 0.0002);
    // 2 epochs of 8 batches (1000 positions in batches of 128) at the default
    // schedule, writing `<name>.nnue`.
    let plain = |name: &str| {
        let net = dir.join(format!("{name}.nnue"));
        let args = base(&net).args(["--epochs", "2", "--batch-size", "128", "--lr", "0.002"]);
        (net, args)
    };
    // The same on the cosine curve: 16 batches, the first 5 warming up, with
    // checkpoints in `<name>`.
    let run = |name: &str| {
        let (net, args) = plain(name);
        let ckpt = dir.join(name);
        let args = args
            .args(["--lr-schedule", "cosine", "--lr-final", "0.0002"])
            .args(["--lr-warmup-batches", "5"])
            .file("--checkpoint-dir", &ckpt);
        (net, ckpt, args)
    };
    let (net_a, a, args_a) = run("a");
    args_a.learn_ok();

    let (net_b, b, args_b) = run("b");
    // Interrupted during the warm-up (after batch 3), then resumed and
    // interrupted again in the second epoch (after batch 10).
    let stop = |extra: &[&str]| {
        let (ok, code, _, err) = args_b.clone().args(extra).learn();
        assert!(!ok && code == 130, "{err}");
    };
    stop(&["--stop-after-batches", "3"]);
    stop(&["--resume", "--stop-after-batches", "7"]);
    args_b.arg("--resume").learn_ok();

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
    let (net_c, args_c) = plain("c");
    args_c.learn_ok();
    assert!(std::fs::read(&net_a).unwrap() != std::fs::read(&net_c).unwrap());
}

#[test]
fn one_and_two_threads_give_the_same_weights() {
    let dir = common::temp_dir("threads");
    // A net with a hidden layer, and one without (its transformer gradient is
    // summed from mask bits, `train/masked.rs`), 136 wide: two full mask words
    // and a narrow one.
    let shapes: [&[&str]; 2] = [&[], &["--ft-size", "136", "--hidden="]];
    for (k, shape) in shapes.iter().enumerate() {
        let mut nets = Vec::new();
        for threads in ["1", "2"] {
            let net = dir.join(format!("s{k}t{threads}.nnue"));
            let ckpt = dir.join(format!("s{k}c{threads}"));
            // Batches of 700 are three chunks of the dense pass.
            base(&net)
                .args(["--epochs", "2", "--threads", threads, "--batch-size", "700"])
                .file("--checkpoint-dir", &ckpt)
                .args(*shape)
                .learn_ok();
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
    let net = dir.join("n.nnue");
    let nodchip = [
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
    let out = Train::on_sample()
        .all("16")
        .hidden("4")
        .output(&net)
        .no_progress()
        .args(nodchip)
        .learn_ok();
    assert_eq!(out.matches("PROGRESS:").count(), 3, "{out}");
    assert!(out.contains("lr = 2.000000e-3"), "{out}");
    // 150 held out (5 %), of which 6 score beyond eval_limit 3000.
    assert!(out.contains("on 144 positions"), "{out}");
}

#[test]
fn mirror_is_reproducible_across_threads_and_resume() {
    let dir = common::temp_dir("mirror");
    let run = |name: &str, extra: &[&str]| {
        let net = dir.join(format!("{name}.nnue"));
        let ckpt = dir.join(name);
        let (ok, _, _, err) = base(&net)
            .args(["--epochs", "2", "--batch-size", "128", "--seed", "5"])
            .file("--checkpoint-dir", &ckpt)
            .args(extra)
            .learn();
        (ok, err, net, ckpt.join("checkpoint.bin"))
    };
    let (ok, err, net_a, ckpt_a) = run("a", &["--mirror", "--threads", "1"]);
    assert!(ok, "{err}");
    // Two threads, interrupted after 5 batches, then resumed.
    let (ok, err, _, _) = run(
        "b",
        &["--mirror", "--threads", "2", "--stop-after-batches", "5"],
    );
    assert!(!ok && err.contains("stopped by Ctrl-C (SIGINT)"), "{err}");
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

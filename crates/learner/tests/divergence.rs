//! A diverged run stops with exit status 1 and says so, and saves nothing of
//! the diverged weights: `--lr 1e9` once wrote a net that evaluated the start
//! position as -134,215,711 and exited 0.

mod common;

use std::path::Path;

use common::Train;

/// A run at `--lr 1e9` of All 768->16x2-4-1 on one thread, `epochs` epochs of
/// six batches, writing `out`.
fn huge_learning_rate(epochs: &str, out: &Path) -> Train {
    Train::on_sample()
        .args(["--lr", "1e9"])
        .all("16")
        .hidden("4")
        .run(epochs, "3000", "500")
        .args(["--threads", "1"])
        .no_progress()
        .output(out)
}

#[test]
fn a_huge_learning_rate_stops_as_diverged_without_a_net() {
    let dir = common::temp_dir("diverged");
    let (out, ckpt) = (dir.join("o.nnue"), dir.join("ckpt"));
    let run = |extra: &[&str]| {
        huge_learning_rate("10", &out)
            .arg("--force")
            .file("--checkpoint-dir", &ckpt)
            .args(extra)
            .learn()
    };
    let (ok, code, stdout, stderr) = run(&[]);
    assert!(!ok && code == 1, "{stderr}");
    assert_eq!(
        stderr,
        "nnue-learn: error: training diverged: validation loss 13.707224 at epoch 3 is more \
         than 25% above the starting 0.703123 for 3 reports in a row (--divergence-patience 3); stopped \
         without saving these weights (files saved before are kept)\n"
    );
    assert!(stdout.contains("epoch 3 done"), "{stdout}");
    assert!(!stdout.contains("epoch 4 done"), "{stdout}");
    assert!(!out.exists(), "a diverged run wrote its net");
    assert!(!ckpt.join("checkpoint.bin").exists());
    assert!(!ckpt.join("epoch-1.nnue").exists());

    // The patience is an option.
    let (ok, code, _, stderr) = run(&["--divergence-patience", "1"]);
    assert!(!ok && code == 1, "{stderr}");
    assert!(
        stderr.contains("at epoch 1 is more than 25% above the starting 0.703123 for 1 reports in a row (--divergence-patience 1)"),
        "{stderr}"
    );
    let (ok, code, _, stderr) = run(&["--divergence-patience", "0"]);
    assert!(!ok && code == 2, "{stderr}");
    assert!(
        stderr.contains("--divergence-patience") && stderr.contains("(at least 1)"),
        "{stderr}"
    );
}

#[test]
fn a_net_beyond_the_engine_range_is_not_exported() {
    let dir = common::temp_dir("range");
    let out = dir.join("o.nnue");
    // Divergence detection off in effect: the export check still refuses.
    let (ok, code, _, stderr) = huge_learning_rate("2", &out)
        .args(["--divergence-patience", "100"])
        .learn();
    assert!(!ok && code == 1, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "nnue-learn: error: {}: its evaluation can reach 134219744 internal units, beyond \
             the engine's limit of ±31871; not written (lower --lr?)\n",
            out.display()
        )
    );
    assert!(!out.exists());
}

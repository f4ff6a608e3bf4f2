//! The SIMD builds of the hot loops train bit-identical nets to the plain
//! build (`NNUE_LEARN_SIMD=plain`), for both step paths: a net with hidden
//! layers and one whose transformer feeds the output directly (with the
//! quantization-aware rounding), HalfKP with the factoriser as well.

mod common;

/// Trains one small net with `NNUE_LEARN_SIMD=level` (none: the CPU's widest)
/// and returns the exported bytes.
fn train(level: Option<&str>, shape: &[&str], net: &std::path::Path) -> Vec<u8> {
    let mut cmd = common::Train::on_sample()
        .args(shape)
        .args(["--validation-fraction", "0.1"])
        .run("2", "1400", "700")
        .args(["--threads", "2"])
        .quiet()
        .output(net)
        .arg("--force")
        .command();
    match level {
        Some(level) => cmd.env("NNUE_LEARN_SIMD", level),
        None => cmd.env_remove("NNUE_LEARN_SIMD"),
    };
    let out = cmd.output().expect("run nnue-learn");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(net).unwrap()
}

#[test]
fn simd_and_plain_builds_train_the_same_nets() {
    let dir = common::temp_dir("simd");
    let shapes: [&[&str]; 3] = [
        &["--feature-set", "All", "--ft-size", "72", "--hidden", "8"],
        &[
            "--feature-set",
            "All",
            "--ft-size",
            "136",
            "--hidden=",
            "--quantization-aware",
        ],
        &["--feature-set", "HalfKP", "--ft-size", "64", "--factorize"],
    ];
    for (k, shape) in shapes.iter().enumerate() {
        let nets: Vec<Vec<u8>> = [Some("plain"), Some("avx2"), None]
            .into_iter()
            .enumerate()
            .map(|(j, level)| train(level, shape, &dir.join(format!("n{k}-{j}.nnue"))))
            .collect();
        assert!(nets[0] == nets[1], "{shape:?}: plain and AVX2 differ");
        assert!(nets[0] == nets[2], "{shape:?}: plain and widest differ");
    }
}

//! `nnue-learn check`: the correlation check of scripts/pipeline.py, pinned on
//! the shipped net and the Stockfish-tools sample.

mod common;

use std::path::PathBuf;

fn default_net() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../nets/default.nnue")
}

#[test]
fn the_default_net_follows_the_sample_scores() {
    let net = default_net();
    let n = net.to_str().unwrap();
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    let (ok, _, stdout, stderr) = common::learn(&["check", "--net", n, "--data", d]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "net:                       {n}\ndata:                      {d}\npositions:                 309\ncorrelation:               0.884770\nmean absolute difference:  449.065\n"
        )
    );
    // The held-out tail as the pipeline checks it, as JSON, from the .binpack
    // copy of the same records.
    let packed = common::sample("binpack");
    let p = packed.to_str().unwrap();
    let (ok, _, stdout, stderr) = common::learn(&[
        "check",
        "--net",
        n,
        "--data",
        p,
        "--held-out",
        "0.05",
        "--json",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "{{\"net\": \"{n}\", \"data\": \"{p}\", \"positions\": 133, \"correlation\": 0.895798, \"mean_absolute_difference\": 441.075}}\n"
        )
    );
}

#[test]
fn bad_check_arguments_are_one_clear_line() {
    let net = default_net();
    let n = net.to_str().unwrap();
    let data = common::sample_bin();
    let d = data.to_str().unwrap();
    let (ok, code, _, stderr) = common::learn(&["check", "--net", n, "--data", d, "--count", "0"]);
    assert!(!ok && code == 2, "{stderr}");
    assert!(
        stderr.starts_with(
            "nnue-learn: error: invalid value '0' for '--count <COUNT>': 0 is out of range (at least 1) (see nnue-learn --help)\n"
        ),
        "{stderr}"
    );
    let (ok, code, _, stderr) =
        common::learn(&["check", "--net", n, "--data", d, "--held-out", "-0.5"]);
    assert!(!ok && code == 2, "{stderr}");
    assert!(
        stderr.contains("'-0.5' is not a fraction in [0, 1)"),
        "{stderr}"
    );
    let dir = common::temp_dir("check");
    let missing = dir.join("missing.nnue");
    let m = missing.to_str().unwrap();
    let (ok, code, _, stderr) = common::learn(&["check", "--net", m, "--data", d]);
    assert!(!ok && code == 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("nnue-learn: error: {m}: cannot read file:")),
        "{stderr}"
    );
}

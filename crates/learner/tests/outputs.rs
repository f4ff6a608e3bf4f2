//! The output rule (nnue_core::output) for `train` and `random-net`: an input
//! is never an output, even with --force; an existing output needs --force;
//! every output path is checked before any training starts. Refusals exit 2
//! with one line naming the path.

mod common;

use std::path::Path;

/// `nnue-learn train` on the sample with a tiny model, plus `args`.
fn train(args: &[&str]) -> (bool, i32, String, String) {
    common::Train::on_sample()
        .all("8")
        .hidden("")
        .run("1", "500", "100")
        .args(["--validation-count", "100", "--accuracy-count", "10"])
        .no_progress()
        .args(args)
        .learn()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Asserts exit status 2, no output on stdout (nothing started) and one error
/// line equal to `line`.
fn refused(result: (bool, i32, String, String), line: &str) {
    let (ok, code, stdout, stderr) = result;
    assert!(!ok && code == 2, "{code}: {stderr}");
    assert_eq!(stdout, "", "work started before the refusal");
    assert_eq!(stderr, format!("nnue-learn: error: {line}\n"));
}

#[test]
fn an_input_is_never_an_output_even_with_force() {
    let dir = common::temp_dir("outputs-input");
    let victim = dir.join("victim.bin");
    std::fs::copy(common::sample_bin(), &victim).unwrap();
    let before = std::fs::read(&victim).unwrap();
    let v = text(&victim);
    // A net is never written under a data extension, so the data is safe twice.
    let line = format!(
        "{v}: --output-net must name a .nnue file (the trainer writes a net, not training data)"
    );
    refused(train(&["--train", v, "--output-net", v, "--force"]), &line);
    refused(
        train(&["--validation", v, "--output-net", v, "--force"]),
        &line,
    );
    // Side files too: a CSV named as the validation data.
    let csv = dir.join("held-out.bin");
    std::fs::copy(common::sample_bin(), &csv).unwrap();
    let c = text(&csv);
    let out = dir.join("out.nnue");
    refused(
        train(&[
            "--validation",
            c,
            "--output-net",
            text(&out),
            "--csv",
            c,
            "--force",
        ]),
        &format!("{c}: the output is also an input ({c}); refusing to overwrite it"),
    );
    assert_eq!(
        std::fs::read(&victim).unwrap(),
        before,
        "the data was touched"
    );
    assert!(!out.exists());
}

#[test]
fn an_init_net_is_never_overwritten() {
    let dir = common::temp_dir("outputs-init");
    let net = dir.join("start.nnue");
    let n = text(&net);
    let (ok, _, _, err) = train(&["--output-net", n]);
    assert!(ok, "{err}");
    let before = std::fs::read(&net).unwrap();
    refused(
        train(&["--init-net", n, "--output-net", n, "--force"]),
        &format!("{n}: the output is also an input ({n}); refusing to overwrite it"),
    );
    assert_eq!(std::fs::read(&net).unwrap(), before);
}

#[test]
fn an_existing_output_needs_force() {
    let dir = common::temp_dir("outputs-exists");
    let out = dir.join("o.nnue");
    let o = text(&out);
    let (ok, _, _, err) = train(&["--output-net", o]);
    assert!(ok, "{err}");
    let first = std::fs::read(&out).unwrap();
    refused(
        train(&["--output-net", o]),
        &format!("{o}: already exists (use --force to replace it)"),
    );
    // Only the CSV left from an earlier run: it is named.
    std::fs::remove_file(&out).unwrap();
    let csv = dir.join("o.csv");
    refused(
        train(&["--output-net", o]),
        &format!("{}: already exists (use --force to replace it)", text(&csv)),
    );
    let (ok, _, _, err) = train(&["--output-net", o, "--force"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), first);
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["o.csv", "o.nnue", "o.png"]);
}

#[test]
fn a_missing_folder_is_named_before_training() {
    let dir = common::temp_dir("outputs-nodir");
    let out = dir.join("nodir").join("o.nnue");
    let o = text(&out);
    refused(
        train(&["--output-net", o]),
        &format!(
            "{o}: the folder {} does not exist",
            text(&dir.join("nodir"))
        ),
    );
    let good = dir.join("o.nnue");
    let plot = dir.join("nodir").join("o.png");
    refused(
        train(&["--output-net", text(&good), "--plot", text(&plot)]),
        &format!(
            "{}: the folder {} does not exist",
            text(&plot),
            text(&dir.join("nodir"))
        ),
    );
    assert!(!good.exists());
}

#[test]
fn checkpoint_files_are_checked_and_resume_may_replace_them() {
    let dir = common::temp_dir("outputs-ckpt");
    let ckpt = dir.join("ckpt");
    let k = text(&ckpt);
    let first = dir.join("first.nnue");
    let (ok, _, _, err) = train(&["--output-net", text(&first), "--checkpoint-dir", k]);
    assert!(ok, "{err}");
    // A fresh run into the same directory would replace the checkpoint.
    let second = dir.join("second.nnue");
    refused(
        train(&["--output-net", text(&second), "--checkpoint-dir", k]),
        &format!(
            "{}: already exists (use --force to replace it)",
            text(&ckpt.join("checkpoint.bin"))
        ),
    );
    std::fs::remove_file(ckpt.join("checkpoint.bin")).unwrap();
    refused(
        train(&["--output-net", text(&second), "--checkpoint-dir", k]),
        &format!(
            "{}: already exists (use --force to replace it)",
            text(&ckpt.join("epoch-1.nnue"))
        ),
    );
    assert!(!second.exists());
}

#[test]
fn random_net_follows_the_rule() {
    let dir = common::temp_dir("outputs-random");
    let out = dir.join("r.nnue");
    let o = text(&out);
    let args = ["random-net", "--arch", "All:8:", "--out", o];
    let (ok, _, _, err) = common::learn(&args);
    assert!(ok, "{err}");
    let (ok, code, _, err) = common::learn(&args);
    assert!(!ok && code == 2);
    assert_eq!(
        err,
        format!("nnue-learn: error: {o}: already exists (use --force to replace it)\n")
    );
    let nodir = dir.join("nodir").join("r.nnue");
    let (ok, code, _, err) =
        common::learn(&["random-net", "--arch", "All:8:", "--out", text(&nodir)]);
    assert!(!ok && code == 2, "{err}");
    assert!(
        err.contains("nodir") && err.contains("does not exist"),
        "{err}"
    );
}

//! What a run's files are and say, as a new user meets them: a net is written
//! only under `.nnue`; an input without a data extension is a usage error before
//! training starts; only the latest epoch net is kept unless
//! `--keep-epoch-nets N`; a log (standard error not a terminal) gets plain
//! progress lines; the opening line counts threads in words.

mod common;

use common::Train;

/// A small run on the sample: All 768->8x2-1, one thread, batches of 100.
fn small(epochs: &str) -> Train {
    Train::on_sample()
        .all("8")
        .hidden("")
        .run(epochs, "500", "100")
        .args(["--threads", "1"])
}

#[test]
fn a_net_under_a_data_extension_is_refused_before_training() {
    let dir = common::temp_dir("run-files-net-ext");
    let out = dir.join("x.bin");
    let (ok, code, stdout, stderr) = small("1").no_progress().output(&out).learn();
    assert!(!ok && code == 2, "{code}: {stderr}");
    assert_eq!(stdout, "", "training started");
    assert_eq!(
        stderr,
        format!(
            "nnue-learn: error: {}: --output-net must name a .nnue file \
             (the trainer writes a net, not training data)\n",
            out.display()
        )
    );
    assert!(!out.exists());
}

#[test]
fn an_unsupported_input_extension_is_a_usage_error_before_training() {
    let dir = common::temp_dir("run-files-in-ext");
    let games = dir.join("games.txt");
    std::fs::copy(common::sample_bin(), &games).unwrap();
    let out = dir.join("o.nnue");
    for option in ["--train", "--validation"] {
        let (ok, code, stdout, stderr) = small("1")
            .no_progress()
            .file(option, &games)
            .output(&out)
            .learn();
        assert!(!ok && code == 2, "{option}: {code}: {stderr}");
        assert_eq!(stdout, "", "{option}: training started");
        assert_eq!(
            stderr,
            format!(
                "nnue-learn: error: {}: unsupported extension (expected .bin, .binpack, .plain, .vf, .mf or .bf, or name the format)\n",
                games.display()
            )
        );
    }
}

fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn only_the_latest_epoch_net_is_kept_unless_asked() {
    let dir = common::temp_dir("run-files-epochs");
    let ckpt = dir.join("ckpt");
    small("4")
        .quiet()
        .file("--checkpoint-dir", &ckpt)
        .output(&dir.join("a.nnue"))
        .learn_ok();
    assert_eq!(listing(&ckpt), ["checkpoint.bin", "epoch-4.nnue"]);

    let every = dir.join("every");
    small("5")
        .quiet()
        .file("--checkpoint-dir", &every)
        .args(["--keep-epoch-nets", "2"])
        .output(&dir.join("b.nnue"))
        .learn_ok();
    assert_eq!(
        listing(&every),
        [
            "checkpoint.bin",
            "epoch-2.nnue",
            "epoch-4.nnue",
            "epoch-5.nnue"
        ]
    );
}

#[test]
fn a_log_gets_plain_progress_lines_and_threads_are_counted_in_words() {
    let dir = common::temp_dir("run-files-progress");
    // Standard error is a pipe here, as in a log; a line every millisecond.
    let (ok, _, stdout, stderr) = small("4")
        .args(["--progress-every-ms", "1"])
        .output(&dir.join("p.nnue"))
        .learn();
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout.lines().next(),
        Some(
            format!(
                "training All 768->8x2-1 on {} (1 thread)",
                common::sample_bin().display()
            )
            .as_str()
        )
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        assert!(
            line.starts_with("positions ")
                && line.contains(" of 2000 (")
                && line.contains(" positions/s, "),
            "{line}"
        );
    }
    // --quiet (--no-progress) has none.
    let (ok, _, _, stderr) = small("1")
        .no_progress()
        .args(["--progress-every-ms", "1"])
        .output(&dir.join("q.nnue"))
        .learn();
    assert!(ok && stderr.is_empty(), "{stderr}");
}

//! SIGTERM (a cluster's pre-emption) saves a checkpoint as Ctrl-C does, and the
//! run exits 143; `--resume` then continues from that checkpoint. Ctrl-C (SIGINT)
//! exits 130. Either is said as a stop, not as an error.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::Train;

/// A long run with `--checkpoint-dir ckpt`, `epochs` epochs of 2000 positions.
fn long_run(ckpt: &Path, out: &Path, epochs: &str) -> Train {
    Train::on_sample()
        .all("8")
        .hidden("")
        .run(epochs, "2000", "100")
        .no_progress()
        .args(["--threads", "1"])
        .file("--checkpoint-dir", ckpt)
        .output(out)
}

/// Starts `run`, sends `signal` (`-TERM`, `-INT`) once its first epoch is
/// done and returns how it ended and every line it printed.
fn stopped_after_an_epoch(run: &Train, signal: &str) -> (Output, Vec<String>) {
    let mut child = run
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    // Training has started once its first epoch is done.
    for line in lines.by_ref() {
        let line = line.unwrap();
        let started = line.starts_with("epoch 1 done");
        seen.push(line);
        if started {
            break;
        }
    }
    let kill = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    seen.extend(lines.map(Result::unwrap));
    (child.wait_with_output().unwrap(), seen)
}

#[test]
fn ctrl_c_is_a_stop_with_status_130_not_an_error() {
    let dir = common::temp_dir("sigint");
    let ckpt = dir.join("ckpt");
    let (output, _) =
        stopped_after_an_epoch(&long_run(&ckpt, &dir.join("o.nnue"), "100000"), "-INT");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "nnue-learn: stopped by Ctrl-C (SIGINT): checkpoint saved in {}; continue with --resume\n",
            ckpt.display()
        )
    );
}

#[test]
fn sigterm_saves_a_checkpoint_that_resume_continues() {
    let dir = common::temp_dir("sigterm");
    let ckpt = dir.join("ckpt");
    let out = dir.join("o.nnue");
    let args = |epochs: &str| long_run(&ckpt, &out, epochs);
    let (output, seen) = stopped_after_an_epoch(&args("100000"), "-TERM");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "nnue-learn: stopped by SIGTERM: checkpoint saved in {}; continue with --resume\n",
            ckpt.display()
        )
    );
    assert!(ckpt.join("checkpoint.bin").exists());
    assert!(!out.exists(), "an interrupted run wrote its final net");
    let done = seen.iter().filter(|l| l.starts_with("epoch ")).count();
    assert!(done >= 1, "{seen:?}");

    // Resumed for one more epoch than were done: it finishes that one.
    let epochs = (done + 1).to_string();
    let (ok, code, stdout, stderr) = args(&epochs).arg("--resume").learn();
    assert!(ok && code == 0, "{stderr}");
    assert!(!stdout.contains("initial validation loss"), "{stdout}");
    assert!(
        stdout.contains(&format!("epoch {} done", done + 1)),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "wrote {} after {} epochs",
            out.display(),
            done + 1
        )),
        "{stdout}"
    );
}

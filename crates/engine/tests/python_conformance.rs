//! Runs `scripts/uci_conformance.py` (python-chess, as bots and GUIs use it) against
//! the real binary. CI installs python-chess (`.ci/run`); without it this test fails
//! loudly rather than passing silently.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/uci_conformance.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_nnue"))
        .output()
        .expect("python3 must be installed to run the conformance test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "conformance failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("all checks passed"), "{stdout}\n{stderr}");
}

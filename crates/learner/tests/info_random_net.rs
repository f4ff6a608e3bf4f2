//! `nnue-learn random-net` and `nnue-learn info` end to end.

use std::process::Command;

fn learn(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nnue-learn"))
        .args(args)
        .output()
        .expect("run nnue-learn");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn random_net_then_info() {
    let dir = std::env::temp_dir().join(format!("nnue-learn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("allhv.nnue");
    let path_text = path.to_str().unwrap();
    let make = [
        "random-net",
        "--seed",
        "7",
        "--features",
        "All+H+V",
        "--half",
        "64",
        "--hidden",
        "16,8",
        "--out",
        path_text,
    ];
    let (ok, stdout, stderr) = learn(&make);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("architecture:  All+H+V 960->64x2-16-8-1"),
        "{stdout}"
    );
    let first = std::fs::read(&path).unwrap();

    let (ok, info, stderr) = learn(&["info", path_text]);
    assert!(ok, "{stderr}");
    assert!(
        info.contains(&format!("size:          {} bytes", first.len())),
        "{info}"
    );
    assert!(info.contains("feature set:   All+H+V (960 features per perspective)"));
    assert!(info.contains(
        "description:   Features=All+H+V[960->64x2],Network=AffineTransform[1<-8](ClippedReLU[8](AffineTransform[8<-16](ClippedReLU[16](AffineTransform[16<-128](InputSlice[128(0:128)])))))"
    ));

    // The file exists now: replacing it needs --force.
    let (ok, _, stderr) = learn(&make);
    assert!(!ok);
    assert_eq!(
        stderr,
        format!("nnue-learn: error: {path_text}: already exists (use --force to replace it)\n")
    );
    // Same seed, same bytes.
    let mut forced = make.to_vec();
    forced.push("--force");
    let (ok, _, _) = learn(&forced);
    assert!(ok);
    assert!(std::fs::read(&path).unwrap() == first);

    // `--arch` is the same architecture in one option.
    let (ok, stdout, stderr) = learn(&[
        "random-net",
        "--seed",
        "7",
        "--arch",
        "All+H+V:64:16,8",
        "--out",
        path_text,
        "--force",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("All+H+V 960->64x2-16-8-1"));
    assert!(std::fs::read(&path).unwrap() == first);
    let (ok, _, stderr) = learn(&["random-net", "--arch", "All:x", "--out", path_text]);
    assert!(!ok);
    assert!(
        stderr.contains("'x' is not a transformer width"),
        "{stderr}"
    );

    // A broken file is an error naming it.
    std::fs::write(&path, &first[..100]).unwrap();
    let (ok, _, stderr) = learn(&["info", path_text]);
    assert!(!ok);
    assert!(
        stderr.contains(path_text) && stderr.contains("truncated"),
        "{stderr}"
    );
    let (ok, _, stderr) = learn(&[
        "random-net",
        "--features",
        "Bogus",
        "--out",
        path_text,
        "--force",
    ]);
    assert!(!ok);
    assert!(stderr.contains("unknown block 'Bogus'"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The repository stands alone: the reference vectors are in `tests/data/` exactly as
//! its README lists them (sha256), no source or test looks outside the repository,
//! and the pinned toolchain is the minimum version the workspace declares.

use std::path::{Path, PathBuf};

use nnue_core::nnue::sha256::sha256_hex;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn reference_vectors_match_the_sums_in_their_readme() {
    let data = workspace().join("tests/data");
    let readme = std::fs::read_to_string(data.join("README.md")).expect("tests/data/README.md");
    let sums: Vec<(&str, &str)> = readme
        .lines()
        .filter_map(|l| l.split_once("  "))
        .filter(|(sum, _)| sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit()))
        .collect();
    // Every vector is listed, and only vectors that exist.
    let mut listed: Vec<&str> = sums.iter().map(|(_, name)| *name).collect();
    listed.sort_unstable();
    let mut present: Vec<String> = std::fs::read_dir(&data)
        .expect("tests/data")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name != "README.md")
        .collect();
    present.sort_unstable();
    assert_eq!(listed, present, "tests/data/README.md lists every vector");
    for (sum, name) in sums {
        let bytes = std::fs::read(data.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(sha256_hex(&bytes), sum, "{name} was changed");
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_code_looks_outside_the_repository() {
    // Spelled in pieces so that this file does not match itself.
    let outside = [
        ["..", "/shared"].concat(),
        ["/work", "/"].concat(),
        ["NNUE_", "SHARED_DIR"].concat(),
    ];
    let mut files = Vec::new();
    for dir in ["crates", "fuzz/fuzz_targets"] {
        rust_files(&workspace().join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        for needle in &outside {
            assert!(
                !text.contains(needle.as_str()),
                "{} refers to {needle:?}",
                file.display()
            );
        }
    }
}

#[test]
fn pinned_toolchain_is_the_declared_minimum() {
    let root = workspace();
    let toolchain = std::fs::read_to_string(root.join("rust-toolchain.toml")).expect("toml");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let minimum = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-version in the workspace manifest");
    let channel = toolchain
        .lines()
        .find_map(|l| l.strip_prefix("channel = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("channel in rust-toolchain.toml");
    assert!(
        channel == minimum || channel.starts_with(&format!("{minimum}.")),
        "toolchain {channel} vs rust-version {minimum}"
    );
    for component in ["rustfmt", "clippy"] {
        assert!(
            toolchain.contains(&format!("\"{component}\"")),
            "{component}"
        );
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    assert!(readme.contains(&format!("Rust **{minimum} or later**")));
}

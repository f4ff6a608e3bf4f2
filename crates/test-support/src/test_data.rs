//! Where the reference vectors are: `tests/data/` at the workspace root (see its
//! README for where each file came from). Only the repository itself is
//! searched, so a fresh clone passes.

use std::path::PathBuf;

/// A file of `tests/data/` (found from this crate's folder, a sibling of every
/// crate of the workspace).
pub fn test_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

/// The text of a file of `tests/data/`; a missing file fails the test naming it.
pub fn test_data_text(name: &str) -> String {
    let path = test_data(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reference vector {} is missing: {e}", path.display()))
}

/// The bytes of a file of `tests/data/`.
pub fn test_data_bytes(name: &str) -> Vec<u8> {
    let path = test_data(name);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("reference vector {} is missing: {e}", path.display()))
}

//! Where the read-only reference material (`shared/`: docs, vectors, tools) is.
//! Included with `#[path]` by the tests of every crate.
//!
//! Looked up in order: `$NNUE_SHARED_DIR`, `shared/` next to the checkout (the layout
//! the project documents: `../shared` from the workspace root), then `/work/shared`.
//! Tests that need it fail loudly, listing where they looked, rather than pass silently.

#![allow(dead_code)]

use std::path::PathBuf;

/// The reference directory.
pub fn shared_dir() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("NNUE_SHARED_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(workspace.join("../shared"));
    candidates.push(PathBuf::from("/work/shared"));
    for dir in &candidates {
        if dir.join("vectors").is_dir() {
            return dir.clone();
        }
    }
    panic!(
        "shared reference directory not found (set NNUE_SHARED_DIR); looked in {:?}",
        candidates
    );
}

/// A path inside the reference directory.
pub fn shared(path: &str) -> PathBuf {
    shared_dir().join(path)
}

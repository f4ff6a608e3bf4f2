//! A per-process temporary directory for a test, removed when dropped. Included
//! with `#[path]` by the tests that write files.

#![allow(dead_code)]

use std::path::PathBuf;

pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory named after the crate, `tag` and this process.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nnue-core-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    /// `name` inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

//! A per-process temporary directory for a test, removed when dropped.

use std::path::PathBuf;

/// A directory under the system's temporary directory, emptied when created and
/// removed when dropped, so a test leaves nothing behind (even when it fails).
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory named after `tag` and this process (the process
    /// id keeps test binaries running at once apart).
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

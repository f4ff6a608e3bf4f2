//! Output that appears under its final name only when complete.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::OutputError;

/// A temporary file next to the destination, renamed over it on
/// [`AtomicOutput::commit`] and deleted if dropped uncommitted — so a
/// conversion that fails half-way leaves no half-written output (and, in
/// append mode, leaves the original untouched).
pub struct AtomicOutput {
    final_path: PathBuf,
    temp_path: PathBuf,
    committed: bool,
}

impl AtomicOutput {
    /// Creates the temporary file. With `append`, an existing destination is
    /// copied into it first so the commit replaces it with old + new data.
    pub fn create(
        final_path: impl AsRef<Path>,
        append: bool,
    ) -> Result<(AtomicOutput, File), OutputError> {
        let final_path = final_path.as_ref().to_path_buf();
        let name = final_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".to_owned());
        let temp_path = final_path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let guard = AtomicOutput {
            final_path,
            temp_path,
            committed: false,
        };
        if append && guard.final_path.exists() {
            fs::copy(&guard.final_path, &guard.temp_path)
                .map_err(|e| OutputError::io(&guard.final_path, e))?;
        }
        let file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&guard.temp_path)
            .map_err(|e| OutputError::io(&guard.temp_path, e))?;
        if !append {
            file.set_len(0)
                .map_err(|e| OutputError::io(&guard.temp_path, e))?;
        }
        Ok((guard, file))
    }

    /// The destination path.
    pub fn final_path(&self) -> &Path {
        &self.final_path
    }

    /// The temporary path being written.
    pub fn temp_path(&self) -> &Path {
        &self.temp_path
    }

    /// Renames the temporary file to the destination.
    pub fn commit(mut self) -> Result<(), OutputError> {
        fs::rename(&self.temp_path, &self.final_path)
            .map_err(|e| OutputError::io(&self.final_path, e))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for AtomicOutput {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.temp_path);
        }
    }
}

/// Writes `bytes` to `path` through an [`AtomicOutput`]: readers see the old
/// file or the whole new one, never a half-written one (a net or checkpoint
/// interrupted by a signal or a full disk leaves the previous version).
pub fn write_atomic(path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), OutputError> {
    use std::io::Write;
    let (guard, mut file) = AtomicOutput::create(path, false)?;
    file.write_all(bytes)
        .and_then(|()| file.sync_data())
        .map_err(|e| OutputError::io(guard.temp_path(), e))?;
    drop(file);
    guard.commit()
}

//! Why an output path was refused or could not be written.

use std::path::PathBuf;

use thiserror::Error;

/// An output path that breaks the output rule, or a write that failed.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The output names a file that is also one of the command's inputs.
    #[error("{}: the output is also an input ({}); refusing to overwrite it", output.display(), input.display())]
    SameAsInput { output: PathBuf, input: PathBuf },
    /// The same file is named twice among the outputs.
    #[error("{}: named twice as an output", .0.display())]
    Duplicate(PathBuf),
    /// The output exists and neither `--force` nor `--append` was given.
    #[error("{}: already exists (use --force to replace it)", .0.display())]
    Exists(PathBuf),
    /// The output names a directory.
    #[error("{}: is a directory, not a file", .0.display())]
    IsDirectory(PathBuf),
    /// The folder that would hold the output does not exist.
    #[error("{}: the folder {} does not exist", path.display(), dir.display())]
    NoFolder { path: PathBuf, dir: PathBuf },
    /// The folder exists but a file cannot be created in it.
    #[error("{}: cannot create a file in {}: {error}", path.display(), dir.display())]
    NotWritable {
        path: PathBuf,
        dir: PathBuf,
        error: std::io::Error,
    },
    /// Writing, renaming or removing a file failed.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl OutputError {
    /// An I/O failure on `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> OutputError {
        OutputError::Io {
            path: path.into(),
            error,
        }
    }

    /// Whether the command line, not the machine, is at fault (exit status 2):
    /// everything but a failed write.
    pub fn is_usage(&self) -> bool {
        !matches!(
            self,
            OutputError::Io { .. } | OutputError::NotWritable { .. }
        )
    }
}

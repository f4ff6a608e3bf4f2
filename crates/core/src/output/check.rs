//! The checks every program makes on its output paths before it starts work.

use std::fs;
use std::path::{Path, PathBuf};

use super::OutputError;

/// What may happen to an output that already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputMode {
    /// Refuse it (the default: nothing a user owns is replaced by accident).
    #[default]
    Create,
    /// Replace it (`--force`).
    Replace,
    /// Add to it (`--append`, where the command supports it).
    Append,
}

/// The output rule for one command: its inputs and what may happen to
/// existing outputs. Build it from the command line, then [`check`] each
/// output before any work starts.
///
/// ```
/// use nnue_core::output::{OutputCheck, OutputMode};
/// let dir = std::env::temp_dir();
/// let check = OutputCheck::new(OutputMode::Create);
/// assert!(check.check(&dir.join("surely-not-there-yet.nnue")).is_ok());
/// assert!(check.check(&dir).is_err()); // a directory is never an output
/// ```
///
/// [`check`]: OutputCheck::check
#[derive(Debug, Clone, Default)]
pub struct OutputCheck {
    mode: OutputMode,
    inputs: Vec<PathBuf>,
}

impl OutputCheck {
    /// A check with no inputs yet.
    pub fn new(mode: OutputMode) -> OutputCheck {
        OutputCheck {
            mode,
            inputs: Vec::new(),
        }
    }

    /// The mode from the usual pair of flags (`--force` wins over nothing,
    /// `--append` over both).
    pub fn mode_from_flags(force: bool, append: bool) -> OutputMode {
        match (force, append) {
            (_, true) => OutputMode::Append,
            (true, false) => OutputMode::Replace,
            (false, false) => OutputMode::Create,
        }
    }

    /// Adds inputs that no output may overwrite.
    pub fn inputs<P: AsRef<Path>>(mut self, inputs: impl IntoIterator<Item = P>) -> OutputCheck {
        self.inputs
            .extend(inputs.into_iter().map(|p| p.as_ref().to_path_buf()));
        self
    }

    /// Checks one output: not an input, not a directory, not an existing file
    /// unless the mode allows it, and in a folder where a file can be created.
    pub fn check(&self, output: &Path) -> Result<(), OutputError> {
        if output.is_dir() {
            return Err(OutputError::IsDirectory(output.to_path_buf()));
        }
        if let Some(input) = self.inputs.iter().find(|i| same_file(i, output)) {
            return Err(OutputError::SameAsInput {
                output: output.to_path_buf(),
                input: input.clone(),
            });
        }
        if output.exists() && self.mode == OutputMode::Create {
            return Err(OutputError::Exists(output.to_path_buf()));
        }
        check_folder(output)
    }

    /// Checks several outputs, and that no file is named twice among them.
    pub fn check_all<P: AsRef<Path>>(
        &self,
        outputs: impl IntoIterator<Item = P>,
    ) -> Result<(), OutputError> {
        let mut seen: Vec<PathBuf> = Vec::new();
        for output in outputs {
            let output = output.as_ref();
            if seen.iter().any(|s| s == output || same_file(s, output)) {
                return Err(OutputError::Duplicate(output.to_path_buf()));
            }
            self.check(output)?;
            seen.push(output.to_path_buf());
        }
        Ok(())
    }
}

/// Whether two paths name one file: the same device and inode when both exist
/// (hard links, `./a` and `a`), else the same absolute path.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(ma), Ok(mb)) => same_inode(&ma, &mb),
        _ => absolute(a) == absolute(b),
    }
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The folder that will hold `output` exists and takes a new file (probed by
/// creating and removing one, as the atomic write will).
fn check_folder(output: &Path) -> Result<(), OutputError> {
    let dir = match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(OutputError::NoFolder {
            path: output.to_path_buf(),
            dir,
        });
    }
    let probe = dir.join(format!(".nnue-write-probe-{}", std::process::id()));
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(OutputError::NotWritable {
            path: output.to_path_buf(),
            dir,
            error,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nnue-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_input_is_never_an_output_even_with_force() {
        let dir = temp_dir("same");
        let data = dir.join("data.bin");
        fs::write(&data, b"x").unwrap();
        let check = OutputCheck::new(OutputMode::Replace).inputs([&data]);
        let spelled_otherwise = dir.join(".").join("data.bin");
        assert!(matches!(
            check.check(&spelled_otherwise),
            Err(OutputError::SameAsInput { .. })
        ));
        let linked = dir.join("link.bin");
        fs::hard_link(&data, &linked).unwrap();
        assert!(matches!(
            check.check(&linked),
            Err(OutputError::SameAsInput { .. })
        ));
    }

    #[test]
    fn an_existing_output_needs_force_or_append() {
        let dir = temp_dir("exists");
        let out = dir.join("out.nnue");
        fs::write(&out, b"x").unwrap();
        assert!(matches!(
            OutputCheck::new(OutputMode::Create).check(&out),
            Err(OutputError::Exists(_))
        ));
        assert!(OutputCheck::new(OutputMode::Replace).check(&out).is_ok());
        assert!(OutputCheck::new(OutputMode::Append).check(&out).is_ok());
    }

    #[test]
    fn a_missing_folder_is_named_before_any_work() {
        let dir = temp_dir("nofolder");
        let err = OutputCheck::default()
            .check(&dir.join("nodir").join("o.nnue"))
            .unwrap_err();
        assert!(matches!(err, OutputError::NoFolder { .. }), "{err}");
        assert!(err.to_string().contains("nodir"), "{err}");
    }

    #[test]
    fn the_same_output_twice_is_refused() {
        let dir = temp_dir("twice");
        let out = dir.join("o.csv");
        let err = OutputCheck::default()
            .check_all([&out, &dir.join(".").join("o.csv")])
            .unwrap_err();
        assert!(matches!(err, OutputError::Duplicate(_)), "{err}");
    }
}

//! Opening an input data file, with the same errors for every reader.

use std::fs::File;
use std::path::Path;

use super::error::DataError;

/// Opens `path` for reading. A directory is refused by name: on Unix it opens
/// like a file, and reading it would fail later with a less helpful message (or,
/// for a memory map, look like a truncated `.bin`).
pub fn open_data_file(path: &Path) -> Result<File, DataError> {
    let file = File::open(path).map_err(|e| DataError::io(path, e))?;
    let meta = file.metadata().map_err(|e| DataError::io(path, e))?;
    if meta.is_dir() {
        return Err(DataError::IsDirectory {
            file: path.to_path_buf(),
        });
    }
    Ok(file)
}

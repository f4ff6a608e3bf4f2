//! The file names of a run, checked before any work as the README's exit
//! statuses promise: every training and validation file names a data format by
//! its extension (an unsupported one is a usage error, status 2, reported before
//! the first line of training, not after the data is opened), and the net is
//! written under `.nnue`, never under a data extension such as `.bin` where a
//! later command would take it for training data.

use std::path::Path;

use nnue_core::data::{DataError, DataFormat};

use super::config::{TrainConfig, ValidationSource};
use crate::error::LearnError;

/// The extension of every net the trainer writes.
pub const NET_EXTENSION: &str = "nnue";

/// Refuses an input without a data format's extension and an output net
/// without `.nnue`; a directory given as an input stays a failure (status 1).
pub fn check_file_names(config: &TrainConfig) -> Result<(), LearnError> {
    let validation = match &config.validation {
        ValidationSource::Files(files) => files.as_slice(),
        ValidationSource::HeldOut(_) => &[],
    };
    for input in config.train.iter().chain(validation) {
        check_input(input)?;
    }
    check_net(&config.output_net)
}

fn check_input(path: &Path) -> Result<(), LearnError> {
    match DataFormat::from_path(path) {
        Ok(_) => Ok(()),
        Err(e @ DataError::UnsupportedExtension(_)) => Err(LearnError::Usage(e.to_string())),
        Err(e) => Err(e.into()),
    }
}

fn check_net(path: &Path) -> Result<(), LearnError> {
    if path.extension().is_some_and(|e| e == NET_EXTENSION) {
        return Ok(());
    }
    Err(LearnError::Usage(format!(
        "{}: --output-net must name a .{NET_EXTENSION} file (the trainer writes a net, not training data)",
        path.display()
    )))
}

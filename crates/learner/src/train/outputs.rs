//! The output rule for a training run (see [`nnue_core::output`]): every file
//! the run will write — the net, its CSV and plot, the checkpoint and the
//! per-epoch nets — is checked before any data is read, so a mistyped path is
//! reported at once instead of after hours of training, and no input file
//! (`--train`, `--validation`, `--init-net`) can be overwritten, even with
//! `--force`. A resumed run may replace the files of the run it continues: the
//! checkpoint, the per-epoch nets, the CSV and the plot.

use std::path::{Path, PathBuf};

use nnue_core::output::{OutputCheck, OutputError, OutputMode};

use super::config::{TrainConfig, ValidationSource};
use crate::checkpoint;
use crate::error::LearnError;

/// The files the run reads, which no output may name.
fn inputs(config: &TrainConfig) -> Vec<PathBuf> {
    let mut inputs = config.train.clone();
    if let ValidationSource::Files(files) = &config.validation {
        inputs.extend(files.iter().cloned());
    }
    inputs.extend(config.init_net.iter().cloned());
    inputs
}

/// The epoch of a per-epoch net's file name (`epoch-7.nnue` is 7).
fn epoch_of(name: &std::ffi::OsStr) -> Option<u64> {
    let name = name.to_str()?;
    name.strip_prefix("epoch-")?
        .strip_suffix(".nnue")?
        .parse()
        .ok()
}

/// Whether the run may save the net of `epoch` (epoch 0 only when `--epochs
/// 0`; a newbob stop can end the run at any epoch).
fn may_save(config: &TrainConfig, epoch: u64) -> bool {
    epoch <= config.epochs && (epoch > 0 || config.epochs == 0)
}

/// The per-epoch nets the run may replace that exist already, and the outputs
/// outside them that name one the run may write. Listing the directory keeps
/// this linear in its size, whatever `--epochs` is.
fn epoch_nets(config: &TrainConfig, dir: &Path) -> Result<Vec<PathBuf>, LearnError> {
    for path in [&config.output_net, &config.csv, &config.plot] {
        let inside = path.parent().is_some_and(|p| same_dir(p, dir));
        let epoch = path.file_name().and_then(epoch_of);
        if inside && epoch.is_some_and(|e| may_save(config, e)) {
            return Err(OutputError::Duplicate(path.clone()).into());
        }
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| LearnError::io(dir, "cannot list directory", e))?;
    let mut existing = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| LearnError::io(dir, "cannot list directory", e))?;
        let name = entry.file_name();
        if epoch_of(&name).is_some_and(|e| may_save(config, e)) {
            existing.push(dir.join(name));
        }
    }
    existing.sort();
    Ok(existing)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Removes the per-epoch nets in `dir` older than `latest` that the run may
/// have written (see [`may_save`]), except every `--keep-epoch-nets`-th: by
/// default a run keeps one epoch net, not one per epoch (60 files for 60
/// epochs). Called once the net of `latest` and its checkpoint are saved, so a
/// run killed at any point still has a net and a checkpoint to resume from.
pub fn remove_older_epoch_nets(
    config: &TrainConfig,
    dir: &Path,
    latest: u64,
) -> Result<(), LearnError> {
    let kept =
        |epoch: u64| config.keep_epoch_nets > 0 && epoch.is_multiple_of(config.keep_epoch_nets);
    for path in epoch_nets(config, dir)? {
        let epoch = path.file_name().and_then(epoch_of);
        if epoch.is_some_and(|e| e < latest && !kept(e)) {
            std::fs::remove_file(&path)
                .map_err(|e| LearnError::io(&path, "cannot remove an older epoch net", e))?;
        }
    }
    Ok(())
}

/// The file name of the net saved after `epoch`.
pub fn epoch_net_name(epoch: u64) -> String {
    format!("epoch-{epoch}.nnue")
}

/// Checks every output of `config` and creates the checkpoint directory.
/// Refusals are usage errors (exit status 2) naming the path.
pub fn prepare_outputs(config: &TrainConfig) -> Result<(), LearnError> {
    let fresh = OutputCheck::mode_from_flags(config.force, false);
    let own = if config.resume {
        OutputMode::Replace
    } else {
        fresh
    };
    let inputs = inputs(config);
    let check = |mode| OutputCheck::new(mode).inputs(&inputs);
    check(fresh).check(&config.output_net)?;
    check(own).check_all([&config.csv, &config.plot])?;
    let Some(dir) = &config.checkpoint_dir else {
        return Ok(check(OutputMode::Replace).check_all([
            &config.output_net,
            &config.csv,
            &config.plot,
        ])?);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| LearnError::io(dir, "cannot create checkpoint directory", e))?;
    let mut in_dir = vec![checkpoint::path_in(dir)];
    in_dir.extend(epoch_nets(config, dir)?);
    check(own).check_all(&in_dir)?;
    let mut all = vec![
        config.output_net.clone(),
        config.csv.clone(),
        config.plot.clone(),
    ];
    all.extend(in_dir);
    Ok(check(OutputMode::Replace).check_all(&all)?)
}

//! Checkpoints: everything a run needs to continue exactly where it stopped —
//! weights, optimizer state, schedule, data stream position, step count, the
//! newbob snapshot and the per-epoch history. Written to a temporary file and
//! renamed, so an interrupted save never leaves a broken checkpoint behind.

pub mod codec;

use std::path::{Path, PathBuf};

use codec::{Reader, Writer};

use crate::data::StreamState;
use crate::error::LearnError;
use crate::loss::Figures;
use crate::model::Model;
use crate::optim::ScheduleState;
use crate::train::history::EpochRow;
use crate::train::slots::ModelSlots;

/// First bytes of a checkpoint file.
const MAGIC: &[u8; 16] = b"NNUE-LEARN-CKPT\0";
/// Format version.
const VERSION: u32 = 1;
/// File name inside `--checkpoint-dir`.
pub const FILE_NAME: &str = "checkpoint.bin";

/// What must match for a checkpoint to be resumed by this run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity {
    /// Model shape (architecture and factoriser).
    pub model: String,
    pub optimizer: String,
    pub batch_size: u64,
    pub epoch_size: u64,
    /// `--seed` (random skipping draws from it; the stream's own state is saved).
    pub seed: u64,
}

/// Weights plus their optimizer state.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub model: Model,
    pub slots: ModelSlots,
}

/// A run's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub identity: RunIdentity,
    pub current: Weights,
    /// The weights at the start of the epoch (newbob rolls back to them).
    pub snapshot: Option<Weights>,
    pub schedule: ScheduleState,
    pub stream: StreamState,
    /// Optimiser steps so far.
    pub steps: u64,
    /// Positions trained in the current epoch.
    pub epoch_positions: u64,
    /// Positions trained in the run.
    pub positions: u64,
    /// Summed training figures of the current epoch and their position count.
    pub epoch_learn: (Figures, u64),
    pub history: Vec<EpochRow>,
}

/// `dir/checkpoint.bin`.
pub fn path_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

fn write_weights(w: &mut Writer, weights: &Weights) {
    let (m, s) = (&weights.model, &weights.slots);
    w.f32s(&m.ft_w);
    w.f32s(&m.ft_b);
    for d in &m.dense {
        w.f32s(&d.wt);
        w.f32s(&d.b);
    }
    for slot in [&s.ft_w, &s.ft_b]
        .into_iter()
        .chain(s.dense.iter().flat_map(|(a, b)| [a, b]))
    {
        w.f32s(&slot.m);
        w.f32s(&slot.v);
    }
}

/// Reads weights into copies of `template` (which fixes every shape).
fn read_weights(r: &mut Reader<'_>, template: &Weights) -> Result<Weights, String> {
    let mut out = template.clone();
    let m = &mut out.model;
    m.ft_w = r.tensor(m.ft_w.len(), "transformer weights")?;
    m.ft_b = r.tensor(m.ft_b.len(), "transformer biases")?;
    for d in &mut m.dense {
        d.wt = r.tensor(d.wt.len(), "dense weights")?;
        d.b = r.tensor(d.b.len(), "dense biases")?;
    }
    let s = &mut out.slots;
    for slot in [&mut s.ft_w, &mut s.ft_b]
        .into_iter()
        .chain(s.dense.iter_mut().flat_map(|(a, b)| [a, b]))
    {
        slot.m = r.tensor(slot.m.len(), "optimizer state")?;
        slot.v = r.tensor(slot.v.len(), "optimizer state")?;
    }
    Ok(out)
}

impl Checkpoint {
    /// Serialises the checkpoint.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.bytes.extend_from_slice(MAGIC);
        w.u32(VERSION);
        let id = &self.identity;
        w.str(&id.model);
        w.str(&id.optimizer);
        w.u64(id.batch_size);
        w.u64(id.epoch_size);
        w.u64(id.seed);
        let s = &self.schedule;
        w.u64(s.epoch);
        w.f64(s.lr);
        w.f64(s.best_loss.unwrap_or(f64::NAN));
        w.u32(s.rejections);
        w.u64(self.steps);
        w.u64(self.epoch_positions);
        w.u64(self.positions);
        w.f64s(&self.epoch_learn.0.to_values());
        w.u64(self.epoch_learn.1);
        let st = &self.stream;
        w.u64(st.pass);
        w.u64(st.drawn);
        w.u64(st.rng);
        w.u64s(&st.cursors);
        w.u64s(&st.buffer);
        let flat: Vec<u64> = st.pending.iter().flat_map(|&(a, b)| [a, b]).collect();
        w.u64s(&flat);
        w.u64(self.history.len() as u64);
        for row in &self.history {
            w.f64s(&row.to_values());
        }
        write_weights(&mut w, &self.current);
        w.u8(u8::from(self.snapshot.is_some()));
        if let Some(snap) = &self.snapshot {
            write_weights(&mut w, snap);
        }
        w.bytes
    }

    /// Parses a checkpoint for a run that looks like `identity` with weights
    /// shaped like `template`. Any difference is an error that says what differs.
    pub fn from_bytes(
        bytes: &[u8],
        identity: &RunIdentity,
        template: &Weights,
    ) -> Result<Checkpoint, String> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not an nnue-learn checkpoint (bad magic bytes)".into());
        }
        let mut r = Reader::new(&bytes[MAGIC.len()..]);
        let version = r.u32("version")?;
        if version != VERSION {
            return Err(format!(
                "checkpoint version {version}, this build reads {VERSION}"
            ));
        }
        let found = RunIdentity {
            model: r.str("model")?,
            optimizer: r.str("optimizer")?,
            batch_size: r.u64("batch size")?,
            epoch_size: r.u64("epoch size")?,
            seed: r.u64("seed")?,
        };
        check_identity(&found, identity)?;
        let schedule = ScheduleState {
            epoch: r.u64("epoch")?,
            lr: r.f64("learning rate")?,
            best_loss: Some(r.f64("best loss")?).filter(|v| !v.is_nan()),
            rejections: r.u32("rejections")?,
        };
        let steps = r.u64("steps")?;
        let epoch_positions = r.u64("epoch positions")?;
        let positions = r.u64("positions")?;
        let sums: [f64; 7] = r
            .f64s("epoch figures")?
            .try_into()
            .map_err(|_| "epoch figures: expected 7 values".to_string())?;
        let epoch_learn = (Figures::from_values(sums), r.u64("epoch figure count")?);
        let pass = r.u64("stream pass")?;
        let drawn = r.u64("stream draws")?;
        let rng = r.u64("stream rng")?;
        let cursors = r.u64s("stream cursors")?;
        let buffer = r.u64s("shuffle buffer")?;
        let flat = r.u64s("pending draws")?;
        let pending = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let rows = r.u64("history length")?;
        let mut history = Vec::new();
        for _ in 0..rows {
            history.push(EpochRow::from_values(&r.f64s("history row")?)?);
        }
        let current = read_weights(&mut r, template)?;
        let snapshot = match r.u8("snapshot flag")? {
            0 => None,
            _ => Some(read_weights(&mut r, template)?),
        };
        if !r.at_end() {
            return Err("trailing bytes after the checkpoint".into());
        }
        Ok(Checkpoint {
            identity: found,
            current,
            snapshot,
            schedule,
            stream: StreamState {
                pass,
                drawn,
                rng,
                cursors,
                buffer,
                pending,
            },
            steps,
            epoch_positions,
            positions,
            epoch_learn,
            history,
        })
    }

    /// Writes the checkpoint to `dir` atomically.
    pub fn save(&self, dir: &Path) -> Result<(), LearnError> {
        write_atomic(&path_in(dir), &self.to_bytes())
    }

    /// Loads the checkpoint in `dir` for this run.
    pub fn load(
        dir: &Path,
        identity: &RunIdentity,
        template: &Weights,
    ) -> Result<Checkpoint, LearnError> {
        let path = path_in(dir);
        let bytes =
            std::fs::read(&path).map_err(|e| LearnError::io(&path, "cannot read checkpoint", e))?;
        Checkpoint::from_bytes(&bytes, identity, template).map_err(|problem| {
            LearnError::Checkpoint {
                path,
                problem: format!("cannot --resume: {problem}"),
            }
        })
    }
}

fn check_identity(found: &RunIdentity, wanted: &RunIdentity) -> Result<(), String> {
    let differ = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
        Err(format!("the checkpoint's {what} is {a}, this run's is {b}"))
    };
    if found.model != wanted.model {
        return differ("model", &found.model, &wanted.model);
    }
    if found.optimizer != wanted.optimizer {
        return differ("optimizer", &found.optimizer, &wanted.optimizer);
    }
    if found.batch_size != wanted.batch_size {
        return differ("batch size", &found.batch_size, &wanted.batch_size);
    }
    if found.epoch_size != wanted.epoch_size {
        return differ("epoch size", &found.epoch_size, &wanted.epoch_size);
    }
    if found.seed != wanted.seed {
        return differ("seed", &found.seed, &wanted.seed);
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LearnError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| LearnError::io(&tmp, "cannot write file", e))?;
    std::fs::rename(&tmp, path).map_err(|e| LearnError::io(path, "cannot write file", e))
}

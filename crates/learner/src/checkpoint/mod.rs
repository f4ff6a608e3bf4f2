//! Checkpoints: everything a run needs to continue exactly where it stopped —
//! weights, optimizer state, schedule, data stream position, step count, the
//! newbob snapshot and the per-epoch history, plus the run's settings so that
//! `--resume` can name every option that differs. Written through
//! [`nnue_core::output::write_atomic`], so an interrupted save never leaves a
//! broken checkpoint behind.

pub mod codec;
pub mod fields;

use std::path::{Path, PathBuf};

use codec::{CodecError, Reader, Writer};
use nnue_core::cli::quote::one_line;
use nnue_core::output::write_atomic;

use crate::data::StreamState;
use crate::error::LearnError;
use crate::history::EpochRow;
use crate::loss::Figures;
use crate::model::Model;
use crate::optim::slots::ModelSlots;
use crate::optim::ScheduleState;

/// First bytes of a checkpoint file.
const MAGIC: &[u8; 16] = b"NNUE-LEARN-CKPT\0";
/// Format version (2: the run's settings replace version 1's five identity fields).
const VERSION: u32 = 2;
/// File name inside `--checkpoint-dir`.
pub const FILE_NAME: &str = "checkpoint.bin";
/// Fewest bytes of a history row: its length.
const ROW_MIN_LEN: usize = 8;

/// The options of the run that wrote a checkpoint, as `(option, value)` pairs
/// (`("--lr", "0.001")`), compared with the resuming command line's.
pub type Settings = Vec<(String, String)>;

/// Weights plus their optimizer state.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub model: Model,
    pub slots: ModelSlots,
}

/// A run's whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub settings: Settings,
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

/// Most characters of a saved setting an error message shows: more than any
/// run's own settings (a `--train` list of long paths), far less than a
/// damaged length may claim.
const SHOWN_CHARS: usize = 2000;

/// A setting's saved text as an error quotes it: on one line, cut
/// ([`one_line`]), since a damaged checkpoint may hold any text.
pub fn shown(text: &str) -> String {
    one_line(text, SHOWN_CHARS)
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
fn read_weights(r: &mut Reader<'_>, template: &Weights) -> Result<Weights, CodecError> {
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
        fields::write_start(&mut w, MAGIC, VERSION, &self.settings);
        fields::write_schedule(&mut w, &self.schedule);
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

    /// The settings saved in a checkpoint, read without its weights (so that a
    /// run of another shape learns what differs rather than "wrong size").
    pub fn settings_of(bytes: &[u8]) -> Result<Settings, CodecError> {
        fields::read_settings(&mut header(bytes)?)
    }

    /// Parses a checkpoint with weights shaped like `template`.
    pub fn from_bytes(bytes: &[u8], template: &Weights) -> Result<Checkpoint, CodecError> {
        let mut r = header(bytes)?;
        let settings = fields::read_settings(&mut r)?;
        let schedule = fields::read_schedule(&mut r, "epoch")?;
        let steps = r.counter("steps")?;
        let epoch_positions = r.counter("epoch positions")?;
        let positions = r.counter("positions")?;
        let epoch_learn = read_epoch_learn(&mut r)?;
        let stream = read_stream(&mut r)?;
        let rows = r.count(ROW_MIN_LEN, "history length")?;
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
            return Err(CodecError::Trailing);
        }
        Ok(Checkpoint {
            settings,
            current,
            snapshot,
            schedule,
            stream,
            steps,
            epoch_positions,
            positions,
            epoch_learn,
            history,
        })
    }

    /// Writes the checkpoint to `dir` atomically.
    pub fn save(&self, dir: &Path) -> Result<(), LearnError> {
        Ok(write_atomic(path_in(dir), &self.to_bytes())?)
    }

    /// Reads the bytes of the checkpoint in `dir`.
    pub fn read(dir: &Path) -> Result<(PathBuf, Vec<u8>), LearnError> {
        let path = path_in(dir);
        let bytes =
            std::fs::read(&path).map_err(|e| LearnError::io(&path, "cannot read checkpoint", e))?;
        Ok((path, bytes))
    }
}

/// A reader after this file kind's magic bytes and version, both checked.
fn header(bytes: &[u8]) -> Result<Reader<'_>, CodecError> {
    Reader::after_header(bytes, MAGIC, VERSION)
}

/// The summed training figures of the current epoch and their count.
fn read_epoch_learn(r: &mut Reader<'_>) -> Result<(Figures, u64), CodecError> {
    let values = r.f64s("epoch figures")?;
    let found = values.len();
    let sums: [f64; 7] = values.try_into().map_err(|_| CodecError::Count {
        what: "epoch figures",
        found,
        expected: 7,
    })?;
    Ok((Figures::from_values(sums), r.counter("epoch figure count")?))
}

fn read_stream(r: &mut Reader<'_>) -> Result<StreamState, CodecError> {
    let pass = r.counter("stream pass")?;
    let drawn = r.counter("stream draws")?;
    let rng = r.u64("stream rng")?;
    let cursors = r.u64s("stream cursors")?;
    let buffer = r.u64s("shuffle buffer")?;
    let flat = r.u64s("pending draws")?;
    let pending = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
    Ok(StreamState {
        pass,
        drawn,
        rng,
        cursors,
        buffer,
        pending,
    })
}

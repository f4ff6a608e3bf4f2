//! Checkpoints of `nnue-learn train --preset sf15.1`: the float model, the
//! optimizer state, the loop's position (epoch, positions and draws so far, the
//! cursor in the shuffled order) and the schedule, plus the run's settings. The
//! shuffle and the filter are pure functions of the seed, the epoch and the draw
//! count, so these numbers reproduce the data order exactly: a resumed run
//! writes the same net as one that was never stopped. Fields are encoded with
//! [`crate::checkpoint::codec`] and written through
//! [`nnue_core::output::write_atomic`] (temp file + rename).

use std::path::{Path, PathBuf};

use nnue_core::output::write_atomic;

use super::model::HalfKaModel;
use super::optimizer::HalfKaSlots;
use super::trainer::HalfKaRun;
use crate::checkpoint::codec::{CodecError, Reader, Writer};
use crate::checkpoint::{fields, shown};
use crate::error::LearnError;
use crate::optim::{ScheduleState, Slots};

/// First bytes of a HalfKAv2_hm checkpoint (not the HalfKP/All trainer's).
const MAGIC: &[u8; 16] = b"NNUE-HALFKA-CKPT";
/// Format version.
const VERSION: u32 = 1;
/// File name inside `--checkpoint-dir`.
pub const FILE_NAME: &str = "halfka-checkpoint.bin";

/// Where the loop stands: everything but the weights and the optimizer state.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The epoch in progress (1-based); its shuffle is replayed on resume.
    pub epoch: u64,
    /// Summed training loss and accepted positions of that epoch so far.
    pub epoch_loss: f64,
    pub epoch_positions: u64,
    /// Index into the shuffled order, and filter draws so far (the filter's
    /// random state).
    pub cursor: u64,
    pub draws: u64,
    pub trained: u64,
    pub batches: u64,
    pub schedule: ScheduleState,
    /// Validation losses reported so far.
    pub val_losses: Vec<f64>,
}

/// The options that decide the trained net, as `(name, value)` pairs.
fn settings(run: &HalfKaRun) -> Vec<(&'static str, String)> {
    vec![
        ("--train", format!("{:?}", run.train)),
        ("--ft-size", run.width.to_string()),
        ("factorize", run.factorize.to_string()),
        ("--epochs", run.epochs.to_string()),
        ("--epoch-size", run.epoch_size.to_string()),
        ("--batch-size", run.batch_size.to_string()),
        ("schedule", format!("{:?}", run.schedule)),
        ("--optimizer", format!("{:?}", run.optimizer)),
        ("--loss", format!("{:?}", run.loss)),
        ("--lambda", run.power_lambda.to_string()),
        ("filter", format!("{:?}", run.filter)),
        ("--validation-fraction", run.validation_fraction.to_string()),
        ("--validation-count", run.validation_count.to_string()),
        ("--seed", run.seed.to_string()),
        ("--skip-invalid", run.skip_invalid.to_string()),
    ]
}

/// `dir/halfka-checkpoint.bin`.
pub fn path_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// Every tensor of the model and its optimizer slots, in file order.
fn tensors<'a>(
    m: &'a mut HalfKaModel,
    s: &'a mut HalfKaSlots,
) -> Vec<(&'static str, &'a mut Vec<f32>)> {
    let mut out: Vec<(&'static str, &'a mut Vec<f32>)> = vec![
        ("transformer weights", &mut m.ft_w),
        ("transformer biases", &mut m.ft_b),
        ("PSQT weights", &mut m.psqt),
    ];
    for st in &mut m.stacks {
        for d in [&mut st.fc0, &mut st.fc1, &mut st.fc2] {
            out.push(("stack weights", &mut d.wt));
            out.push(("stack biases", &mut d.b));
        }
    }
    let slots = [&mut s.ft_w, &mut s.ft_b, &mut s.psqt].into_iter().chain(
        s.stacks
            .iter_mut()
            .flat_map(|l| l.iter_mut().flat_map(|d| [&mut d.wt, &mut d.b])),
    );
    for Slots { m, v } in slots {
        out.push(("optimizer state", m));
        out.push(("optimizer state", v));
    }
    out
}

/// Writes the checkpoint of `run` into `dir` atomically.
pub fn save(
    dir: &Path,
    run: &HalfKaRun,
    (model, slots): (&HalfKaModel, &HalfKaSlots),
    at: &Position,
) -> Result<(), LearnError> {
    let mut w = Writer::default();
    fields::write_start(&mut w, MAGIC, VERSION, &settings(run));
    for v in [
        at.epoch,
        at.epoch_positions,
        at.cursor,
        at.draws,
        at.trained,
    ] {
        w.u64(v);
    }
    w.u64(at.batches);
    w.f64(at.epoch_loss);
    fields::write_schedule(&mut w, &at.schedule);
    w.f64s(&at.val_losses);
    w.u64(slots.t);
    let (mut m, mut s) = (model.clone(), slots.clone());
    for (_, t) in tensors(&mut m, &mut s) {
        w.f32s(t);
    }
    std::fs::create_dir_all(dir).map_err(|e| LearnError::io(dir, "cannot create", e))?;
    Ok(write_atomic(path_in(dir), &w.bytes)?)
}

/// Reads the checkpoint in `dir` into `model` and `slots` (shaped by `run`),
/// refusing a damaged file or one of other settings with a one-line error.
pub fn load(
    dir: &Path,
    run: &HalfKaRun,
    model: &mut HalfKaModel,
    slots: &mut HalfKaSlots,
) -> Result<Position, LearnError> {
    let path = path_in(dir);
    let bytes =
        std::fs::read(&path).map_err(|e| LearnError::io(&path, "cannot read checkpoint", e))?;
    load_bytes(&bytes, &path, run, model, slots)
}

/// [`load`] of a checkpoint's `bytes`, named `path` in errors (the fuzz target
/// and the property tests give it damaged copies without writing files).
pub fn load_bytes(
    bytes: &[u8],
    path: &Path,
    run: &HalfKaRun,
    model: &mut HalfKaModel,
    slots: &mut HalfKaSlots,
) -> Result<Position, LearnError> {
    let damaged = |problem| LearnError::Checkpoint {
        path: path.to_path_buf(),
        problem,
    };
    let mut r = header(bytes).map_err(damaged)?;
    let differences = compare(&mut r, run).map_err(damaged)?;
    if !differences.is_empty() {
        return Err(LearnError::ResumeMismatch {
            path: path.to_path_buf(),
            differences,
            forceable: false,
        });
    }
    read_rest(&mut r, model, slots).map_err(damaged)
}

/// A reader after this file kind's magic bytes and version, both checked.
fn header(bytes: &[u8]) -> Result<Reader<'_>, CodecError> {
    Reader::after_header(bytes, MAGIC, VERSION)
}

/// The saved settings that differ from `run`'s, each as `name saved X, now Y`.
fn compare(r: &mut Reader<'_>, run: &HalfKaRun) -> Result<Vec<String>, CodecError> {
    let saved = fields::read_settings(r)?;
    let now = settings(run);
    let mut differences = Vec::new();
    for (name, value) in &now {
        match saved.iter().find(|(s, _)| s == name) {
            Some((_, old)) if old == value => {}
            Some((_, old)) => differences.push(format!("{name} was {}, now {value}", shown(old))),
            None => differences.push(format!("{name} not recorded")),
        }
    }
    Ok(differences)
}

/// The loop's position, then the tensors (each of the shape `model` has).
fn read_rest(
    r: &mut Reader<'_>,
    model: &mut HalfKaModel,
    slots: &mut HalfKaSlots,
) -> Result<Position, CodecError> {
    let epoch = r.counter("epoch")?;
    let epoch_positions = r.counter("epoch positions")?;
    let cursor = r.counter("cursor")?;
    let draws = r.counter("draws")?;
    let trained = r.counter("positions trained")?;
    let batches = r.counter("batches")?;
    let epoch_loss = r.f64("epoch loss")?;
    let schedule = fields::read_schedule(r, "schedule epoch")?;
    let val_losses = r.f64s("validation losses")?;
    slots.t = r.counter("optimizer steps")?;
    for (what, t) in tensors(model, slots) {
        *t = r.tensor(t.len(), what)?;
    }
    if !r.at_end() {
        return Err(CodecError::Trailing);
    }
    Ok(Position {
        epoch,
        epoch_loss,
        epoch_positions,
        cursor,
        draws,
        trained,
        batches,
        schedule,
        val_losses,
    })
}

//! The training loop of `nnue-learn train --preset sf15.1`: minibatches drawn from
//! a seeded shuffle of the training records, the loss of `--loss` on the value
//! in internal units, Adam (or `--optimizer`) on the rows a batch touched, the
//! validation loss before training and after every epoch, and the quantized net
//! written in 15.1's layout at the end. Single-threaded and simple: the point is
//! a net 15.1 evaluates exactly as our engine does, not speed.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use nnue_core::nnue::halfka::shape::STACKS;
use nnue_core::output::{write_atomic, OutputCheck};

use super::checkpoint::{self, Position};
use super::features::Sample;
use super::gradients::Gradients;
use super::model::{HalfKaModel, Trace};
use super::optimizer::HalfKaSlots;
use super::quantize::quantize;
use crate::data::batch::target_of;
use crate::data::{DataSource, Filter, PositionSource, SourceOptions};
use crate::error::LearnError;
use crate::loss::LossParams;
use crate::model::init::uniform;
use crate::optim::{Optimizer, Schedule};

/// What a HalfKAv2_hm run needs.
#[derive(Clone, Debug)]
pub struct HalfKaRun {
    pub train: Vec<PathBuf>,
    pub output_net: PathBuf,
    /// Transformer width per perspective (a multiple of 64).
    pub width: usize,
    pub factorize: bool,
    pub epochs: u64,
    pub epoch_size: u64,
    pub batch_size: usize,
    /// The learning rate's curve (newbob's rejections are not supported).
    pub schedule: Schedule,
    pub optimizer: Optimizer,
    pub loss: LossParams,
    /// λ of the power loss.
    pub power_lambda: f64,
    pub filter: Filter,
    /// Share of each file's records held out (its last ones).
    pub validation_fraction: f64,
    /// Most validation positions evaluated per report.
    pub validation_count: usize,
    pub seed: u64,
    pub force: bool,
    pub skip_invalid: bool,
    /// Testing: stop as if interrupted after this many batches.
    pub stop_after_batches: Option<u64>,
    /// Where a checkpoint is written after each epoch and on an interruption.
    pub checkpoint_dir: Option<PathBuf>,
    /// Continue from the checkpoint in `checkpoint_dir`.
    pub resume: bool,
}

/// What a finished run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct HalfKaOutcome {
    /// Validation loss before training and after each epoch.
    pub val_losses: Vec<f64>,
    /// Positions trained on.
    pub trained: u64,
    /// Parameters clamped by quantization.
    pub clamped: u64,
    pub seconds: f64,
    /// Bytes written.
    pub bytes: usize,
    /// Whether `stop` ended the run early (the net is still written).
    pub interrupted: bool,
}

/// Training and validation indices: the last `fraction` of each file is held out.
fn split(ranges: &[Range<u64>], fraction: f64) -> (Vec<u64>, Vec<u64>) {
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for r in ranges {
        let held = ((r.end - r.start) as f64 * fraction).ceil() as u64;
        let cut = r.end - held.min(r.end - r.start);
        train.extend(r.start..cut);
        val.extend(cut..r.end);
    }
    (train, val)
}

/// A seeded Fisher-Yates shuffle (the same on every machine).
fn shuffle(items: &mut [u64], seed: u64, epoch: u64) {
    for i in (1..items.len()).rev() {
        let u = (uniform(seed, 1000 + epoch, i as u64) + 1.0) / 2.0;
        let j = ((u * (i + 1) as f32) as usize).min(i);
        items.swap(i, j);
    }
}

/// The mean loss over at most `count` of `indices`, evenly spaced.
fn validation_loss(
    model: &HalfKaModel,
    source: &DataSource,
    indices: &[u64],
    run: &HalfKaRun,
) -> Result<f64, LearnError> {
    let (mut sum, mut n) = (0.0, 0u64);
    let mut t = model.trace();
    let step = indices.len().div_ceil(run.validation_count.max(1)).max(1);
    let filter = run.filter.deterministic();
    for (k, &i) in indices.iter().step_by(step).enumerate() {
        let record = source.record(i)?;
        if !filter.accepts(&record, k as u64) {
            continue;
        }
        let s = Sample::of(model.rows, &record.position.board, record.position.turn);
        let v = model.forward(&s.us, &s.them, s.stack, &mut t);
        sum += run
            .loss
            .eval(f64::from(v), target_of(&record), run.power_lambda)
            .0;
        n += 1;
    }
    Ok(if n == 0 { f64::NAN } else { sum / n as f64 })
}

/// Trains, reporting to `out`, and writes the net. `stop` (set by Ctrl-C) ends
/// the run after the current batch, and the net trained so far is written
/// (with `checkpoint_dir`, a checkpoint too, which `resume` continues from).
pub fn train_halfka(
    run: &HalfKaRun,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> Result<HalfKaOutcome, LearnError> {
    let started = Instant::now();
    // A resumed run replaces the net of the run it continues.
    let mode = OutputCheck::mode_from_flags(run.force || run.resume, false);
    OutputCheck::new(mode)
        .inputs(&run.train)
        .check(&run.output_net)?;
    let options = SourceOptions {
        skip_invalid: run.skip_invalid,
        progress: false,
    };
    let source = DataSource::open(&run.train, options)?;
    if source.is_empty() {
        return Err(source.no_records());
    }
    let (mut order, val) = split(&source.file_ranges(), run.validation_fraction);
    if order.is_empty() {
        return Err(source.no_records());
    }
    let mut model = HalfKaModel::new(run.width, run.factorize, run.seed);
    let mut state = LoopState::new(&model, run);
    if run.resume {
        let dir = run
            .checkpoint_dir
            .as_deref()
            .ok_or_else(|| LearnError::Usage("--resume needs --checkpoint-dir".into()))?;
        let at = checkpoint::load(dir, run, &mut model, &mut state.slots)?;
        let line = format!(
            "resumed from {} in epoch {}, {} positions trained",
            checkpoint::path_in(dir).display(),
            at.epoch,
            at.trained
        );
        report(out, &line)?;
        state.restore(at);
    }
    run_epochs(
        &mut model,
        &mut state,
        (&source, &mut order, &val),
        run,
        stop,
        out,
    )?;
    let description = format!(
        "nnue-learn HalfKAv2_hm {}x2-16-32-1 x{STACKS}, seed {}, {} epochs of {}",
        run.width, run.seed, run.epochs, run.epoch_size
    );
    let (net, clamped) = quantize(&model, &description);
    let bytes = net.to_bytes();
    write_atomic(&run.output_net, &bytes)?;
    Ok(HalfKaOutcome {
        val_losses: state.at.val_losses,
        trained: state.at.trained,
        clamped,
        seconds: started.elapsed().as_secs_f64(),
        bytes: bytes.len(),
        interrupted: state.interrupted,
    })
}

/// Writes one report line.
fn report(out: &mut dyn Write, line: &str) -> Result<(), LearnError> {
    writeln!(out, "{line}").map_err(|error| LearnError::Io {
        path: PathBuf::from("<stdout>"),
        what: "report",
        error,
    })
}

/// The validation loss before training, then every epoch (reported), with a
/// checkpoint after each; stops after an interrupted epoch, checkpointed before
/// its validation so that a resumed run continues the epoch.
fn run_epochs(
    model: &mut HalfKaModel,
    state: &mut LoopState,
    (source, order, val): (&DataSource, &mut [u64], &[u64]),
    run: &HalfKaRun,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), LearnError> {
    if state.at.val_losses.is_empty() {
        let first = validation_loss(model, source, val, run)?;
        report(out, &format!("epoch 0: validation loss {first:.6}"))?;
        state.at.val_losses.push(first);
    }
    for epoch in 1..=run.epochs {
        // The order is shuffled in place each epoch: a resumed run replays
        // the shuffles of the epochs before its own.
        shuffle(order, run.seed, epoch);
        if epoch < state.at.epoch {
            continue;
        }
        let train_loss = state.train_epoch(model, source, order, run, stop)?;
        if state.interrupted {
            state.save(model, run)?;
        }
        let v = validation_loss(model, source, val, run)?;
        run.schedule.end_epoch(&mut state.at.schedule, v);
        let note = if state.interrupted {
            " (interrupted)"
        } else {
            ""
        };
        let line =
            format!("epoch {epoch}: train loss {train_loss:.6}, validation loss {v:.6}{note}");
        report(out, &line)?;
        state.at.val_losses.push(v);
        if state.interrupted {
            break;
        }
        (
            state.at.epoch,
            state.at.epoch_loss,
            state.at.epoch_positions,
        ) = (epoch + 1, 0.0, 0);
        state.save(model, run)?;
    }
    Ok(())
}

/// Everything that persists across batches.
struct LoopState {
    grads: Gradients,
    slots: HalfKaSlots,
    trace: Trace,
    /// Where the loop stands (what a checkpoint saves besides the weights).
    at: Position,
    in_batch: usize,
    interrupted: bool,
    /// Batches of the whole run, for the cosine curve.
    total_batches: u64,
}

impl LoopState {
    fn new(model: &HalfKaModel, run: &HalfKaRun) -> LoopState {
        LoopState {
            grads: Gradients::new(model),
            slots: HalfKaSlots::new(model, &run.optimizer),
            trace: model.trace(),
            at: Position {
                epoch: 1,
                epoch_loss: 0.0,
                epoch_positions: 0,
                cursor: 0,
                draws: 0,
                trained: 0,
                batches: 0,
                schedule: run.schedule.start(),
                val_losses: Vec::new(),
            },
            in_batch: 0,
            interrupted: false,
            total_batches: run.epochs * run.epoch_size.div_ceil(run.batch_size as u64),
        }
    }

    /// Continues from a checkpoint's position.
    fn restore(&mut self, at: Position) {
        self.at = at;
    }

    /// Writes a checkpoint when the run has a `--checkpoint-dir`.
    fn save(&self, model: &HalfKaModel, run: &HalfKaRun) -> Result<(), LearnError> {
        match &run.checkpoint_dir {
            Some(dir) => checkpoint::save(dir, run, (model, &self.slots), &self.at),
            None => Ok(()),
        }
    }

    /// The rest of the current epoch, up to `run.epoch_size` accepted
    /// positions; the epoch's mean training loss.
    fn train_epoch(
        &mut self,
        model: &mut HalfKaModel,
        source: &DataSource,
        order: &[u64],
        run: &HalfKaRun,
        stop: &AtomicBool,
    ) -> Result<f64, LearnError> {
        let mut misses = 0usize;
        while self.at.epoch_positions < run.epoch_size {
            let index = order[(self.at.cursor % order.len() as u64) as usize];
            self.at.cursor += 1;
            let record = source.record(index)?;
            self.at.draws += 1;
            if !run.filter.accepts(&record, self.at.draws) {
                misses += 1;
                if misses > order.len() && self.at.epoch_positions == 0 {
                    return Err(source.no_records());
                }
                continue;
            }
            let s = Sample::of(model.rows, &record.position.board, record.position.turn);
            let v = model.forward(&s.us, &s.them, s.stack, &mut self.trace);
            let target = target_of(&record);
            let (loss, dv) = run.loss.eval(f64::from(v), target, run.power_lambda);
            let rows = (&s.us[..], &s.them[..], s.stack);
            self.grads.accumulate(model, rows, &self.trace, dv as f32);
            self.at.epoch_loss += loss;
            self.at.epoch_positions += 1;
            self.in_batch += 1;
            if self.in_batch == run.batch_size || self.at.epoch_positions == run.epoch_size {
                let scale = 1.0 / self.in_batch as f32;
                let lr = run
                    .schedule
                    .rate(&self.at.schedule, self.at.batches, self.total_batches);
                self.slots
                    .step(model, &self.grads, lr as f32, scale, &run.optimizer);
                self.grads.clear(model.width);
                self.at.trained += self.in_batch as u64;
                self.in_batch = 0;
                self.at.batches += 1;
                let stopped = stop.load(Ordering::Relaxed);
                if stopped || run.stop_after_batches == Some(self.at.batches) {
                    self.interrupted = true;
                    break;
                }
            }
        }
        Ok(self.at.epoch_loss / self.at.epoch_positions.max(1) as f64)
    }
}

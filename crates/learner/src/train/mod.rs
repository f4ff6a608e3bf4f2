//! The training loop: epochs of batches, validation, reports, newbob, saving.

pub mod accuracy;
pub mod batches;
pub mod builder;
pub mod config;
pub mod divergence;
pub mod file_names;
mod mask_sum;
pub mod masked;
pub mod outputs;
pub mod plot;
pub mod progress;
pub mod report;
pub mod settings;
pub mod setup;
pub use crate::optim::slots;
pub mod sparse;
pub mod step;
pub mod validation;

use std::borrow::Cow;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use builder::TrainConfigBuilder;
pub use config::{TrainConfig, ValidationSource};

use nnue_core::nnue::check_range;
use nnue_core::output::write_atomic;

use crate::checkpoint::Checkpoint;
use crate::error::LearnError;
use crate::history;
use crate::loss::Figures;
use crate::model::Model;
use crate::optim::Verdict;
use divergence::Divergence;
use history::EpochRow;
use progress::Progress;
use report::Report;
use setup::Run;
use step::Workspace;

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub epochs: u64,
    /// Positions of the whole run, resumed parts included.
    pub positions: u64,
    /// Positions trained by this invocation.
    pub trained: u64,
    pub val_loss: f64,
    /// Parameters clamped by the final export (0 when weights stayed in range).
    pub clamped: usize,
    pub seconds: f64,
}

/// Trains as `config` says, printing reports to `out`. `stop` (set by Ctrl-C)
/// ends the run at the next batch with a checkpoint.
pub fn train(
    config: &TrainConfig,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Outcome, LearnError> {
    outputs::prepare_outputs(config)?;
    let mut run = Run::prepare(config)?;
    let started = Instant::now();
    let resumed_at = run.state.positions;
    let mut ctx = LoopContext {
        stop,
        out,
        bar: Progress::new(
            config.epochs * config.epoch_size,
            run.state.positions,
            config.progress,
            config.progress_every,
        ),
        learn: LearnFigures::default(),
        ws: Workspace::default(),
        batches: 0,
        divergence: Divergence::new(config.divergence_patience, f64::NAN),
    };
    let start_loss = if run.state.positions == 0 {
        if let Some(path) = &config.init_net {
            ctx.print(&starting_line(path, &run.state.current.model))?;
        }
        let initial = run.report(None);
        let text = format!(
            "initial validation loss {:.6} on {} {}\n{}",
            initial.test.loss,
            run.validation.len(),
            if run.validation.per_sample > 1 {
                "triplets"
            } else {
                "positions"
            },
            initial.render()
        );
        ctx.print(&text)?;
        initial.test.loss
    } else {
        run.validation_loss()
    };
    ctx.divergence = Divergence::new(config.divergence_patience, start_loss);
    if let Err(e) = run.train_epochs(&mut ctx) {
        ctx.bar.finish_and_clear();
        return Err(e);
    }
    ctx.bar.finish_and_clear();
    let clamped = run.save(true)?;
    // After a newbob rollback the final weights are not the last epoch's.
    let val_loss = run.validation_loss();
    Ok(Outcome {
        epochs: run.state.schedule.epoch,
        positions: run.state.positions,
        trained: run.state.positions - resumed_at,
        val_loss,
        clamped,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// What the loop carries from batch to batch besides the run.
struct LoopContext<'a> {
    stop: &'a AtomicBool,
    out: &'a mut dyn Write,
    bar: Progress,
    learn: LearnFigures,
    ws: Workspace,
    /// Batches trained by this invocation.
    batches: u64,
    divergence: Divergence,
}

impl LoopContext<'_> {
    /// Prints above the progress bar.
    fn print(&mut self, text: &str) -> Result<(), LearnError> {
        let out = &mut self.out;
        self.bar
            .suspend(|| write!(out, "{text}"))
            .map_err(stdout_error)
    }
}

impl Run<'_> {
    /// Trains every epoch left, until the last or a newbob stop.
    fn train_epochs(&mut self, ctx: &mut LoopContext<'_>) -> Result<(), LearnError> {
        while self.state.schedule.epoch < self.config.epochs {
            self.train_epoch(ctx)?;
            if self.finish_epoch(ctx)? == Verdict::Stop {
                break;
            }
        }
        Ok(())
    }

    /// The validation loss of the current weights.
    fn validation_loss(&self) -> f64 {
        let lambda = self.config.power_lambda(self.state.schedule.epoch);
        self.validation
            .figures(&self.validated_model(), &self.config.loss, lambda)
            .loss
    }

    /// Trains the rest of the current epoch, reporting every
    /// `--loss-output-interval` positions.
    fn train_epoch(&mut self, ctx: &mut LoopContext<'_>) -> Result<(), LearnError> {
        let config = self.config;
        if self.state.epoch_positions == 0 && config.schedule.newbob() {
            self.state.snapshot = Some(self.state.current.clone());
        }
        while self.state.epoch_positions < config.epoch_size {
            if ctx.stop.load(Ordering::Relaxed) || config.stop_after_batches == Some(ctx.batches) {
                ctx.bar.finish_and_clear();
                return Err(self.interrupt()?);
            }
            let n = self.next_batch_size(0).unwrap_or(config.batch_size);
            let figures = self.train_batch(&mut ctx.ws, n)?;
            ctx.divergence
                .check_training(figures.loss, self.state.positions)?;
            ctx.learn.add(&figures, n as u64);
            ctx.batches += 1;
            ctx.bar.inc(n as u64);
            let interval = config.loss_output_interval;
            if (self.state.positions - n as u64) / interval != self.state.positions / interval {
                let report = self.report(ctx.learn.mean());
                ctx.print(&report.render())?;
                ctx.learn = LearnFigures::default();
                // The epoch's end measures the same weights again.
                if self.state.epoch_positions < config.epoch_size {
                    let when = format!("after {} positions", self.state.positions);
                    ctx.divergence.check_validation(report.test.loss, &when)?;
                }
            }
        }
        Ok(())
    }

    /// Validation, newbob, the epoch line, the CSV and plot, and saving.
    fn finish_epoch(&mut self, ctx: &mut LoopContext<'_>) -> Result<Verdict, LearnError> {
        let (row, verdict) = self.end_epoch();
        ctx.print(&format!(
            "epoch {} done: train loss {:.6}, validation loss {:.6}, move accuracy {:.2}%{}\n",
            row.epoch,
            row.train_loss,
            row.val_loss,
            100.0 * row.move_accuracy,
            match verdict {
                Verdict::Accept => "",
                Verdict::Reject => " (rejected by newbob; weights restored, lr cut)",
                Verdict::Stop => " (rejected; too many rejections in a row, stopping)",
            }
        ))?;
        let when = format!("at epoch {}", row.epoch);
        ctx.divergence.check_validation(row.val_loss, &when)?;
        self.write_history()?;
        let config = self.config;
        // The last epoch is saved by `train` once the loop ends.
        let last = self.state.schedule.epoch >= config.epochs || verdict == Verdict::Stop;
        // An epoch worse than the start is not saved over the last good one.
        let due = self.state.schedule.epoch.is_multiple_of(config.save_every);
        if !last && due && !ctx.divergence.is_above() {
            self.save(false)?;
        }
        Ok(verdict)
    }
}

/// Names the `--init-net` file, and says how many of its transformer values lie
/// beyond the trainer's limit (kept as loaded, clipped once their row is trained).
fn starting_line(path: &std::path::Path, model: &Model) -> String {
    let limit = slots::ft_limit();
    let beyond = model
        .ft_w
        .iter()
        .chain(&model.ft_b)
        .filter(|x| x.abs() > limit)
        .count();
    let note = if beyond > 0 {
        format!(" ({beyond} transformer parameters beyond the trainer's ±{limit:.1} are clipped when trained)")
    } else {
        String::new()
    };
    format!("starting from {}{note}\n", path.display())
}

fn stdout_error(e: std::io::Error) -> LearnError {
    LearnError::io("<stdout>", "cannot write the report", e)
}

/// Training figures since the last report.
#[derive(Default)]
struct LearnFigures {
    recent: Figures,
    recent_n: u64,
}

impl LearnFigures {
    fn add(&mut self, sum: &Figures, n: u64) {
        self.recent.add(sum);
        self.recent_n += n;
    }

    fn mean(&self) -> Option<Figures> {
        (self.recent_n > 0).then(|| self.recent.scaled(1.0 / self.recent_n as f64))
    }
}

impl Run<'_> {
    /// The model validation measures: the current weights, or, when training is
    /// quantization-aware, the exported net read back ([`Model::as_exported`]):
    /// reports then describe the net the engine will load, not float weights
    /// that round away. Weights that cannot be exported are measured with only
    /// their dense layers rounded.
    fn validated_model(&self) -> Cow<'_, Model> {
        let model = &self.state.current.model;
        if self.config.quantization_aware {
            Cow::Owned(
                model
                    .as_exported()
                    .unwrap_or_else(|| model.with_quantized_dense()),
            )
        } else {
            Cow::Borrowed(model)
        }
    }

    /// The report of the current weights.
    fn report(&self, learn: Option<Figures>) -> Report {
        let state = &self.state;
        let model = &*self.validated_model();
        let lambda = self.config.power_lambda(state.schedule.epoch);
        Report {
            test: self.validation.figures(model, &self.config.loss, lambda),
            learn,
            positions: state.positions,
            steps: state.steps,
            epoch: state.schedule.epoch,
            lr: self.config.next_rate(&state.schedule, state.steps),
            move_accuracy: accuracy::move_accuracy(
                model,
                &self.extractor,
                &self.validation.records,
            ),
            startpos_eval: accuracy::startpos_eval(model, &self.extractor),
            weight_norm: state.current.model.weight_norm(),
        }
    }

    /// Validation, newbob and the history row of the epoch that just ended.
    fn end_epoch(&mut self) -> (EpochRow, Verdict) {
        let report = self.report(None);
        let state = &mut self.state;
        let (sum, n) = std::mem::take(&mut state.epoch_learn);
        let learn = sum.scaled(1.0 / n.max(1) as f64);
        let verdict = self
            .config
            .schedule
            .end_epoch(&mut state.schedule, report.test.loss);
        if verdict != Verdict::Accept {
            if let Some(snapshot) = &state.snapshot {
                state.current = snapshot.clone();
            }
        }
        state.epoch_positions = 0;
        let row = EpochRow {
            epoch: state.schedule.epoch,
            positions: state.positions,
            lr: self.config.next_rate(&state.schedule, state.steps),
            train_loss: learn.loss,
            val_loss: report.test.loss,
            test_cross_entropy_eval: report.test.cross_entropy_eval,
            test_cross_entropy_win: report.test.cross_entropy_win,
            test_cross_entropy: report.test.cross_entropy,
            learn_cross_entropy: learn.cross_entropy,
            move_accuracy: report.move_accuracy,
            startpos_eval: report.startpos_eval,
            weight_norm: report.weight_norm,
            accepted: f64::from(u8::from(verdict == Verdict::Accept)),
        };
        state.history.push(row.clone());
        (row, verdict)
    }

    /// Writes the CSV and the plot.
    fn write_history(&self) -> Result<(), LearnError> {
        history::write_csv(&self.config.csv, &self.state.history)?;
        let title = format!("{} loss", self.config.shape.arch.summary());
        plot::plot_losses(&self.config.plot, &self.state.history, &title)
    }

    /// Exports the net (and, with a checkpoint directory, a checkpoint and a copy
    /// of the net named by epoch). Returns the number of clamped parameters.
    fn save(&self, final_net: bool) -> Result<usize, LearnError> {
        let (net, report) = self.state.current.model.export()?;
        check_range(&net).map_err(|error| LearnError::Range {
            path: self.config.output_net.clone(),
            error,
        })?;
        let bytes = net.to_bytes();
        if let Some(dir) = &self.config.checkpoint_dir {
            let epoch = self.state.schedule.epoch;
            write_atomic(dir.join(outputs::epoch_net_name(epoch)), &bytes)?;
            self.checkpoint().save(dir)?;
            outputs::remove_older_epoch_nets(self.config, dir, epoch)?;
        }
        if final_net || self.config.checkpoint_dir.is_none() {
            write_atomic(&self.config.output_net, &bytes)?;
        }
        Ok(report.clamped())
    }

    fn checkpoint(&self) -> Checkpoint {
        let s = &self.state;
        Checkpoint {
            settings: self.settings.clone(),
            current: s.current.clone(),
            snapshot: s.snapshot.clone(),
            schedule: s.schedule.clone(),
            // With a batch prefetched the stream is one batch ahead.
            stream: self
                .consumed
                .clone()
                .unwrap_or_else(|| self.stream.state.clone()),
            steps: s.steps,
            epoch_positions: s.epoch_positions,
            positions: s.positions,
            epoch_learn: s.epoch_learn,
            history: s.history.clone(),
        }
    }

    /// Saves what can be resumed and says so in the error.
    fn interrupt(&self) -> Result<LearnError, LearnError> {
        if let Some(dir) = &self.config.checkpoint_dir {
            self.checkpoint().save(dir)?;
        }
        Ok(LearnError::Interrupted {
            saved_in: self.config.checkpoint_dir.clone(),
        })
    }
}

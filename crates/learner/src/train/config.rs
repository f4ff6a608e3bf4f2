//! A training run's settings after the command line is checked.

use std::path::PathBuf;

use crate::data::Filter;
use crate::loss::LossParams;
use crate::model::ModelShape;
use crate::optim::{Optimizer, Schedule};

/// Where validation positions come from.
#[derive(Clone, Debug, PartialEq)]
pub enum ValidationSource {
    /// Separate files.
    Files(Vec<PathBuf>),
    /// The last fraction of every training file, held out from training.
    HeldOut(f64),
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub train: Vec<PathBuf>,
    pub validation: ValidationSource,
    /// Most validation positions evaluated.
    pub validation_count: usize,
    /// Validation positions used for move accuracy.
    pub accuracy_count: usize,
    pub shape: ModelShape,
    /// Starting weights (`--init-net`) instead of a random initialisation.
    pub init_net: Option<PathBuf>,
    pub epochs: u64,
    pub epoch_size: u64,
    pub batch_size: usize,
    pub optimizer: Optimizer,
    pub schedule: Schedule,
    pub loss: LossParams,
    /// λ of the power loss at the start and end of the run.
    pub start_lambda: f64,
    pub end_lambda: f64,
    pub filter: Filter,
    /// Mirror about half the training positions left to right (`--mirror`).
    pub mirror: bool,
    /// Train and validate through the dense layers' rounding (`--quantization-aware`).
    pub quantization_aware: bool,
    /// Keep drawn games in the validation set.
    pub validation_draws: bool,
    pub shuffle_buffer: usize,
    pub skip_invalid: bool,
    pub seed: u64,
    pub output_net: PathBuf,
    pub checkpoint_dir: Option<PathBuf>,
    pub resume: bool,
    /// Replace existing outputs, and resume a checkpoint whose settings differ
    /// from this run's (`--force`).
    pub force: bool,
    /// Save a net and a checkpoint every this many epochs.
    pub save_every: u64,
    /// Keep the per-epoch net of every this many epochs; 0 keeps only the
    /// latest (`--keep-epoch-nets`).
    pub keep_epoch_nets: u64,
    /// Print nodchip's figures every this many positions.
    pub loss_output_interval: u64,
    pub csv: PathBuf,
    pub plot: PathBuf,
    /// Validation reports in a row above the starting loss that stop the run
    /// as diverged (see [`super::divergence`]).
    pub divergence_patience: u32,
    /// Show the progress: a bar on a terminal, else a line every `progress_every`.
    pub progress: bool,
    pub progress_every: std::time::Duration,
    /// Stop (as if interrupted) after this many batches of this invocation; for
    /// testing `--resume`.
    pub stop_after_batches: Option<u64>,
}

impl TrainConfig {
    /// The seed of PQR triplets with `--loss pqr` (see [`crate::pqr`]).
    pub fn pqr_seed(&self) -> Option<u64> {
        (self.loss.kind == crate::loss::LossKind::Pqr).then_some(self.seed)
    }

    /// Positions per counted sample: 3 for PQR triplets (batch and epoch
    /// sizes count triplets), else 1.
    pub fn positions_per_sample(&self) -> usize {
        match self.pqr_seed() {
            Some(_) => crate::pqr::TRIPLET_LEN,
            None => 1,
        }
    }

    /// Batches in the whole run: `--epochs` times the batches of an epoch
    /// (the last batch of an epoch may be short).
    pub fn total_batches(&self) -> u64 {
        let per_epoch = self.epoch_size.div_ceil(self.batch_size.max(1) as u64);
        self.epochs.saturating_mul(per_epoch)
    }

    /// The rate of the next batch, for training and for the reports.
    pub fn next_rate(&self, state: &crate::optim::ScheduleState, steps: u64) -> f64 {
        self.schedule.rate(state, steps, self.total_batches())
    }

    /// λ of the power loss after `epoch` of `epochs` (linear, as nnue-pytorch).
    pub fn power_lambda(&self, epoch: u64) -> f64 {
        let f = epoch as f64 / self.epochs.max(1) as f64;
        self.start_lambda + (self.end_lambda - self.start_lambda) * f
    }
}

//! Everything a run holds: data, validation set, weights and their state, read
//! fresh or from a checkpoint. All input is checked here, before anything is
//! written.

use std::ops::Range;

use crate::checkpoint::{Checkpoint, Settings, Weights};
use crate::data::{DataSource, PositionSource, SourceOptions, SparseBatch, Stream, StreamState};
use crate::error::LearnError;
use crate::loss::Figures;
use crate::model::{Extractor, Model};
use crate::optim::ScheduleState;

use super::config::{TrainConfig, ValidationSource};
use super::validation::{ValidationSet, ValidationSpec};
use crate::history::EpochRow;
use crate::optim::slots::ModelSlots;

/// The part of a run saved in checkpoints (besides the stream).
pub struct RunState {
    pub current: Weights,
    pub snapshot: Option<Weights>,
    pub schedule: ScheduleState,
    pub steps: u64,
    pub epoch_positions: u64,
    pub positions: u64,
    /// Summed training figures of the current epoch and their position count.
    pub epoch_learn: (Figures, u64),
    pub history: Vec<EpochRow>,
}

/// A prepared run.
pub struct Run<'c> {
    pub config: &'c TrainConfig,
    pub source: Box<dyn PositionSource>,
    pub extractor: Extractor,
    pub validation: ValidationSet,
    pub stream: Stream,
    pub state: RunState,
    /// The options a checkpoint records (see [`super::settings`]).
    pub settings: Settings,
    /// Invalid records skipped (with `--skip-invalid`).
    pub invalid: u64,
    /// The next batch, read while the current one trained.
    pub prefetched: Option<SparseBatch>,
    /// The stream state after the batches trained so far, while a prefetched
    /// batch has moved the stream on (what a checkpoint must store).
    pub consumed: Option<StreamState>,
}

/// Splits every range into its first part (training) and its last `fraction`.
fn hold_out(ranges: &[Range<u64>], fraction: f64) -> (Vec<Range<u64>>, Vec<Range<u64>>) {
    ranges
        .iter()
        .map(|r| {
            let len = r.end - r.start;
            let held = ((len as f64 * fraction).ceil() as u64).min(len);
            (r.start..r.end - held, r.end - held..r.end)
        })
        .unzip()
}

fn total(ranges: &[Range<u64>]) -> u64 {
    ranges.iter().map(|r| r.end - r.start).sum()
}

impl<'c> Run<'c> {
    /// Opens the data, builds the validation set and the weights (fresh or resumed).
    pub fn prepare(config: &'c TrainConfig) -> Result<Run<'c>, LearnError> {
        // Before the data, which can take long to load.
        let init = match &config.init_net {
            Some(path) => Some(Model::load(path, &config.shape)?),
            None => None,
        };
        let options = SourceOptions {
            skip_invalid: config.skip_invalid,
            progress: config.progress,
        };
        let train = DataSource::open(&config.train, options)?;
        if train.is_empty() {
            return Err(train.no_records());
        }
        if config.pqr_seed().is_some() {
            crate::pqr::probe_game_order(&train)?;
        }
        let invalid = train.skipped();
        let source: Box<dyn PositionSource> = Box::new(train);
        let extractor = Extractor::new(&config.shape);
        let (train_ranges, validation) = match &config.validation {
            ValidationSource::Files(files) => {
                let vsource = DataSource::open(files, options)?;
                if vsource.is_empty() {
                    return Err(vsource.no_records());
                }
                let ranges = vsource.file_ranges();
                let set = load_validation(config, &vsource, ranges, &extractor)?;
                (source.file_ranges(), set)
            }
            ValidationSource::HeldOut(fraction) => {
                let (train, held) = hold_out(&source.file_ranges(), *fraction);
                let set = load_validation(config, source.as_ref(), held, &extractor)?;
                (train, set)
            }
        };
        if total(&train_ranges) == 0 {
            return Err(LearnError::NoData(format!(
                "{}: no training records left after holding out the validation part",
                source.describe()
            )));
        }
        let stream = Stream::new(train_ranges, config.shuffle_buffer, config.seed);
        let model = init
            .unwrap_or_else(|| Model::new(config.shape.clone(), config.seed, extractor.max_rows()));
        let slots = ModelSlots::new(&model, &config.optimizer);
        let mut run = Run {
            config,
            source,
            extractor,
            validation,
            stream,
            state: RunState {
                current: Weights { model, slots },
                snapshot: None,
                schedule: config.schedule.start(),
                steps: 0,
                epoch_positions: 0,
                positions: 0,
                epoch_learn: (Figures::default(), 0),
                history: Vec::new(),
            },
            settings: super::settings::settings_of(config),
            invalid,
            prefetched: None,
            consumed: None,
        };
        if config.resume {
            run.resume()?;
        }
        Ok(run)
    }

    /// Replaces the fresh state with the checkpoint's.
    fn resume(&mut self) -> Result<(), LearnError> {
        let Some(dir) = &self.config.checkpoint_dir else {
            return Err(LearnError::Usage("--resume needs --checkpoint-dir".into()));
        };
        let (path, bytes) = Checkpoint::read(dir)?;
        let unreadable = |problem| LearnError::Checkpoint {
            path: path.clone(),
            problem,
        };
        let saved = Checkpoint::settings_of(&bytes).map_err(unreadable)?;
        let (differences, forceable) = super::settings::differences(&saved, &self.settings);
        let accepted = differences.is_empty() || (forceable && self.config.force);
        if !accepted {
            return Err(LearnError::ResumeMismatch {
                path,
                differences,
                forceable,
            });
        }
        let ckpt = Checkpoint::from_bytes(&bytes, &self.state.current).map_err(unreadable)?;
        self.stream
            .restore(ckpt.stream)
            .map_err(|e| unreadable(e.into()))?;
        self.state = RunState {
            current: ckpt.current,
            snapshot: ckpt.snapshot,
            schedule: ckpt.schedule,
            steps: ckpt.steps,
            epoch_positions: ckpt.epoch_positions,
            positions: ckpt.positions,
            epoch_learn: ckpt.epoch_learn,
            history: ckpt.history,
        };
        Ok(())
    }
}

fn load_validation(
    config: &TrainConfig,
    source: &dyn PositionSource,
    ranges: Vec<Range<u64>>,
    extractor: &Extractor,
) -> Result<ValidationSet, LearnError> {
    let mut filter = config.filter.clone();
    filter.use_draws = config.validation_draws;
    ValidationSet::load(
        ValidationSpec {
            source,
            ranges,
            count: config.validation_count,
            filter,
            skip_invalid: config.skip_invalid,
            accuracy_count: config.accuracy_count,
            pqr_seed: config.pqr_seed(),
        },
        extractor,
    )
}

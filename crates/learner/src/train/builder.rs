//! [`TrainConfig::builder`]: a run configured in code, as bullet's trainer is,
//! with the command line's defaults and its checks. The command line builds
//! its configuration the same way.
//!
//! ```
//! use nnue_learner::train::TrainConfig;
//! let config = TrainConfig::builder("All")
//!     .ft_size(64)
//!     .hidden(&[16])
//!     .train(["tests/data/sf_tools_sample.bin"])
//!     .output_net("example.nnue")
//!     .epochs(3)
//!     .lr(0.002)
//!     .build()
//!     .unwrap();
//! assert_eq!(config.shape.fingerprint(), "All 768->64x2-16-1");
//! assert_eq!(config.csv, std::path::PathBuf::from("example.csv"));
//! assert!(TrainConfig::builder("All").lr(-1.0).build().is_err());
//! // A cosine from 0.002 to 0.0001 over the run, after 100 batches of warm-up.
//! use nnue_learner::optim::LrSchedule;
//! let cosine = TrainConfig::builder("All")
//!     .lr(0.002)
//!     .lr_schedule(LrSchedule::Cosine)
//!     .lr_final(0.0001)
//!     .lr_warmup_batches(100)
//!     .build()
//!     .unwrap();
//! assert_eq!(cosine.next_rate(&cosine.schedule.start(), cosine.total_batches()), 0.0001);
//! assert!(TrainConfig::builder("All").lr_final(0.0001).build().is_err());
//! ```

use std::path::PathBuf;

use super::config::{TrainConfig, ValidationSource};
use super::divergence::DEFAULT_PATIENCE;
use crate::data::Filter;
use crate::error::LearnError;
use crate::loss::LossParams;
use crate::model::ModelShape;
use crate::optim::{LrSchedule, Optimizer, Schedule};
use nnue_core::nnue::Activation;

/// The command line's defaults, shared with its `--help`.
pub mod defaults {
    pub const VALIDATION_FRACTION: f64 = 0.05;
    pub const VALIDATION_COUNT: usize = 2000;
    pub const ACCURACY_COUNT: usize = 500;
    pub const EPOCHS: u64 = 10;
    pub const EPOCH_SIZE: u64 = 1_000_000;
    pub const BATCH_SIZE: usize = 16384;
    pub const LR: f64 = 1e-3;
    pub const SHUFFLE_BUFFER: usize = 1_000_000;
    pub const LOSS_OUTPUT_INTERVAL: u64 = 1_000_000;
}

/// One change to the configuration, applied in order by [`TrainConfigBuilder::build`].
type Edit = Box<dyn FnOnce(&mut TrainConfig)>;

/// Builds a [`TrainConfig`]; see [`TrainConfig::builder`].
pub struct TrainConfigBuilder {
    feature_set: String,
    ft_size: Option<usize>,
    hidden: Option<Vec<usize>>,
    factorize: bool,
    activation: Activation,
    output_buckets: usize,
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    edits: Vec<Edit>,
}

impl TrainConfig {
    /// A configuration for `feature_set` with the command line's defaults.
    pub fn builder(feature_set: &str) -> TrainConfigBuilder {
        TrainConfigBuilder {
            feature_set: feature_set.to_string(),
            ft_size: None,
            hidden: None,
            factorize: false,
            activation: Activation::ClippedRelu,
            output_buckets: 1,
            csv: None,
            plot: None,
            edits: Vec::new(),
        }
    }
}

impl TrainConfigBuilder {
    /// Transformer width per perspective (default 256 for HalfKP, 512 otherwise).
    pub fn ft_size(mut self, n: usize) -> Self {
        self.ft_size = Some(n);
        self
    }

    /// Hidden layer widths (default 32,32 for HalfKP, 32 otherwise).
    pub fn hidden(mut self, widths: &[usize]) -> Self {
        self.hidden = Some(widths.to_vec());
        self
    }

    /// Train with the factoriser's virtual features.
    pub fn factorize(mut self, on: bool) -> Self {
        self.factorize = on;
        self
    }

    /// The transformer's activation (default ClippedReLU).
    pub fn activation(mut self, activation: Activation) -> Self {
        self.activation = activation;
        self
    }

    /// Material output buckets (default 1: none).
    pub fn output_buckets(mut self, count: usize) -> Self {
        self.output_buckets = count;
        self
    }

    /// Any other change, e.g. `.with(|c| c.mirror = true)`.
    pub fn with(mut self, edit: impl FnOnce(&mut TrainConfig) + 'static) -> Self {
        self.edits.push(Box::new(edit));
        self
    }

    /// Training files.
    pub fn train<P: Into<PathBuf>>(self, files: impl IntoIterator<Item = P>) -> Self {
        let files: Vec<PathBuf> = files.into_iter().map(Into::into).collect();
        self.with(move |c| c.train = files)
    }

    /// The trained net (its `.csv` and `.png` are named after it unless set).
    pub fn output_net(self, path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        self.with(move |c| c.output_net = path)
    }

    pub fn epochs(self, n: u64) -> Self {
        self.with(move |c| c.epochs = n)
    }

    pub fn epoch_size(self, n: u64) -> Self {
        self.with(move |c| c.epoch_size = n)
    }

    pub fn batch_size(self, n: usize) -> Self {
        self.with(move |c| c.batch_size = n)
    }

    /// The learning rate at the start.
    pub fn lr(self, lr: f64) -> Self {
        self.with(move |c| c.schedule.lr = lr)
    }

    /// The curve the rate follows (`--lr-schedule`).
    pub fn lr_schedule(self, curve: LrSchedule) -> Self {
        self.with(move |c| c.schedule.curve = curve)
    }

    /// The rate a cosine run ends at (`--lr-final`).
    pub fn lr_final(self, lr: f64) -> Self {
        self.with(move |c| c.schedule.final_lr = Some(lr))
    }

    /// Batches of linear warm-up at the start (`--lr-warmup-batches`).
    pub fn lr_warmup_batches(self, n: u64) -> Self {
        self.with(move |c| c.schedule.warmup_batches = n)
    }

    /// The seed of the initial weights, the shuffle and the random skipping.
    pub fn seed(self, seed: u64) -> Self {
        self.with(move |c| {
            c.seed = seed;
            c.filter.seed = seed;
        })
    }

    /// The per-epoch CSV (default: the output net with `.csv`).
    pub fn csv(mut self, path: Option<PathBuf>) -> Self {
        self.csv = path;
        self
    }

    /// The loss plot (default: the output net with `.png`).
    pub fn plot(mut self, path: Option<PathBuf>) -> Self {
        self.plot = path;
        self
    }

    /// The configuration, checked.
    pub fn build(self) -> Result<TrainConfig, LearnError> {
        let halfkp = self.feature_set.trim() == "HalfKP";
        let half = self.ft_size.unwrap_or(if halfkp { 256 } else { 512 });
        let hidden = self
            .hidden
            .unwrap_or_else(|| if halfkp { vec![32, 32] } else { vec![32] });
        let shape = ModelShape::new(&self.feature_set, half, &hidden, self.factorize)?
            .with_output(self.activation, self.output_buckets)?;
        let mut config = defaults_for(shape);
        for edit in self.edits {
            edit(&mut config);
        }
        // Side files follow the net unless they were set.
        let net = &config.output_net;
        config.csv = self.csv.unwrap_or_else(|| net.with_extension("csv"));
        config.plot = self.plot.unwrap_or_else(|| net.with_extension("png"));
        config.check()?;
        super::file_names::check_file_names(&config)?;
        Ok(config)
    }
}

/// The command line's defaults for `shape`.
fn defaults_for(shape: ModelShape) -> TrainConfig {
    TrainConfig {
        train: Vec::new(),
        validation: ValidationSource::HeldOut(defaults::VALIDATION_FRACTION),
        validation_count: defaults::VALIDATION_COUNT,
        accuracy_count: defaults::ACCURACY_COUNT,
        shape,
        init_net: None,
        epochs: defaults::EPOCHS,
        epoch_size: defaults::EPOCH_SIZE,
        batch_size: defaults::BATCH_SIZE,
        optimizer: Optimizer::default(),
        schedule: Schedule::step(defaults::LR),
        loss: LossParams::default(),
        start_lambda: 1.0,
        end_lambda: 1.0,
        filter: Filter::default(),
        mirror: false,
        quantization_aware: false,
        validation_draws: true,
        shuffle_buffer: defaults::SHUFFLE_BUFFER,
        skip_invalid: false,
        seed: 0,
        output_net: PathBuf::from("trained.nnue"),
        checkpoint_dir: None,
        resume: false,
        force: false,
        save_every: 1,
        keep_epoch_nets: 0,
        loss_output_interval: defaults::LOSS_OUTPUT_INTERVAL,
        csv: PathBuf::new(),
        plot: PathBuf::new(),
        progress: true,
        progress_every: super::progress::LOG_EVERY,
        divergence_patience: DEFAULT_PATIENCE,
        stop_after_batches: None,
    }
}

impl TrainConfig {
    /// The checks the command line cannot express as a range of one option.
    pub fn check(&self) -> Result<(), LearnError> {
        let usage = |m: String| Err(LearnError::Usage(m));
        if self.epoch_size == 0 || self.batch_size == 0 {
            return usage("--epoch-size and --batch-size must be positive".into());
        }
        let lr = self.schedule.lr;
        if !(lr > 0.0 && lr.is_finite()) {
            return usage(format!("--lr {lr} is not a positive rate"));
        }
        self.schedule
            .check(self.total_batches())
            .map_err(|e| LearnError::Usage(e.to_string()))?;
        if let ValidationSource::HeldOut(f) = self.validation {
            if !(0.0..1.0).contains(&f) {
                return usage(format!("--validation-fraction {f} is not in [0, 1)"));
            }
            if f == 0.0 {
                return usage(
                    "no validation data: give --validation or a --validation-fraction above 0"
                        .into(),
                );
            }
        }
        for (name, v) in [
            ("--lambda", self.loss.lambda),
            ("--lambda2", self.loss.lambda2),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return usage(format!("{name} {v} is not in [0, 1]"));
            }
        }
        if self.resume && self.init_net.is_some() {
            return usage("--init-net and --resume exclude each other: --resume restores the weights from the checkpoint".into());
        }
        if self.resume && self.checkpoint_dir.is_none() {
            return usage("--resume needs --checkpoint-dir".into());
        }
        if self.save_every == 0 || self.loss_output_interval == 0 {
            return usage("--save-every and --loss-output-interval must be positive".into());
        }
        Ok(())
    }
}

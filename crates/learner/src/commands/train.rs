//! `nnue-learn train`: its options (nodchip's names accepted as aliases), their
//! checks, and the [`TrainConfig`] they build.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use nnue_core::cli::words::count;

use super::shape::ShapeArgs;
use crate::data::{Filter, FilterPreset};
use crate::error::LearnError;
use crate::loss::{LossKind, LossParams, PowerParams, DEFAULT_COEFFICIENT};
use crate::optim::{LrSchedule, Optimizer, OptimizerKind, Schedule};
use crate::train::builder::defaults;
use crate::train::{train, TrainConfig, ValidationSource};
use nnue_core::data::filter::PRESET_CONFLICTS;

/// A value parser for counts that must be at least 1.
fn at_least_one() -> clap::builder::RangedI64ValueParser<usize> {
    super::at_least::<usize>(1)
}

/// A positive, finite rate.
fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{text}' is not a positive number")),
    }
}

/// A share in `[0, 1)`.
fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}' is not a fraction in [0, 1)")),
    }
}

/// `nnue-learn train`. A repeated option takes its last value.
#[derive(Args, Clone, Debug)]
#[command(args_override_self = true, allow_negative_numbers = true)]
pub struct TrainArgs {
    /// Training data, one or many files of any mix of .bin, .binpack and .plain
    /// (by extension). .bin files are memory-mapped; .binpack and .plain files
    /// are decoded when training starts and held in memory, 40 bytes per
    /// position (a count is shown while a large one loads).
    #[arg(long, num_args = 1.., required = true)]
    pub train: Vec<PathBuf>,
    /// Validation data (.bin, .binpack or .plain, as --train); without it a part of
    /// the training data is held out.
    #[arg(long, alias = "validation_set_file_name", num_args = 1..)]
    pub validation: Vec<PathBuf>,
    /// Share of every training file held out for validation when no --validation
    /// is given (its last records).
    #[arg(long, default_value_t = defaults::VALIDATION_FRACTION, value_parser = fraction)]
    pub validation_fraction: f64,
    /// Most validation positions evaluated per report, taken evenly across all of
    /// the validation data (every k-th position), not from its start.
    #[arg(long, alias = "validation_count", default_value_t = defaults::VALIDATION_COUNT, value_parser = at_least_one())]
    pub validation_count: usize,
    /// Validation positions used for move accuracy (each costs a forward pass per
    /// legal move).
    #[arg(long, default_value_t = defaults::ACCURACY_COUNT, value_parser = super::at_least::<usize>(0))]
    pub accuracy_count: usize,

    #[command(flatten)]
    pub shape: ShapeArgs,
    /// A named net trained by its own path: sf15.1 is Stockfish 15.1's
    /// HalfKAv2_hm 1024x2-16-32-1 with 8 PSQT buckets and 8 layer stacks by piece
    /// count, trained with the HalfKAv2_hm factoriser and written in 15.1's
    /// layout (--ft-size for a narrower transformer, a multiple of 64). Takes
    /// --train, the epoch, batch, optimizer, rate schedule (not newbob), loss and
    /// filter options, --seed.
    #[arg(long, value_enum)]
    pub preset: Option<super::preset::Preset>,
    /// Start from this .nnue net instead of random weights (fine-tuning): its
    /// architecture must be the one trained; with --factorize the virtual rows
    /// start at zero. nodchip's learner starts from its EvalFile the same way.
    #[arg(long, alias = "eval-file")]
    pub init_net: Option<PathBuf>,

    /// Epochs to train; 0 only evaluates the starting net and writes it.
    #[arg(long, default_value_t = defaults::EPOCHS, value_parser = super::at_least::<u64>(0))]
    pub epochs: u64,
    /// Positions per epoch.
    #[arg(long, alias = "epoch_size", default_value_t = defaults::EPOCH_SIZE, value_parser = super::at_least::<u64>(1))]
    pub epoch_size: u64,
    #[arg(long, aliases = ["batch_size", "nn_batch_size"], default_value_t = defaults::BATCH_SIZE, value_parser = at_least_one())]
    pub batch_size: usize,

    #[arg(long, value_enum, default_value = "adam")]
    pub optimizer: OptimizerKind,
    /// Learning rate.
    #[arg(long, alias = "eta", default_value_t = defaults::LR, value_parser = positive)]
    pub lr: f64,
    #[arg(long, default_value_t = 0.9)]
    pub beta1: f32,
    #[arg(long, default_value_t = 0.999)]
    pub beta2: f32,
    #[arg(long, default_value_t = 1e-8)]
    pub eps: f32,
    #[arg(long, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// SGD momentum.
    #[arg(long, default_value_t = 0.0)]
    pub momentum: f32,
    /// Learning rate factor after every epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr_decay: f64,
    /// Epochs after which the rate drops by --lr-step-gamma, e.g. 50,80.
    #[arg(long, value_delimiter = ',')]
    pub lr_steps: Vec<u64>,
    #[arg(long, default_value_t = 0.1)]
    pub lr_step_gamma: f64,
    /// nodchip's newbob: a rejected epoch cuts the rate by this (1 = off).
    #[arg(long, aliases = ["newbob_decay", "lr_step"], default_value_t = 1.0)]
    pub newbob_decay: f64,
    #[arg(long, aliases = ["max_consecutive_rejections", "newbob_num_trials"], default_value_t = 4)]
    pub max_consecutive_rejections: u32,
    /// The rate's curve: step (per-epoch --lr-decay, --lr-steps, newbob) or
    /// cosine (from --lr to --lr-final over the run, every batch).
    #[arg(long, value_enum, alias = "lr_schedule", default_value = "step")]
    pub lr_schedule: LrSchedule,
    /// The rate a cosine run ends at (default 0).
    #[arg(long, aliases = ["lr_final", "final-lr"], allow_negative_numbers = true)]
    pub lr_final: Option<f64>,
    /// Linear warm-up: batch b < N (from 0) trains at (b+1)/N of the schedule's rate.
    #[arg(long, aliases = ["lr_warmup_batches", "warmup-batches"], default_value_t = 0, allow_negative_numbers = true)]
    pub lr_warmup_batches: u64,
    /// Gradient elements are clipped to ±this.
    #[arg(long, alias = "max_grad", default_value_t = 1.0)]
    pub max_grad: f32,

    #[arg(long, value_enum, default_value = "elmo")]
    pub loss: LossKind,
    /// Weight of the search score against the game result.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// λ for positions with |score| above --lambda-limit.
    #[arg(long, default_value_t = 1.0)]
    pub lambda2: f64,
    #[arg(long, alias = "lambda_limit", default_value_t = 32000.0)]
    pub lambda_limit: f64,
    /// Power loss: λ at the start of the run [default: --lambda].
    #[arg(long)]
    pub start_lambda: Option<f64>,
    /// Power loss: λ at the end of the run [default: --start-lambda].
    #[arg(long)]
    pub end_lambda: Option<f64>,
    #[arg(long, default_value_t = 270.0)]
    pub in_offset: f64,
    #[arg(long, default_value_t = 270.0)]
    pub out_offset: f64,
    #[arg(long, default_value_t = 340.0)]
    pub in_scaling: f64,
    #[arg(long, default_value_t = 380.0)]
    pub out_scaling: f64,
    #[arg(long, default_value_t = 2.5)]
    pub pow_exp: f64,
    /// c in wp(v) = sigmoid(c·v) (nodchip: ln 10 / 832 ≈ 0.0027675).
    #[arg(long, alias = "winning_probability_coefficient", default_value_t = DEFAULT_COEFFICIENT)]
    pub winning_probability_coefficient: f64,

    /// Skip captures, promotions and positions in check.
    #[arg(long, alias = "smart_fen_skipping")]
    pub smart_fen_skipping: bool,
    /// Skip each position with probability N/(N+1).
    #[arg(long, default_value_t = 0)]
    pub random_fen_skipping: u32,
    /// Skip positions of the first N plies.
    #[arg(long, default_value_t = 0)]
    pub early_fen_skipping: u16,
    /// Skip positions with |score| above this.
    #[arg(long, alias = "eval_limit", default_value_t = 32000)]
    pub eval_limit: i32,
    /// Skip positions with fewer pieces than N on the board, kings included.
    #[arg(long, default_value_t = 0)]
    pub min_pieces: u8,
    /// Skip positions whose best move castles.
    #[arg(long)]
    pub castling_fen_skipping: bool,
    /// nnue-pytorch's WLD skipping: keep a position with the probability its
    /// win-rate model gives the game's result at the position's score and ply,
    /// drawn from --seed (training positions only).
    #[arg(long, aliases = ["wld-filtered", "wld_fen_skipping"])]
    pub wld_fen_skipping: bool,
    /// A named filter in place of the options above but --random-fen-skipping:
    /// viriformat (its crate's default: ply 16 on, at least 4 pieces, a quiet
    /// best move, not in check, |score| below 31339), bullet (its binpack
    /// example: the same but |score| up to 10000, any piece count, castling
    /// moves skipped) or nnue-pytorch (its data loader's default:
    /// --smart-fen-skipping --wld-fen-skipping).
    #[arg(long, value_enum, conflicts_with_all = PRESET_CONFLICTS)]
    pub filter_preset: Option<FilterPreset>,
    /// Train on drawn games (1) or not (0).
    #[arg(long, alias = "use_draw_games_in_training", default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub use_draw_games_in_training: u8,
    /// Validate on drawn games (1) or not (0).
    #[arg(long, alias = "use_draw_games_in_validation", default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub use_draw_games_in_validation: u8,
    /// Mirror each training position left to right (files a<->h, kings too)
    /// with probability 1/2, drawn from --seed; score, result and side to move
    /// are kept. Validation positions are never mirrored.
    #[arg(long)]
    pub mirror: bool,
    /// Train through the exported net's rounding: the hidden and output layers run
    /// with their weights and biases rounded to the .nnue file's int8/int32 grid
    /// (gradients pass straight through to the float weights), and validation
    /// figures are those of the rounded layers. Without it, rounding the output
    /// weights of a net with no hidden layer moves its evaluation by about 30
    /// internal units.
    #[arg(long)]
    pub quantization_aware: bool,
    /// Indices in the shuffle buffer.
    #[arg(long, default_value_t = defaults::SHUFFLE_BUFFER, value_parser = at_least_one())]
    pub shuffle_buffer: usize,
    /// Skip (and count) records that fail to decode instead of stopping (a cut-off
    /// .bin tail and bad .plain records too; a corrupt .binpack chunk still stops).
    #[arg(long)]
    pub skip_invalid: bool,
    /// Also write the trained net in the raw layout of bullet-trained engines
    /// (as `nnue-learn export --layout raw` does) to FILE; the net must be
    /// All, KAm4 or KAm8 without hidden layers.
    #[arg(long, value_name = "FILE")]
    pub output_raw: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = super::threads_parser())]
    pub threads: Option<usize>,

    /// The trained net.
    #[arg(long, alias = "out")]
    pub output_net: PathBuf,
    /// Checkpoints and per-epoch nets go here.
    #[arg(long)]
    pub checkpoint_dir: Option<PathBuf>,
    /// Continue from the checkpoint in --checkpoint-dir (its files, the CSV and
    /// the plot may be replaced; options that differ from the checkpoint's are an
    /// error naming each, unless --force).
    #[arg(long)]
    pub resume: bool,
    /// Replace existing outputs; with --resume, continue although options differ
    /// from the checkpoint's (not the model's shape or the optimizer). An input
    /// file is never overwritten.
    #[arg(long)]
    pub force: bool,
    /// Save a net (epoch-E.nnue) and a checkpoint in --checkpoint-dir every N
    /// epochs.
    #[arg(long, default_value_t = 1, value_parser = super::at_least::<u64>(1))]
    pub save_every: u64,
    /// Keep the epoch-E.nnue of every N-th epoch in --checkpoint-dir; by
    /// default (0) only the latest is kept, the others are removed as it is
    /// saved.
    #[arg(long, default_value_t = 0, value_parser = super::at_least::<u64>(0))]
    pub keep_epoch_nets: u64,
    /// Print nodchip's loss figures every N positions.
    #[arg(long, alias = "loss_output_interval", default_value_t = defaults::LOSS_OUTPUT_INTERVAL, value_parser = super::at_least::<u64>(1))]
    pub loss_output_interval: u64,
    /// Per-epoch CSV [default: the output net with .csv].
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Loss plot PNG [default: the output net with .png].
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Stop with an error (exit 1) when the validation loss stays above its
    /// starting value for this many reports in a row (a loss that is not a
    /// number stops the run at once); nothing is saved from the diverged weights.
    #[arg(long, default_value_t = crate::train::divergence::DEFAULT_PATIENCE,
          value_parser = super::at_least::<u32>(1))]
    pub divergence_patience: u32,
    /// No progress bar (or, when standard error is not a terminal, no progress
    /// line every 30 s).
    #[arg(short, long, alias = "no-progress")]
    pub quiet: bool,
    /// Testing: the plain progress lines' interval, in milliseconds.
    #[arg(long, hide = true)]
    pub progress_every_ms: Option<u64>,
    /// Testing: stop as if interrupted after N batches.
    #[arg(long, hide = true)]
    pub stop_after_batches: Option<u64>,
}

fn optimizer_of(args: &TrainArgs) -> Optimizer {
    Optimizer {
        kind: args.optimizer,
        beta1: args.beta1,
        beta2: args.beta2,
        eps: args.eps,
        weight_decay: args.weight_decay,
        momentum: args.momentum,
        max_grad: args.max_grad,
    }
}

fn schedule_of(args: &TrainArgs) -> Schedule {
    Schedule {
        lr: args.lr,
        decay: args.lr_decay,
        steps: args.lr_steps.clone(),
        step_gamma: args.lr_step_gamma,
        newbob_decay: args.newbob_decay,
        max_rejections: args.max_consecutive_rejections.max(1),
        curve: args.lr_schedule,
        final_lr: args.lr_final,
        warmup_batches: args.lr_warmup_batches,
    }
}

fn loss_of(args: &TrainArgs) -> LossParams {
    LossParams {
        kind: args.loss,
        coefficient: args.winning_probability_coefficient,
        lambda: args.lambda,
        lambda2: args.lambda2,
        lambda_limit: args.lambda_limit,
        power: PowerParams {
            in_offset: args.in_offset,
            out_offset: args.out_offset,
            in_scaling: args.in_scaling,
            out_scaling: args.out_scaling,
            exponent: args.pow_exp,
        },
    }
}

fn filter_of(args: &TrainArgs) -> Filter {
    let filter = Filter {
        smart_fen_skipping: args.smart_fen_skipping,
        random_fen_skipping: args.random_fen_skipping,
        early_fen_skipping: args.early_fen_skipping,
        eval_limit: args.eval_limit,
        min_pieces: args.min_pieces,
        castling_fen_skipping: args.castling_fen_skipping,
        wld_fen_skipping: args.wld_fen_skipping,
        use_draws: args.use_draw_games_in_training != 0,
        seed: args.seed,
    };
    match args.filter_preset {
        Some(preset) => preset.apply(filter),
        None => filter,
    }
}

/// Everything but the model, the optimisation and the data filter.
fn apply_run_options(c: &mut TrainConfig, args: &TrainArgs) {
    c.validation = if args.validation.is_empty() {
        ValidationSource::HeldOut(args.validation_fraction)
    } else {
        ValidationSource::Files(args.validation.clone())
    };
    c.validation_count = args.validation_count;
    c.accuracy_count = args.accuracy_count;
    c.init_net = args.init_net.clone();
    c.mirror = args.mirror;
    c.quantization_aware = args.quantization_aware;
    c.validation_draws = args.use_draw_games_in_validation != 0;
    c.shuffle_buffer = args.shuffle_buffer;
    c.skip_invalid = args.skip_invalid;
    c.checkpoint_dir = args.checkpoint_dir.clone();
    c.resume = args.resume;
    c.force = args.force;
    c.save_every = args.save_every;
    c.keep_epoch_nets = args.keep_epoch_nets;
    c.loss_output_interval = args.loss_output_interval;
    c.progress = !args.quiet;
    if let Some(ms) = args.progress_every_ms {
        c.progress_every = std::time::Duration::from_millis(ms);
    }
    c.divergence_patience = args.divergence_patience;
    c.stop_after_batches = args.stop_after_batches;
}

/// The run's configuration.
pub fn config_of(args: &TrainArgs) -> Result<TrainConfig, LearnError> {
    let shape = &args.shape;
    let owned = args.clone();
    let start_lambda = args.start_lambda.unwrap_or(args.lambda);
    TrainConfig::builder(&shape.feature_set)
        .ft_size(shape.ft_size())
        .hidden(&shape.hidden()?)
        .factorize(shape.factorize)
        .activation(shape.activation)
        .output_buckets(shape.output_buckets)
        .train(args.train.clone())
        .output_net(args.output_net.clone())
        .csv(args.csv.clone())
        .plot(args.plot.clone())
        .epochs(args.epochs)
        .epoch_size(args.epoch_size)
        .batch_size(args.batch_size)
        .seed(args.seed)
        .with(move |c| {
            c.optimizer = optimizer_of(&owned);
            c.schedule = schedule_of(&owned);
            c.loss = loss_of(&owned);
            c.start_lambda = start_lambda;
            c.end_lambda = owned.end_lambda.unwrap_or(start_lambda);
            c.filter = filter_of(&owned);
            apply_run_options(c, &owned);
        })
        .build()
}

/// The optimizer, loss, filter and rate schedule of `args` (shared with `--preset`).
pub fn config_of_parts(args: &TrainArgs) -> (Optimizer, LossParams, Filter, Schedule) {
    (
        optimizer_of(args),
        loss_of(args),
        filter_of(args),
        schedule_of(args),
    )
}

/// Runs `nnue-learn train --preset sf15.1`.
fn run_preset(args: &TrainArgs, stop: &AtomicBool) -> Result<String, LearnError> {
    let run = super::preset::halfka_run(args)?;
    println!(
        "training HalfKAv2_hm {}x2-16-32-1 x8 (factorised) on {}",
        run.width,
        args.train
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let o = crate::halfka::train_halfka(&run, stop, &mut std::io::stdout())?;
    Ok(format!(
        "wrote {} ({} bytes, Stockfish 15.1 layout) after {}{} positions in {:.1} s; validation loss {:.6} -> {:.6}; {} parameters clamped by quantization",
        run.output_net.display(),
        o.bytes,
        if o.interrupted { "an interruption, " } else { "" },
        o.trained,
        o.seconds,
        o.val_losses.first().copied().unwrap_or(f64::NAN),
        o.val_losses.last().copied().unwrap_or(f64::NAN),
        o.clamped
    ))
}

/// Runs `nnue-learn train`.
pub fn run(args: &TrainArgs, stop: &AtomicBool) -> Result<String, LearnError> {
    if args.preset.is_some() {
        return run_preset(args, stop);
    }
    let config = config_of(args)?;
    if let Some(raw) = &args.output_raw {
        check_raw_output(&config, raw)?;
    }
    crate::train::outputs::prepare_outputs(&config)?;
    let pool = super::thread_pool(args.threads)?;
    println!(
        "training {} on {} ({})",
        config.shape.fingerprint(),
        args.train
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        count(pool.current_num_threads() as u64, "thread")
    );
    let outcome = pool.install(|| train(&config, stop, &mut std::io::stdout()))?;
    let raw_note = match &args.output_raw {
        Some(raw) => {
            let len = super::export::write_raw(&config.output_net, raw)?;
            format!("; raw layout in {} ({len} bytes)", raw.display())
        }
        None => String::new(),
    };
    Ok(format!(
        "wrote {} after {} epochs, {} positions ({} in {:.1} s, {:.0} positions/s); validation loss {:.6}; {} parameters clamped by quantization",
        config.output_net.display(),
        outcome.epochs,
        outcome.positions,
        outcome.trained,
        outcome.seconds,
        outcome.trained as f64 / outcome.seconds.max(1e-9),
        outcome.val_loss,
        outcome.clamped
    ) + &raw_note)
}

/// Before any work: the run's net has a raw layout, and `raw` is an output the
/// output rule accepts (not an input, not the `.nnue`, not existing without
/// `--force`).
fn check_raw_output(config: &TrainConfig, raw: &std::path::Path) -> Result<(), LearnError> {
    nnue_core::nnue::raw::raw_shape_of(&config.shape.arch)
        .map_err(|e| LearnError::Usage(format!("--output-raw {}: {e}", raw.display())))?;
    let mut inputs = config.train.clone();
    inputs.push(config.output_net.clone());
    let mode = nnue_core::output::OutputCheck::mode_from_flags(config.force, false);
    nnue_core::output::OutputCheck::new(mode)
        .inputs(&inputs)
        .check(raw)?;
    Ok(())
}

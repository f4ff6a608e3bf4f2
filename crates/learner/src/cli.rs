//! The `nnue-learn` command line: subcommands, and the `train` options with
//! nodchip's names accepted as aliases (as `--eta` or as nodchip's bare
//! `eta 0.1` pairs, see [`normalize_args`]).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::loss::{LossKind, DEFAULT_COEFFICIENT};
use crate::optim::OptimizerKind;

#[derive(Parser)]
#[command(
    name = "nnue-learn",
    version,
    about = "Train and inspect NNUE networks"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Train a network from .bin, .binpack or .plain files and write a quantized .nnue.
    Train(Box<TrainArgs>),
    /// Measure training speed (positions/s) on a data file.
    Bench(crate::bench::BenchArgs),
    /// Print a net's architecture, feature set, sizes, hashes and Stockfish name.
    Info(crate::info::InfoArgs),
    /// Write a reproducible pseudo-random net of any architecture (SplitMix64, as
    /// shared/tools/make_random_halfkp.py; HalfKP 256x2-32-32 gives identical bytes).
    RandomNet(crate::random_net::RandomNetArgs),
    /// Compare a net's evaluations with the scores of training data: Pearson
    /// correlation and mean absolute difference over a sample of positions.
    Check(crate::commands::check::CheckArgs),
}

/// `nnue-learn train`. A repeated option takes its last value.
#[derive(Args, Clone, Debug)]
#[command(args_override_self = true)]
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
    #[arg(long, default_value_t = 0.05)]
    pub validation_fraction: f64,
    /// Most validation positions evaluated per report, taken evenly across all of
    /// the validation data (every k-th position), not from its start.
    #[arg(long, alias = "validation_count", default_value_t = 2000)]
    pub validation_count: usize,
    /// Validation positions used for move accuracy (each costs a forward pass per
    /// legal move).
    #[arg(long, default_value_t = 500)]
    pub accuracy_count: usize,

    /// Feature set, e.g. HalfKP, All, King-All, All+H+V.
    #[arg(long, alias = "features", default_value = "HalfKP")]
    pub feature_set: String,
    /// Transformer outputs per perspective [default: 256 for HalfKP, 512 otherwise].
    #[arg(long)]
    pub ft_size: Option<usize>,
    /// Hidden layer widths [default: 32,32 for HalfKP, 32 otherwise].
    #[arg(long)]
    pub hidden: Option<String>,
    /// Train with the factoriser's virtual features (HalfKP, King-All).
    #[arg(long)]
    pub factorize: bool,
    /// Start from this .nnue net instead of random weights (fine-tuning): its
    /// architecture must be the one trained; with --factorize the virtual rows
    /// start at zero. nodchip's learner starts from its EvalFile the same way.
    #[arg(long, alias = "eval-file")]
    pub init_net: Option<PathBuf>,

    /// Epochs to train; 0 only evaluates the starting net and writes it.
    #[arg(long, default_value_t = 10)]
    pub epochs: u64,
    /// Positions per epoch.
    #[arg(long, alias = "epoch_size", default_value_t = 1_000_000)]
    pub epoch_size: u64,
    #[arg(long, aliases = ["batch_size", "nn_batch_size"], default_value_t = 16384)]
    pub batch_size: usize,

    #[arg(long, value_enum, default_value = "adam")]
    pub optimizer: OptimizerKind,
    /// Learning rate.
    #[arg(long, alias = "eta", default_value_t = 1e-3)]
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
    /// Train on drawn games (1) or not (0).
    #[arg(long, alias = "use_draw_games_in_training", default_value_t = 1)]
    pub use_draw_games_in_training: u8,
    /// Validate on drawn games (1) or not (0).
    #[arg(long, alias = "use_draw_games_in_validation", default_value_t = 1)]
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
    #[arg(long, default_value_t = 1_000_000)]
    pub shuffle_buffer: usize,
    /// Skip (and count) records that fail to decode instead of stopping (a cut-off
    /// .bin tail and bad .plain records too; a corrupt .binpack chunk still stops).
    #[arg(long)]
    pub skip_invalid: bool,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,

    /// The trained net.
    #[arg(long)]
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
    /// Save a net and a checkpoint every N epochs.
    #[arg(long, default_value_t = 1)]
    pub save_every: u64,
    /// Print nodchip's loss figures every N positions.
    #[arg(long, alias = "loss_output_interval", default_value_t = 1_000_000)]
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
          value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub divergence_patience: u32,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Testing: stop as if interrupted after N batches.
    #[arg(long, hide = true)]
    pub stop_after_batches: Option<u64>,
}

/// nodchip option names that take a value, accepted bare (`eta 0.1`).
const NODCHIP_NAMES: &[&str] = &[
    "eta",
    "lr",
    "epochs",
    "epoch_size",
    "batch_size",
    "nn_batch_size",
    "newbob_decay",
    "lr_step",
    "newbob_num_trials",
    "max_consecutive_rejections",
    "max_grad",
    "lambda",
    "lambda2",
    "lambda_limit",
    "eval_limit",
    "loss_output_interval",
    "validation_set_file_name",
    "validation_count",
    "use_draw_games_in_training",
    "use_draw_games_in_validation",
    "winning_probability_coefficient",
];

/// Rewrites nodchip's bare `name value` pairs after `train` into `--name value`,
/// leaving everything else alone.
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut in_train = false;
    let mut expect_value = false;
    for arg in args {
        if in_train && !expect_value && NODCHIP_NAMES.contains(&arg.as_str()) {
            out.push(format!("--{arg}"));
            expect_value = true;
            continue;
        }
        expect_value = false;
        in_train |= arg == "train";
        out.push(arg);
    }
    out
}

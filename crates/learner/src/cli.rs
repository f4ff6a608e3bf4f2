//! The `nnue-learn` command line: the subcommands (each defined in
//! [`crate::commands`]), and nodchip's bare `eta 0.1` pairs accepted after
//! `train` (see [`normalize_args`]).

use clap::{Parser, Subcommand};

use crate::commands::{bench, check, export, features, info, random_net, train};

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
    Train(Box<train::TrainArgs>),
    /// Measure training speed (positions/s) on a data file.
    Bench(bench::BenchArgs),
    /// Print a net's architecture, feature set, sizes, hashes and Stockfish name.
    Info(info::InfoArgs),
    /// Write a net in another layout: `--layout raw`, the headerless i16 layout
    /// bullet-trained engines embed (768->Nx2->1 nets; docs/FORMATS.md).
    Export(export::ExportArgs),
    /// Write a reproducible pseudo-random net of any architecture (SplitMix64, as the
    /// reference generator make_random_halfkp.py behind tests/data's Stockfish 12
    /// evaluations; HalfKP 256x2-32-32 gives identical bytes).
    RandomNet(random_net::RandomNetArgs),
    /// Compare a net's evaluations with the scores of training data: Pearson
    /// correlation and mean absolute difference over a sample of positions.
    Check(check::CheckArgs),
    /// Print a feature set's active indices for a FEN (or those a move removes
    /// and adds), or measure active, added and removed features on training data.
    Features(features::FeaturesArgs),
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

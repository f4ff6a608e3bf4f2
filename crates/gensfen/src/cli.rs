//! Command line of `nnue-gen-sfen` (clap derive). Generating is the program's
//! main job, so the `generate` options are also accepted with no subcommand.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::generate::options::GenerateArgs;

/// Training data for NNUE: self-play generation, conversion, shuffling,
/// statistics, benchmarks.
#[derive(Debug, Parser)]
#[command(
    name = "nnue-gen-sfen",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do (default: generate).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `generate` options, when no subcommand is given.
    #[command(flatten)]
    pub generate: GenerateArgs,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Self-play training data (Stockfish's gensfen / generate_training_data).
    Generate(Box<GenerateArgs>),
    /// Join .bin files into one uniformly shuffled file (seeded; works on files
    /// larger than memory).
    Shuffle {
        /// Output .bin file.
        output: PathBuf,
        /// Input .bin files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Seed of the permutation.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Memory for one in-memory bucket, MiB.
        #[arg(long, default_value_t = 1024)]
        memory_mib: usize,
        /// Replace an existing output.
        #[arg(long)]
        force: bool,
    },
    /// Convert between .bin and .plain (formats chosen by extension), like
    /// Stockfish's `convert`.
    Convert {
        /// Input file (.bin or .plain).
        input: PathBuf,
        /// Output file (.bin or .plain); replaced only when the conversion succeeds.
        output: PathBuf,
        /// Check every record fully (legal position and best move); stop at the first bad one.
        #[arg(long)]
        validate: bool,
        /// Append to the output instead of replacing it.
        #[arg(long)]
        append: bool,
        /// Accept records whose best move is MOVE_NONE (0 / "0000").
        #[arg(long)]
        allow_move_none: bool,
    },
    /// Print counts, results, check and capture rates, duplicates, ply and score histograms.
    Stats {
        /// Input files (.bin or .plain).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Measure .bin decoding throughput (records/s), one thread and all threads.
    BenchDecode {
        /// A .bin file to decode; without it, records from random games are generated in memory.
        file: Option<PathBuf>,
        /// Number of records to generate when no file is given.
        #[arg(long, default_value_t = 1_000_000)]
        records: usize,
    },
}

//! Command line of `nnue-gen-sfen` (clap derive). Generating is the program's
//! main job, so the `generate` options are also accepted with no subcommand.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::generate::options::GenerateArgs;

/// Training data for NNUE: self-play generation, conversion, shuffling,
/// statistics, benchmarks.
///
/// Exit status: 0 success, 1 failure (bad data, I/O), 2 usage error.
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
    /// Join training-data files into one uniformly shuffled file (seeded;
    /// works on data larger than memory). Each input and the output may be
    /// .bin, .binpack or .plain, chosen by extension. Shuffled positions no
    /// longer form game chains, so a .binpack output is valid but larger
    /// than a generated one (about 34 bytes a position, against about 3).
    Shuffle {
        /// Output file (.bin, .binpack or .plain); it appears only when complete.
        output: PathBuf,
        /// Input files (.bin, .binpack or .plain, mixed freely).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Seed of the permutation.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Memory for one in-memory bucket, MiB (40 bytes a record; the
        /// bucket count is set from the record count estimated from file
        /// sizes: .bin 40, .binpack about 2.9, .plain about 95 bytes a record).
        #[arg(long, default_value_t = 1024)]
        memory_mib: usize,
        /// Replace an existing output.
        #[arg(long)]
        force: bool,
    },
    /// Convert between .bin, .binpack and .plain (formats chosen by
    /// extension), byte-compatible with Stockfish's `convert`: .bin output
    /// stores the padding byte as 255, and .binpack stores no fullmove
    /// number (readers derive it from the ply).
    Convert {
        /// Input file (.bin, .binpack or .plain).
        input: PathBuf,
        /// Output file (.bin, .binpack or .plain); replaced only when the conversion succeeds.
        output: PathBuf,
        /// Check every record fully (legal position and best move), not only its structure.
        #[arg(long)]
        validate: bool,
        /// Append to the output instead of replacing it.
        #[arg(long)]
        append: bool,
        /// Accept records whose best move is MOVE_NONE (0 / "0000").
        #[arg(long)]
        allow_move_none: bool,
        /// Skip and count invalid records instead of stopping at the first one.
        #[arg(long)]
        skip_invalid: bool,
    },
    /// Replace every record's score with a new search value (Stockfish
    /// tools' `transform rescore`), keeping position, move, ply and result.
    /// `--depth 0` is the quiescence value: the static evaluation of quiet
    /// positions, a clean target for distilling an evaluation into a net.
    Rescore {
        /// Input file (.bin, .binpack or .plain); every record must be a legal position.
        input: PathBuf,
        /// Output file (.bin, .binpack or .plain); it appears only when complete.
        output: PathBuf,
        /// Search depth: 0 for the quiescence value, else a full search of that depth.
        #[arg(long, default_value_t = 0)]
        depth: u32,
        /// Score with the static evaluation, no search at all.
        #[arg(long = "static")]
        static_eval: bool,
        /// A `.nnue` net to score with (default: the classical evaluation).
        #[arg(long, alias = "eval_file")]
        eval_file: Option<PathBuf>,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// No progress display.
        #[arg(long)]
        quiet: bool,
    },
    /// Print counts, results, check and capture rates, duplicates, ply and score histograms.
    /// Fails on the first invalid record unless --skip-invalid.
    Stats {
        /// Input files (.bin, .binpack or .plain).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Skip and count invalid records instead of stopping at the first one.
        #[arg(long)]
        skip_invalid: bool,
    },
    /// Measure decoding throughput: .bin records/s (one thread and all
    /// threads), or .binpack positions/s on one thread and bytes/position.
    BenchDecode {
        /// A .bin or .binpack file to decode; without it, .bin records from random games are generated in memory.
        file: Option<PathBuf>,
        /// Number of records to generate when no file is given.
        #[arg(long, default_value_t = 1_000_000)]
        records: usize,
    },
}

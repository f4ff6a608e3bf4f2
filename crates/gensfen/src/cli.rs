//! Command line of `nnue-gen-sfen` (clap derive). Generating is the program's
//! main job, so the `generate` options are also accepted with no subcommand
//! (as Stockfish's tools take them); with no argument at all the program
//! prints its help instead of starting a run of 8 billion positions.

use clap::{Parser, Subcommand};

use crate::bench::BenchDecodeArgs;
use crate::convert::ConvertArgs;
use crate::generate::options::GenerateArgs;
use crate::interleave::InterleaveArgs;
use crate::rescore::RescoreArgs;
use crate::shuffle::ShuffleArgs;
use crate::stats::StatsArgs;
use crate::validate::ValidateArgs;

/// Training data for NNUE: self-play generation, conversion, shuffling,
/// statistics, benchmarks.
///
/// Exit status: 0 success, 1 failure (bad data, I/O), 2 usage error,
/// 130 / 143 generation stopped by SIGINT / SIGTERM (the file holds whole games).
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

/// Subcommands; each takes its own argument struct to its own module.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Self-play training data (Stockfish's gensfen / generate_training_data).
    Generate(Box<GenerateArgs>),
    /// Join training-data files into one uniformly shuffled file (seeded;
    /// works on data larger than memory). Each input and the output may be
    /// .bin, .binpack, .plain, .vf, .mf or .bf, chosen by extension. Shuffled positions no
    /// longer form game chains, so a .binpack output is valid but larger
    /// than a generated one (about 34 bytes a position, against about 3).
    Shuffle(ShuffleArgs),
    /// Merge files at random as bullet's interleave does: each next record
    /// comes from a file drawn in proportion to the records it has left, so
    /// each file spreads evenly over the output and keeps its own order
    /// (seeded; nothing held in memory). Any formats, mixed.
    Interleave(InterleaveArgs),
    /// Convert between .bin, .binpack, .plain, viriformat (.vf),
    /// marlinformat (.mf) and bulletformat (.bf) (formats chosen by
    /// extension, or by --input-format / --output-format), byte-compatible
    /// with Stockfish's `convert`: .bin output stores the padding byte as
    /// 255, and .binpack stores no fullmove number (readers derive it from
    /// the ply). .vf makes one game of each run of records that follow from
    /// each other by the stored move; .mf and .bf store no move. A record
    /// the output cannot hold is an error naming it.
    Convert(ConvertArgs),
    /// Replace every record's score with a new search value (Stockfish
    /// tools' `transform rescore`), keeping position, move, ply and result
    /// (`--best-move`: the move becomes the search's best move too).
    /// `--depth 0` is the quiescence value: the static evaluation of quiet
    /// positions, a clean target for distilling an evaluation into a net.
    Rescore(RescoreArgs),
    /// Print counts, results, check and capture rates, duplicates, ply and score histograms.
    /// Fails on the first invalid record unless --skip-invalid.
    Stats(StatsArgs),
    /// Check every record in full (one king each, no pawn on a back rank,
    /// the side not to move not in check, consistent castling rights, a
    /// legal best move where the format stores one) and print the counts
    /// per result; the first bad record is a one-line error naming it.
    Validate(ValidateArgs),
    /// Measure decoding throughput: .bin records/s (one thread and all
    /// threads), or .binpack positions/s on one thread and bytes/position.
    BenchDecode(BenchDecodeArgs),
}

impl Cli {
    /// The command to run: `generate` when no subcommand was given.
    pub fn into_command(self) -> Command {
        self.command
            .unwrap_or_else(|| Command::Generate(Box::new(self.generate)))
    }
}

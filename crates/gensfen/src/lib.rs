//! `nnue-gen-sfen` as a library: the binary only parses arguments, prints and
//! exits. Each subcommand's module takes its own clap argument struct.

#![warn(unreachable_pub)]

pub mod bench;
pub mod bench_binpack;
pub mod cli;
pub mod convert;
pub mod error;
pub mod eval;
pub mod format;
pub mod generate;
pub mod interleave;
pub mod progress;
pub mod rescore;
pub mod rng;
pub mod sample;
pub mod shard;
pub mod shuffle;
pub mod source;
pub mod stats;
pub mod validate;

use std::sync::atomic::AtomicBool;

use cli::Command;
use error::Error;

/// Runs one parsed command; the returned text goes to stdout. `stop` ends a
/// `generate` run early (whole games kept); the other commands ignore it.
pub fn run(command: Command, stop: &AtomicBool) -> Result<String, Error> {
    match command {
        Command::Generate(args) => generate::run(&args, stop),
        Command::Shuffle(args) => shuffle::run(&args),
        Command::Interleave(args) => interleave::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Rescore(args) => rescore::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::BenchDecode(args) => bench::run(&args),
    }
}

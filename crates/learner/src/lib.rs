//! `nnue-learn` as a library: the CPU trainer (data stream, float model, losses,
//! optimizers, checkpoints, export through the core) and the net tools. The binary
//! only parses arguments and prints.

pub mod checkpoint;
pub mod cli;
pub mod commands;
pub mod data;
pub mod error;
pub mod halfka;
pub mod history;
pub mod loss;
pub mod model;
pub mod optim;
pub mod pqr;
pub mod train;

use std::sync::atomic::AtomicBool;

pub use error::LearnError;

/// Runs a parsed command; the text to print on success.
pub fn run(command: cli::Command, stop: &AtomicBool) -> Result<String, LearnError> {
    match command {
        cli::Command::Train(args) => commands::train::run(&args, stop),
        cli::Command::Bench(args) => commands::bench::run(&args),
        cli::Command::Info(args) => commands::info::run(&args),
        cli::Command::Export(args) => commands::export::run(&args),
        cli::Command::RandomNet(args) => commands::random_net::run(&args),
        cli::Command::Check(args) => commands::check::run(&args),
        cli::Command::Features(args) => commands::features::run(&args),
    }
}

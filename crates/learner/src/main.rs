//! `nnue-learn`: the trainer's command line. Subcommands that inspect and create
//! `.nnue` files live here next to training so users have one tool for nets.

mod info;
mod random_net;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "nnue-learn",
    version,
    about = "Train and inspect NNUE networks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a net's architecture, feature set, sizes, hashes and Stockfish name.
    Info(info::InfoArgs),
    /// Write a reproducible pseudo-random net of any architecture (SplitMix64, as
    /// shared/tools/make_random_halfkp.py; HalfKP 256x2-32-32 gives identical bytes).
    RandomNet(random_net::RandomNetArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info(args) => info::run(&args),
        Command::RandomNet(args) => random_net::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("nnue-learn: {message}");
            ExitCode::FAILURE
        }
    }
}

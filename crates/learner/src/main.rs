//! `nnue-learn`: parses the command line, runs it, prints the result or one
//! `nnue-learn: error: …` line, with the exit statuses every program of the
//! toolkit shares (`nnue_core::cli::exit`).

use std::process::ExitCode;

use clap::Parser;
use nnue_core::cli::{Program, StopSignal};
use nnue_learner::cli::{normalize_args, Cli};
use nnue_learner::LearnError;

const PROGRAM: Program = Program("nnue-learn");

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(normalize_args(std::env::args().collect())) {
        Ok(cli) => cli,
        Err(e) => return PROGRAM.parse_error(&e),
    };
    // SIGINT and SIGTERM (a cluster's pre-emption) both save a checkpoint.
    let signal = StopSignal::install();
    match nnue_learner::run(cli.command, signal.flag()) {
        Ok(text) => PROGRAM.report(&text),
        // A stop is what Ctrl-C or a scheduler asked for: said as such, not as an error.
        Err(e @ LearnError::Interrupted { .. }) => {
            let code = signal.exit_status().unwrap_or(e.exit_code());
            PROGRAM.stopped(&e.to_string(), code)
        }
        Err(e) => PROGRAM.fail(&e.to_string(), e.exit_code()),
    }
}

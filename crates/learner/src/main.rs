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
        Err(e) => {
            let code = match (&e, signal.exit_status()) {
                (LearnError::Interrupted { .. }, Some(status)) => status,
                _ => e.exit_code(),
            };
            PROGRAM.fail(&e.to_string(), code)
        }
    }
}

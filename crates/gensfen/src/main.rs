use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use nnue_core::cli::{Program, StopSignal};
use nnue_gensfen::cli::{Cli, Command};

/// How the program names itself in its error lines.
const PROGRAM: Program = Program("nnue-gen-sfen");

fn main() -> ExitCode {
    // No argument at all: the help, not a default run of 8 billion positions.
    if std::env::args_os().len() <= 1 {
        return PROGRAM.report(&Cli::command().render_help().to_string());
    }
    let command = match Cli::try_parse() {
        Ok(cli) => cli.into_command(),
        Err(e) => return PROGRAM.parse_error(&e),
    };
    // Only `generate` stops cleanly on a signal; the others keep the default
    // (a signal ends them, and their atomic outputs are never half-written).
    let stop = match command {
        Command::Generate(_) => StopSignal::install(),
        _ => StopSignal::new(),
    };
    match nnue_gensfen::run(command, stop.flag()) {
        Ok(text) => {
            let printed = PROGRAM.report(&text);
            match stop.exit_status() {
                Some(status) => ExitCode::from(status),
                None => printed,
            }
        }
        Err(e) => PROGRAM.fail(&e.to_string(), e.exit_code()),
    }
}

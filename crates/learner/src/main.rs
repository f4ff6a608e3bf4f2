//! `nnue-learn`: parses the command line, runs it, prints the result or one
//! `nnue-learn: error: …` line (exit 1; usage errors exit 2).

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Parser;
use nnue_learner::cli::{normalize_args, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(std::env::args().collect()));
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Without a handler Ctrl-C still ends the program, just without a checkpoint.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    match nnue_learner::run(cli.command, &stop) {
        Ok(text) => {
            if !text.is_empty() {
                println!("{}", text.trim_end());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let msg = e.to_string().replace('\n', " ");
            eprintln!("nnue-learn: error: {msg}");
            ExitCode::from(e.exit_code())
        }
    }
}

//! `nnue-learn`: parses the command line, runs it, prints the result or one
//! `nnue-learn: error: …` line (exit 1; usage errors exit 2).

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Parser;
use nnue_learner::cli::{normalize_args, Cli};

/// clap's message as one `nnue-learn: error:` line (help and version print as
/// usual).
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let text = e.to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
        .collect();
    let message = parts.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    eprintln!("nnue-learn: error: {message} (see nnue-learn --help)");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(normalize_args(std::env::args().collect())) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
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

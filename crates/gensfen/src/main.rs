use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;
use nnue_gensfen::cli::Cli;
use nnue_gensfen::error::{EXIT_FAILURE, EXIT_USAGE};

/// Every error is one line `nnue-gen-sfen: error: <what>` on stderr (a usage
/// error adds clap's usage lines after it), so scripts can grep file and record.
const PREFIX: &str = "nnue-gen-sfen: error: ";

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{PREFIX}a subcommand is required\n\n{e}");
            return ExitCode::from(EXIT_USAGE);
        }
        Err(e) => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            eprint!("{PREFIX}{text}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match nnue_gensfen::run(cli) {
        Ok(text) => print_report(text.trim_end()),
        Err(e) => {
            let msg = e.to_string().replace('\n', " ");
            eprintln!("{PREFIX}{msg}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Prints the command's report. A reader that went away (`| head`) is not an
/// error of ours; any other write failure is.
fn print_report(text: &str) -> ExitCode {
    if text.is_empty() {
        return ExitCode::SUCCESS;
    }
    match writeln!(std::io::stdout().lock(), "{text}") {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{PREFIX}standard output: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

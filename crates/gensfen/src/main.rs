use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use nnue_gensfen::cli::Cli;
use nnue_gensfen::error::CliError;

fn main() -> ExitCode {
    match nnue_gensfen::run(Cli::parse()) {
        Ok(text) => {
            if !text.is_empty() {
                // A closed stdout (`| head`) is not an error of ours: no panic.
                let _ = writeln!(std::io::stdout().lock(), "{}", text.trim_end());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            // One line, so scripts can grep file and record index.
            let msg = e.to_string().replace('\n', " ");
            eprintln!("nnue-gen-sfen: error: {msg}");
            match e {
                CliError::Generate(g) if g.is_usage() => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

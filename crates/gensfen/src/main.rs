use std::process::ExitCode;

use clap::Parser;
use nnue_gensfen::cli::Cli;

fn main() -> ExitCode {
    match nnue_gensfen::run(Cli::parse()) {
        Ok(text) => {
            println!("{}", text.trim_end());
            ExitCode::SUCCESS
        }
        Err(e) => {
            // One line, so scripts can grep file and record index.
            let msg = e.to_string().replace('\n', " ");
            eprintln!("nnue-gen-sfen: error: {msg}");
            ExitCode::FAILURE
        }
    }
}

//! `nnue-gen-sfen` as a library: the binary only parses arguments and prints.

pub mod bench;
pub mod bench_binpack;
pub mod cli;
pub mod convert;
pub mod error;
pub mod format;
pub mod sample;
pub mod source;
pub mod stats;

use cli::{Cli, Command};
use error::CliError;

/// Runs one parsed command line; the returned text goes to stdout.
pub fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::Convert {
            input,
            output,
            validate,
            append,
            allow_move_none,
            skip_invalid,
        } => {
            let done = convert::convert(
                &input,
                &output,
                convert::ConvertOptions {
                    validate,
                    append,
                    allow_move_none,
                    skip_invalid,
                },
            )?;
            Ok(format!(
                "converted {} records ({} invalid skipped): {} -> {}",
                done.written,
                done.skipped,
                input.display(),
                output.display()
            ))
        }
        Command::Stats {
            files,
            skip_invalid,
        } => Ok(stats::stats(&files, skip_invalid)?.to_string()),
        Command::BenchDecode {
            file: Some(file), ..
        } if format::Format::from_path(&file)? == format::Format::Binpack => {
            Ok(bench_binpack::bench_binpack(&file)?.to_string())
        }
        Command::BenchDecode { file, records } => {
            Ok(bench::bench_decode(file.as_deref(), records)?.to_string())
        }
    }
}

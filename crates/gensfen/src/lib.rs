//! `nnue-gen-sfen` as a library: the binary only parses arguments and prints.

pub mod bench;
pub mod cli;
pub mod convert;
pub mod error;
pub mod format;
pub mod generate;
pub mod sample;
pub mod shard;
pub mod shuffle;
pub mod source;
pub mod stats;
pub mod writer;

use cli::{Cli, Command};
use error::CliError;

/// Runs one parsed command line; the returned text goes to stdout.
pub fn run(cli: Cli) -> Result<String, CliError> {
    let command = cli
        .command
        .unwrap_or_else(|| Command::Generate(Box::new(cli.generate)));
    match command {
        Command::Generate(args) => {
            generate::install_interrupt_handler().map_err(CliError::Usage)?;
            let summary = generate::generate(&args, &generate::INTERRUPTED)?;
            Ok(if args.quiet {
                String::new()
            } else {
                summary.to_string()
            })
        }
        Command::Shuffle {
            output,
            inputs,
            seed,
            memory_mib,
            force,
        } => {
            let options = shuffle::ShuffleOptions {
                seed,
                memory_mib,
                force,
            };
            let n = shuffle::shuffle(&output, &inputs, options)?;
            Ok(format!("shuffled {n} records -> {}", output.display()))
        }
        Command::Convert {
            input,
            output,
            validate,
            append,
            allow_move_none,
        } => {
            let n = convert::convert(
                &input,
                &output,
                convert::ConvertOptions {
                    validate,
                    append,
                    allow_move_none,
                },
            )?;
            Ok(format!(
                "converted {n} records: {} -> {}",
                input.display(),
                output.display()
            ))
        }
        Command::Stats { files } => Ok(stats::stats(&files)?.to_string()),
        Command::BenchDecode { file, records } => {
            Ok(bench::bench_decode(file.as_deref(), records)?.to_string())
        }
    }
}

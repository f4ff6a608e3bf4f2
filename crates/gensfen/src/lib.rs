//! `nnue-gen-sfen` as a library: the binary only parses arguments and prints.

pub mod bench;
pub mod bench_binpack;
pub mod cli;
pub mod convert;
pub mod error;
pub mod format;
pub mod generate;
pub mod rescore;
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
        Command::Rescore {
            input,
            output,
            depth,
            static_eval,
            eval_file,
            threads,
            quiet,
        } => {
            let label = rescore::Label::new(depth, static_eval)?;
            let options = rescore::RescoreOptions {
                label,
                eval_file,
                threads,
                quiet,
            };
            let done = rescore::rescore(&input, &output, &options)?;
            Ok(format!(
                "rescored {} records with {label} ({} scores changed): {} -> {}",
                done.written,
                done.changed,
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

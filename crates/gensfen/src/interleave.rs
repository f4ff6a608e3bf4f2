//! `nnue-gen-sfen interleave IN... OUT [--seed S] [--force]`: merges files
//! at random, as bullet's `interleave` does. Each next record comes from a
//! file drawn with probability proportional to the records it has left, so
//! every file's records spread evenly over the output while each file's
//! own order is kept, and nothing has to fit in memory (one record per
//! input is held at a time). Inputs and output may be any format, mixed.

use std::path::PathBuf;

use clap::Args;
use nnue_core::data::{
    DataRecords, ReaderOptions, TrainingDataReader, TrainingDataWriter, Validation,
};
use nnue_core::output::{AtomicOutput, OutputCheck};

use crate::error::Error;
use crate::format::Format;
use crate::rng::{mix, parse_seed, GenRng};
use crate::source::for_each_record;

/// The arguments of `nnue-gen-sfen interleave` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct InterleaveArgs {
    /// Input files (.bin, .binpack, .plain, .vf, .mf or .bf, mixed freely).
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// Output file (any of the same formats); it appears only when complete.
    #[arg(required = true)]
    pub output: PathBuf,
    /// Seed of the draws: a number or any text (hashed), as `generate --seed`.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub seed: String,
    /// Replace an existing output (never one of the inputs).
    #[arg(long)]
    pub force: bool,
}

/// Runs `interleave` and says what it did.
pub fn run(args: &InterleaveArgs) -> Result<String, Error> {
    let n = interleave(args)?;
    Ok(format!(
        "interleaved {n} records from {} files -> {}",
        args.inputs.len(),
        args.output.display()
    ))
}

/// Interleaves `args.inputs` into `args.output`; returns the record count.
/// Pass one counts (and checks) every input's records, so the first bad
/// record is an error naming it before anything is written; pass two draws.
pub fn interleave(args: &InterleaveArgs) -> Result<u64, Error> {
    let output = args.output.as_path();
    let mode = OutputCheck::mode_from_flags(args.force, false);
    OutputCheck::new(mode).inputs(&args.inputs).check(output)?;
    let out_format = Format::from_path(output)?;
    let mut left = Vec::with_capacity(args.inputs.len());
    for input in &args.inputs {
        let mut count = 0u64;
        for_each_record(input, ReaderOptions::default(), Validation::Fast, |_, _| {
            count += 1;
            Ok(())
        })?;
        left.push(count);
    }
    let readers = args
        .inputs
        .iter()
        .map(|path| TrainingDataReader::open(path, ReaderOptions::default()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sources = readers
        .iter()
        .map(|r| r.records(Validation::Fast))
        .collect::<Result<Vec<_>, _>>()?;
    let (guard, file) = AtomicOutput::create(output, false)?;
    let mut out = TrainingDataWriter::from_file(file, output, out_format)?;
    let mut rng = GenRng::new(mix(parse_seed(&args.seed)));
    draw_all(&mut sources, &mut left, &mut rng, &mut out)?;
    let records = out.finish()?;
    guard.commit()?;
    Ok(records)
}

/// Writes every record left, each from a file drawn in proportion to what
/// it has left. A file that ends before its count (changed since pass one)
/// just drops out of the draw.
fn draw_all(
    sources: &mut [DataRecords<'_>],
    left: &mut [u64],
    rng: &mut GenRng,
    out: &mut TrainingDataWriter,
) -> Result<(), Error> {
    let mut total: u64 = left.iter().sum();
    while total > 0 {
        let mut pick = rng.below(total);
        let file = left
            .iter()
            .position(|&n| {
                let here = pick < n;
                pick = pick.saturating_sub(n);
                here
            })
            .unwrap_or(0);
        match sources[file].next() {
            Some(record) => {
                out.write(&record?.raw)?;
                left[file] -= 1;
                total -= 1;
            }
            None => {
                total -= left[file];
                left[file] = 0;
            }
        }
    }
    Ok(())
}

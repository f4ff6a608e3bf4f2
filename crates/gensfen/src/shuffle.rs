//! `nnue-gen-sfen shuffle IN... OUT`: joins training-data files (e.g. the
//! shards of one data set) into one uniformly shuffled file, seeded, in
//! bounded memory. Every input and the output may be `.bin`, `.binpack` or
//! `.plain`, each chosen by its extension.
//!
//! Two passes: every record (read through the core's reader, so bad input is
//! named by file and record, chunk or line) goes as its 40-byte form to one
//! of B temporary bucket files drawn at random; then each bucket is shuffled
//! in memory and written through a [`TrainingDataWriter`]. Random bucket +
//! uniform in-bucket order is a uniform permutation of all records, and
//! memory stays at about one bucket, so data larger than memory works. The
//! output appears under its name only when complete.
//!
//! B is fixed before pass one from an estimate of the record count (see
//! [`estimated_records`]); a compressed input that packs better than
//! estimated gives buckets larger than `--memory-mib`, never a wrong result.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::builder::RangedI64ValueParser;
use clap::Args;
use nnue_core::data::{ReaderOptions, TrainingDataWriter, Validation};
use nnue_core::output::{AtomicOutput, OutputCheck};
use nnue_core::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

use crate::error::Error;
use crate::format::{estimated_records, Format};
use crate::rng::{mix, parse_seed, GenRng};
use crate::source::for_each_record;
use nnue_core::data::filter::{Filter, FilterArgs};

const RECORD: usize = PACKED_SFEN_VALUE_SIZE;
/// Head room over the memory budget for buckets that come out larger than average.
const BUCKET_SLACK: f64 = 1.25;
/// I/O buffer per open bucket file.
const BUCKET_BUFFER: usize = 64 << 10;

/// The arguments of `nnue-gen-sfen shuffle` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct ShuffleArgs {
    /// Input files (.bin, .binpack, .plain, .vf, .mf or .bf, mixed freely).
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// Output file (.bin, .binpack, .plain, .vf, .mf or .bf); it appears only when complete.
    #[arg(required = true)]
    pub output: PathBuf,
    /// Seed of the permutation: a number or any text (hashed), as `generate --seed`.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub seed: String,
    /// Memory for one in-memory bucket, MiB (40 bytes a record; the
    /// bucket count is set from the record count estimated from file
    /// sizes: .bin 40, .binpack about 2.9, .plain about 95 bytes a record).
    #[arg(long, default_value_t = 1024, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..=MEMORY_MIB_MAX))]
    pub memory_mib: u64,
    /// Replace an existing output (never one of the inputs).
    #[arg(long)]
    pub force: bool,
    /// Which records are shuffled in (all without these options).
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// Largest `--memory-mib`: 1 TiB of bucket.
const MEMORY_MIB_MAX: i64 = 1 << 20;

/// One input file and its format.
struct Input {
    path: PathBuf,
    format: Format,
    size: u64,
}

/// Temporary bucket files, removed on drop.
struct Buckets {
    dir: PathBuf,
    paths: Vec<PathBuf>,
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Runs `shuffle` and says what it did.
pub fn run(args: &ShuffleArgs) -> Result<String, Error> {
    let n = shuffle(args)?;
    Ok(format!("shuffled {n} records -> {}", args.output.display()))
}

/// Shuffles the records of `args.inputs` into `args.output`; returns the record count.
pub fn shuffle(args: &ShuffleArgs) -> Result<u64, Error> {
    let output = args.output.as_path();
    let (out_format, inputs) = check_files(args)?;
    let estimate: u64 = inputs
        .iter()
        .map(|i| estimated_records(i.format, i.size))
        .sum();
    let budget = args.memory_mib << 20;
    let bytes = estimate.saturating_mul(RECORD as u64);
    let buckets = ((bytes as f64 * BUCKET_SLACK / budget as f64).ceil() as u64).max(1);
    let mut rng = GenRng::new(mix(parse_seed(&args.seed)));
    let filter = args.filter.filter();
    let (guard, file) = AtomicOutput::create(output, false)?;
    let mut out = TrainingDataWriter::from_file(file, output, out_format)?;
    if buckets == 1 {
        let mut all = Vec::with_capacity(bytes as usize);
        for_each_input(&inputs, filter.as_ref(), |record| {
            all.extend_from_slice(record);
            Ok(())
        })?;
        write_shuffled(&mut all, &mut rng, &mut out)?;
    } else {
        let parts = split(output, &inputs, filter.as_ref(), buckets as usize, &mut rng)?;
        for path in &parts.paths {
            let mut data = fs::read(path).map_err(|source| Error::Read {
                file: path.clone(),
                source,
            })?;
            write_shuffled(&mut data, &mut rng, &mut out)?;
        }
    }
    let records = out.finish()?;
    guard.commit()?;
    Ok(records)
}

/// The output rule first (the output is none of the inputs, even with
/// `--force`; an existing output needs `--force`; its folder exists), then
/// every file names a supported format and every input is a readable file.
/// Returns the output format and the inputs with their formats and sizes.
fn check_files(args: &ShuffleArgs) -> Result<(Format, Vec<Input>), Error> {
    let mode = OutputCheck::mode_from_flags(args.force, false);
    OutputCheck::new(mode)
        .inputs(&args.inputs)
        .check(&args.output)?;
    let mut checked = Vec::with_capacity(args.inputs.len());
    for input in &args.inputs {
        let format = Format::from_path(input)?;
        let size = fs::metadata(input)
            .map_err(|source| Error::Read {
                file: input.clone(),
                source,
            })?
            .len();
        checked.push(Input {
            path: input.clone(),
            format,
            size,
        });
    }
    Ok((Format::from_path(&args.output)?, checked))
}

/// Calls `emit` with the 40-byte form of every record of every input, in
/// file order; the first bad record, chunk or line is an error naming it.
/// Records `filter` leaves out are not emitted; the filter's draw number is
/// the record's number among all the inputs' records.
fn for_each_input(
    inputs: &[Input],
    filter: Option<&Filter>,
    mut emit: impl FnMut(&[u8; RECORD]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut draw = 0u64;
    for input in inputs {
        for_each_record(
            &input.path,
            ReaderOptions::default(),
            Validation::Fast,
            |raw, record| {
                draw += 1;
                match filter {
                    Some(f) if !f.accepts(record, draw - 1) => Ok(()),
                    _ => emit(&raw.to_bytes()),
                }
            },
        )?;
    }
    Ok(())
}
/// Pass one: every record to a random bucket file.
fn split(
    output: &Path,
    inputs: &[Input],
    filter: Option<&Filter>,
    count: usize,
    rng: &mut GenRng,
) -> Result<Buckets, Error> {
    let name = output
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let dir = output.with_file_name(format!(".{name}.shuffle-{}", std::process::id()));
    fs::create_dir_all(&dir).map_err(|source| Error::Write {
        file: dir.clone(),
        source,
    })?;
    let buckets = Buckets {
        paths: (0..count)
            .map(|k| dir.join(format!("bucket-{k}.bin")))
            .collect(),
        dir,
    };
    let write_err = |k: usize, source| Error::Write {
        file: buckets.paths[k].clone(),
        source,
    };
    let mut writers = (0..count)
        .map(|k| {
            File::create(&buckets.paths[k])
                .map(|f| BufWriter::with_capacity(BUCKET_BUFFER, f))
                .map_err(|source| write_err(k, source))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for_each_input(inputs, filter, |record| {
        let k = rng.below(count as u64) as usize;
        writers[k]
            .write_all(record)
            .map_err(|source| write_err(k, source))
    })?;
    for (k, w) in writers.iter_mut().enumerate() {
        w.flush().map_err(|source| write_err(k, source))?;
    }
    Ok(buckets)
}

/// Shuffles the records in `data` (Fisher-Yates over 40-byte slots) and writes them.
fn write_shuffled(
    data: &mut [u8],
    rng: &mut GenRng,
    out: &mut TrainingDataWriter,
) -> Result<(), Error> {
    let n = data.len() / RECORD;
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        if i != j {
            let (a, b) = data.split_at_mut(i * RECORD);
            a[j * RECORD..(j + 1) * RECORD].swap_with_slice(&mut b[..RECORD]);
        }
    }
    for record in data.chunks_exact(RECORD) {
        let bytes: &[u8; RECORD] = record.try_into().expect("40-byte chunk");
        out.write(&PackedSfenValue::from_bytes(bytes))?;
    }
    Ok(())
}

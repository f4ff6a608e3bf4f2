//! `nnue-gen-sfen shuffle OUT IN...`: joins training-data files (e.g. the
//! shards of one data set) into one uniformly shuffled file, seeded, in
//! bounded memory. Every input and the output may be `.bin`, `.binpack` or
//! `.plain`, each chosen by its extension.
//!
//! Two passes: every record (read through the core's [`TrainingDataReader`],
//! so bad input is named by file and record, chunk or line) goes as its
//! 40-byte form to one of B temporary bucket files drawn at random; then each
//! bucket is shuffled in memory and written through a [`TrainingDataWriter`].
//! Random bucket + uniform in-bucket order is a uniform permutation of all
//! records, and memory stays at about one bucket, so data larger than memory
//! works. The output appears under its name only when complete.
//!
//! B is fixed before pass one from an estimate of the record count (see
//! [`estimated_records`]); a compressed input that packs better than
//! estimated gives buckets larger than `--memory-mib`, never a wrong result.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use nnue_core::data::{
    DataFormat, ReaderOptions, TrainingDataReader, TrainingDataWriter, Validation,
};
use nnue_core::output::AtomicOutput;
use nnue_core::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

use crate::generate::error::GenerateError;
use crate::generate::rng::{mix, GenRng};

const RECORD: usize = PACKED_SFEN_VALUE_SIZE;
/// Head room over the memory budget for buckets that come out larger than average.
const BUCKET_SLACK: f64 = 1.25;
/// I/O buffer per open bucket file.
const BUCKET_BUFFER: usize = 64 << 10;
/// `.binpack` positions per file byte, as a ratio: Stockfish's chained
/// encoding stores a game's positions in about 2.9 bytes each (40 / 14).
const BINPACK_RECORDS_PER_BYTE: (u64, u64) = (14, 40);
/// Typical size of one `.plain` record (six `key value` lines), bytes.
const PLAIN_BYTES_PER_RECORD: u64 = 95;

/// Shuffle settings.
#[derive(Clone, Copy, Debug)]
pub struct ShuffleOptions {
    pub seed: u64,
    /// Memory for one bucket, MiB.
    pub memory_mib: usize,
    /// Replace an existing output.
    pub force: bool,
}

/// One input file and its format.
struct Input {
    path: PathBuf,
    format: DataFormat,
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

/// Shuffles the records of `inputs` into `output`; returns the record count.
pub fn shuffle(
    output: &Path,
    inputs: &[PathBuf],
    options: ShuffleOptions,
) -> Result<u64, GenerateError> {
    let (out_format, inputs) = check_files(output, inputs, options.force)?;
    let estimate: u64 = inputs
        .iter()
        .map(|i| estimated_records(i.format, i.size))
        .sum();
    let budget = (options.memory_mib.max(1) as u64) << 20;
    let bytes = estimate.saturating_mul(RECORD as u64);
    let buckets = ((bytes as f64 * BUCKET_SLACK / budget as f64).ceil() as u64).max(1);
    let mut rng = GenRng::new(mix(options.seed));
    let (guard, file) = AtomicOutput::create(output, false)?;
    let mut out = TrainingDataWriter::from_file(file, output, out_format)?;
    if buckets == 1 {
        let mut all = Vec::with_capacity(bytes as usize);
        for_each_record(&inputs, |record| {
            all.extend_from_slice(record);
            Ok(())
        })?;
        write_shuffled(&mut all, &mut rng, &mut out)?;
    } else {
        let parts = split(output, &inputs, buckets as usize, &mut rng)?;
        for path in &parts.paths {
            let mut data = fs::read(path).map_err(|source| read_err(path, source))?;
            write_shuffled(&mut data, &mut rng, &mut out)?;
        }
    }
    let records = out.finish()?;
    guard.commit()?;
    Ok(records)
}

/// Records a file of `size` bytes holds, estimated from its format, to size
/// the buckets: exact for `.bin`, typical ratios for `.binpack` (about
/// 2.9 bytes a position in game chains) and `.plain` (about 95 bytes a record).
pub fn estimated_records(format: DataFormat, size: u64) -> u64 {
    match format {
        DataFormat::Bin => size / RECORD as u64,
        DataFormat::Binpack => {
            let (num, den) = BINPACK_RECORDS_PER_BYTE;
            size.saturating_mul(num) / den
        }
        DataFormat::Plain => size.div_ceil(PLAIN_BYTES_PER_RECORD),
    }
}

fn read_err(path: &Path, source: std::io::Error) -> GenerateError {
    GenerateError::Read {
        file: path.to_path_buf(),
        source,
    }
}

/// Every file names a supported format by its extension, the inputs exist
/// and the output is a new file that is none of them. Returns the output
/// format and the inputs with their formats and sizes.
fn check_files(
    output: &Path,
    inputs: &[PathBuf],
    force: bool,
) -> Result<(DataFormat, Vec<Input>), GenerateError> {
    let bad = |s: String| GenerateError::InvalidOption(s);
    let out_format = DataFormat::from_path(output).map_err(|e| bad(e.to_string()))?;
    if output.exists() && !force {
        return Err(GenerateError::OutputExists(output.to_path_buf()));
    }
    let out_canonical = output.canonicalize().ok();
    let mut checked = Vec::with_capacity(inputs.len());
    for input in inputs {
        let format = DataFormat::from_path(input).map_err(|e| bad(e.to_string()))?;
        let size = fs::metadata(input)
            .map_err(|source| read_err(input, source))?
            .len();
        if out_canonical.is_some() && input.canonicalize().ok() == out_canonical {
            return Err(bad(format!(
                "{}: input and output are the same file",
                input.display()
            )));
        }
        checked.push(Input {
            path: input.clone(),
            format,
            size,
        });
    }
    Ok((out_format, checked))
}

/// Calls `emit` with the 40-byte form of every record of every input, in
/// file order; the first bad record, chunk or line is an error naming it.
fn for_each_record(
    inputs: &[Input],
    mut emit: impl FnMut(&[u8; RECORD]) -> Result<(), GenerateError>,
) -> Result<(), GenerateError> {
    for input in inputs {
        let reader = TrainingDataReader::open(&input.path, ReaderOptions::default())?;
        for record in reader.records(Validation::Fast)? {
            emit(&record?.raw.to_bytes())?;
        }
    }
    Ok(())
}

/// Pass one: every record to a random bucket file.
fn split(
    output: &Path,
    inputs: &[Input],
    count: usize,
    rng: &mut GenRng,
) -> Result<Buckets, GenerateError> {
    let name = output
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let dir = output.with_file_name(format!(".{name}.shuffle-{}", std::process::id()));
    fs::create_dir_all(&dir).map_err(|source| GenerateError::Write {
        file: dir.clone(),
        source,
    })?;
    let buckets = Buckets {
        paths: (0..count)
            .map(|k| dir.join(format!("bucket-{k}.bin")))
            .collect(),
        dir,
    };
    let write_err = |k: usize, source| GenerateError::Write {
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
    for_each_record(inputs, |record| {
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
) -> Result<(), GenerateError> {
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

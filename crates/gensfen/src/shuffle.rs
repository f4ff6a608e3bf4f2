//! `nnue-gen-sfen shuffle OUT IN...`: joins `.bin` files (e.g. the shards of one
//! data set) into one uniformly shuffled file, seeded, in bounded memory.
//!
//! Two passes: every record goes to one of B temporary bucket files drawn at
//! random, then each bucket (about `--memory-mib` in size) is shuffled in memory
//! and appended to the output. Random bucket + uniform in-bucket order is a
//! uniform permutation of all records, and memory stays at one bucket, so files
//! larger than memory work. The output appears under its name only when complete.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use nnue_core::data::AtomicOutput;
use nnue_core::packed::PACKED_SFEN_VALUE_SIZE;

use crate::generate::error::GenerateError;
use crate::generate::rng::{mix, GenRng};

const RECORD: usize = PACKED_SFEN_VALUE_SIZE;
/// Head room over the memory budget for buckets that come out larger than average.
const BUCKET_SLACK: f64 = 1.25;
/// I/O buffer per open bucket file.
const BUCKET_BUFFER: usize = 64 << 10;

/// Shuffle settings.
#[derive(Clone, Copy, Debug)]
pub struct ShuffleOptions {
    pub seed: u64,
    /// Memory for one bucket, MiB.
    pub memory_mib: usize,
    /// Replace an existing output.
    pub force: bool,
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
    let total_bytes = check_files(output, inputs, options.force)?;
    let records = total_bytes / RECORD as u64;
    let budget = (options.memory_mib.max(1) as u64) << 20;
    let buckets = ((total_bytes as f64 * BUCKET_SLACK / budget as f64).ceil() as u64).max(1);
    let mut rng = GenRng::new(mix(options.seed));
    let (guard, file) = AtomicOutput::create(output, false)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let write_err = |source| GenerateError::Write {
        file: output.to_path_buf(),
        source,
    };
    if buckets == 1 {
        let mut all = Vec::with_capacity(total_bytes as usize);
        for input in inputs {
            File::open(input)
                .and_then(|mut f| f.read_to_end(&mut all))
                .map_err(|source| read_err(input, source))?;
        }
        write_shuffled(&mut all, &mut rng, &mut out).map_err(write_err)?;
    } else {
        let parts = split(output, inputs, buckets as usize, &mut rng)?;
        for path in &parts.paths {
            let mut data = fs::read(path).map_err(|source| read_err(path, source))?;
            write_shuffled(&mut data, &mut rng, &mut out).map_err(write_err)?;
        }
    }
    let file = out.into_inner().map_err(|e| write_err(e.into_error()))?;
    file.sync_all().map_err(write_err)?;
    guard.commit()?;
    Ok(records)
}

fn read_err(path: &Path, source: std::io::Error) -> GenerateError {
    GenerateError::Read {
        file: path.to_path_buf(),
        source,
    }
}

/// Inputs are readable `.bin` files of whole records, the output a new `.bin`
/// that is none of them. Returns the total input size.
fn check_files(output: &Path, inputs: &[PathBuf], force: bool) -> Result<u64, GenerateError> {
    let bad = |s: String| GenerateError::InvalidOption(s);
    if output.extension().and_then(|e| e.to_str()) != Some("bin") {
        return Err(bad(format!(
            "{}: the output must be a .bin file",
            output.display()
        )));
    }
    if output.exists() && !force {
        return Err(GenerateError::OutputExists(output.to_path_buf()));
    }
    let out_canonical = output.canonicalize().ok();
    let mut total = 0;
    for input in inputs {
        if input.extension().and_then(|e| e.to_str()) != Some("bin") {
            return Err(bad(format!(
                "{}: inputs must be .bin files",
                input.display()
            )));
        }
        let size = fs::metadata(input)
            .map_err(|source| read_err(input, source))?
            .len();
        if size % RECORD as u64 != 0 {
            return Err(bad(format!(
                "{}: size {size} is not a multiple of {RECORD} (a truncated record at index {})",
                input.display(),
                size / RECORD as u64
            )));
        }
        if out_canonical.is_some() && input.canonicalize().ok() == out_canonical {
            return Err(bad(format!(
                "{}: input and output are the same file",
                input.display()
            )));
        }
        total += size;
    }
    Ok(total)
}

/// Pass one: every record to a random bucket file.
fn split(
    output: &Path,
    inputs: &[PathBuf],
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
    let mut writers = buckets
        .paths
        .iter()
        .map(|p| {
            File::create(p)
                .map(|f| BufWriter::with_capacity(BUCKET_BUFFER, f))
                .map_err(|source| GenerateError::Write {
                    file: p.clone(),
                    source,
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut record = [0u8; RECORD];
    for input in inputs {
        let mut reader =
            BufReader::with_capacity(1 << 20, File::open(input).map_err(|e| read_err(input, e))?);
        loop {
            match reader.read_exact(&mut record) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(read_err(input, e)),
            }
            let k = rng.below(count as u64) as usize;
            writers[k]
                .write_all(&record)
                .map_err(|source| GenerateError::Write {
                    file: buckets.paths[k].clone(),
                    source,
                })?;
        }
    }
    for (w, p) in writers.iter_mut().zip(&buckets.paths) {
        w.flush().map_err(|source| GenerateError::Write {
            file: p.clone(),
            source,
        })?;
    }
    Ok(buckets)
}

/// Shuffles the records in `data` (Fisher-Yates over 40-byte slots) and writes them.
fn write_shuffled(data: &mut [u8], rng: &mut GenRng, out: &mut impl Write) -> std::io::Result<()> {
    let n = data.len() / RECORD;
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        if i != j {
            let (a, b) = data.split_at_mut(i * RECORD);
            a[j * RECORD..(j + 1) * RECORD].swap_with_slice(&mut b[..RECORD]);
        }
    }
    out.write_all(data)
}

//! `nnue-gen-sfen bench-decode`: decoding throughput of `.bin` data.

use std::fmt;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::builder::RangedI64ValueParser;
use clap::Args;
use nnue_core::data::{decode_fast, decode_full, BinReader, ReaderOptions, RecordPolicy};
use nnue_core::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};
use rayon::prelude::*;

use crate::error::Error;
use crate::format::Format;
use crate::sample::random_records;

/// Most records `--records` generates in memory (40 bytes each: 40 GB).
const RECORDS_MAX: i64 = 1_000_000_000;

/// The arguments of `nnue-gen-sfen bench-decode` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct BenchDecodeArgs {
    /// A .bin or .binpack file to decode; without it, .bin records from random games are generated in memory.
    pub file: Option<PathBuf>,
    /// Number of records to generate when no file is given.
    #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..=RECORDS_MAX))]
    pub records: u64,
}

/// Runs `bench-decode` and returns its report.
pub fn run(args: &BenchDecodeArgs) -> Result<String, Error> {
    match &args.file {
        Some(file) if Format::from_path(file)? == Format::Binpack => {
            Ok(crate::bench_binpack::bench_binpack(file)?.to_string())
        }
        file => Ok(bench_decode(file.as_deref(), args.records as usize)?.to_string()),
    }
}

/// Throughput figures in records per second.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// Records in the input.
    pub records: u64,
    /// Where they came from.
    pub source: String,
    /// Rayon threads used for the parallel figure.
    pub threads: usize,
    /// Fast path, one thread.
    pub fast_one_thread: f64,
    /// Fast path, all threads.
    pub fast_all_threads: f64,
    /// Full validation (legal position + move), one thread.
    pub full_one_thread: f64,
    /// Invalid records met (should be 0).
    pub invalid: u64,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "input: {} records ({})", self.records, self.source)?;
        writeln!(
            f,
            "fast decode, 1 thread:   {:>12.0} records/s",
            self.fast_one_thread
        )?;
        writeln!(
            f,
            "fast decode, {}: {:>12.0} records/s",
            nnue_core::cli::words::count(self.threads as u64, "thread"),
            self.fast_all_threads
        )?;
        writeln!(
            f,
            "full validation, 1 thread: {:>10.0} records/s",
            self.full_one_thread
        )?;
        write!(f, "invalid records: {}", self.invalid)
    }
}

fn decode_chunk(bytes: &[u8]) -> (u64, u64) {
    let mut ok = 0u64;
    let mut bad = 0u64;
    for chunk in bytes.chunks_exact(PACKED_SFEN_VALUE_SIZE) {
        let Some(raw) = PackedSfenValue::from_slice(chunk) else {
            continue;
        };
        match decode_fast(&raw, RecordPolicy::default()) {
            Ok(rec) => {
                black_box(&rec);
                ok += 1;
            }
            Err(_) => bad += 1,
        }
    }
    (ok, bad)
}

fn rate(records: u64, secs: f64) -> f64 {
    records as f64 / secs.max(1e-9)
}

/// Best of `rounds` timings of `f` over `records` records.
fn best_rate(records: u64, rounds: u32, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    rate(records, best)
}

/// Measures `bytes` (whole 40-byte records). `full_sample` records are used
/// for the slow full-validation figure.
pub fn bench_bytes(bytes: &[u8], source: String, full_sample: usize) -> BenchReport {
    let records = (bytes.len() / PACKED_SFEN_VALUE_SIZE) as u64;
    let (_, invalid) = decode_chunk(bytes);
    let fast_one_thread = best_rate(records, 3, || {
        black_box(decode_chunk(black_box(bytes)));
    });
    let fast_all_threads = best_rate(records, 3, || {
        let total: (u64, u64) = bytes
            .par_chunks(PACKED_SFEN_VALUE_SIZE * 4096)
            .map(decode_chunk)
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        black_box(total);
    });
    let sample = &bytes[..bytes.len().min(full_sample * PACKED_SFEN_VALUE_SIZE)];
    let sample_records = (sample.len() / PACKED_SFEN_VALUE_SIZE) as u64;
    let full_one_thread = best_rate(sample_records, 1, || {
        for chunk in sample.chunks_exact(PACKED_SFEN_VALUE_SIZE) {
            if let Some(raw) = PackedSfenValue::from_slice(chunk) {
                let _ = black_box(decode_full(&raw, RecordPolicy::default()));
            }
        }
    });
    BenchReport {
        records,
        source,
        threads: rayon::current_num_threads(),
        fast_one_thread,
        fast_all_threads,
        full_one_thread,
        invalid,
    }
}

/// Benchmarks `file`, or `generate` records from random games (seed 1) when
/// no file is given.
pub fn bench_decode(file: Option<&Path>, generate: usize) -> Result<BenchReport, Error> {
    match file {
        Some(path) => {
            let reader = BinReader::open(&[path], ReaderOptions::default())?;
            let mut bytes = Vec::with_capacity((reader.len() as usize) * PACKED_SFEN_VALUE_SIZE);
            for i in 0..reader.file_count() {
                bytes.extend_from_slice(reader.file_bytes(i));
            }
            Ok(bench_bytes(&bytes, path.display().to_string(), 100_000))
        }
        None => {
            let bytes: Vec<u8> = random_records(1, generate)
                .iter()
                .flat_map(|r| r.to_bytes())
                .collect();
            Ok(bench_bytes(
                &bytes,
                "random games, seed 1".to_owned(),
                100_000,
            ))
        }
    }
}

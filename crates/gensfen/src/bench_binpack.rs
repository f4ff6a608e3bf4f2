//! `nnue-gen-sfen bench-decode FILE.binpack`: `.binpack` decoding
//! throughput on one core, and how compact the file is.

use std::fmt;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use nnue_core::data::{BinpackReader, DataError, RecordPolicy};

use crate::error::CliError;

/// Positions decoded per timing run at least (small files are decoded
/// repeatedly so that one run takes long enough to time).
const MIN_POSITIONS_PER_RUN: u64 = 2_000_000;
/// Timing runs; the best is reported.
const RUNS: u32 = 3;

/// Throughput figures for one `.binpack` file.
#[derive(Debug, Clone)]
pub struct BinpackBenchReport {
    /// The file.
    pub source: String,
    /// Positions in it.
    pub positions: u64,
    /// Its size in bytes.
    pub bytes: u64,
    /// Records/s as every program sees them: decoded by the crate,
    /// converted to 40-byte records and validated (fast path), one thread.
    pub validated_one_thread: f64,
    /// Entries/s of the `sfbinpack` crate alone (no conversion, no
    /// validation), one thread, for comparison.
    pub crate_one_thread: f64,
}

impl BinpackBenchReport {
    /// File bytes per position.
    pub fn bytes_per_position(&self) -> f64 {
        self.bytes as f64 / (self.positions.max(1)) as f64
    }
}

impl fmt::Display for BinpackBenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "input: {} positions in {} bytes ({:.2} bytes/position) ({})",
            self.positions,
            self.bytes,
            self.bytes_per_position(),
            self.source
        )?;
        writeln!(
            f,
            "binpack decode + validate, 1 thread: {:>12.0} positions/s",
            self.validated_one_thread
        )?;
        write!(
            f,
            "sfbinpack decode only, 1 thread:     {:>12.0} positions/s",
            self.crate_one_thread
        )
    }
}

/// Best rate of `RUNS` timings of `reps` calls of `f` (each decoding
/// `positions`).
fn best_rate(positions: u64, reps: u64, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    (positions * reps) as f64 / best.max(1e-9)
}

fn validated_pass(reader: &BinpackReader) -> Result<u64, DataError> {
    let mut n = 0u64;
    for entry in reader.entries(RecordPolicy::default()) {
        black_box(entry?);
        n += 1;
    }
    Ok(n)
}

fn crate_pass(reader: &BinpackReader) -> u64 {
    let mut n = 0u64;
    for chunk in reader.chunks().map_while(Result::ok) {
        let mut decoder = sfbinpack::ChunkReader::default();
        while decoder.has_next(chunk.data) {
            black_box(decoder.next(chunk.data));
            n += 1;
        }
    }
    n
}

/// Benchmarks decoding of `path` (which must be valid: it is decoded and
/// checked once before timing).
pub fn bench_binpack(path: &Path) -> Result<BinpackBenchReport, CliError> {
    let reader = BinpackReader::open(path)?;
    let positions = validated_pass(&reader)?;
    if positions == 0 {
        return Err(CliError::Usage(format!(
            "{}: no positions to decode",
            path.display()
        )));
    }
    let reps = MIN_POSITIONS_PER_RUN.div_ceil(positions);
    let validated_one_thread = best_rate(positions, reps, || {
        let _ = black_box(validated_pass(&reader));
    });
    let crate_one_thread = best_rate(positions, reps, || {
        black_box(crate_pass(&reader));
    });
    Ok(BinpackBenchReport {
        source: path.display().to_string(),
        positions,
        bytes: reader.bytes().len() as u64,
        validated_one_thread,
        crate_one_thread,
    })
}

//! `nnue-gen-sfen bench-decode FILE.binpack`: `.binpack` decoding
//! throughput on one core, and how compact the file is.

use std::fmt;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use nnue_core::data::{BinpackReader, DataError, RecordPolicy};

use crate::error::Error;

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
    pub validated_one_thread: Rate,
    /// Entries/s of the `sfbinpack` crate alone (no conversion, no
    /// validation), one thread, for comparison.
    pub crate_one_thread: Rate,
}

/// A throughput per wall-clock second and per second of the thread's own
/// CPU time. On a shared machine the second is what one dedicated core
/// would do; it is absent where Linux's `/proc/thread-self/schedstat` is.
#[derive(Debug, Clone, Copy)]
pub struct Rate {
    /// Positions per wall-clock second (best run).
    pub wall: f64,
    /// Positions per CPU second of the decoding thread (best run).
    pub cpu: Option<f64>,
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>12.0} positions/s", self.wall)?;
        if let Some(cpu) = self.cpu {
            write!(f, " ({cpu:.0} per CPU second)")?;
        }
        Ok(())
    }
}

/// CPU time this thread has run, in seconds (Linux only).
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    (ns > 0).then_some(ns as f64 * 1e-9)
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
            "binpack decode + validate, 1 thread: {}",
            self.validated_one_thread
        )?;
        write!(
            f,
            "sfbinpack decode only, 1 thread:     {}",
            self.crate_one_thread
        )
    }
}

/// Best rates of `RUNS` timings of `reps` calls of `f` (each decoding
/// `positions`).
fn best_rate(positions: u64, reps: u64, mut f: impl FnMut()) -> Rate {
    let mut best_wall = f64::MAX;
    let mut best_cpu: Option<f64> = None;
    for _ in 0..RUNS {
        let cpu_start = thread_cpu_seconds();
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best_wall = best_wall.min(t.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            best_cpu = Some(best_cpu.map_or(b - a, |c: f64| c.min(b - a)));
        }
    }
    let n = (positions * reps) as f64;
    Rate {
        wall: n / best_wall.max(1e-9),
        cpu: best_cpu.map(|c| n / c.max(1e-9)),
    }
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
pub fn bench_binpack(path: &Path) -> Result<BinpackBenchReport, Error> {
    let reader = BinpackReader::open(path)?;
    let positions = validated_pass(&reader)?;
    if positions == 0 {
        return Err(DataError::no_records(&[path], 0).into());
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

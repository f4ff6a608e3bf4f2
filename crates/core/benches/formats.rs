//! Reading and writing speed of every training-data format, through the
//! reader and writer every program uses (`TrainingDataReader` with fast
//! validation, `TrainingDataWriter`), on Stockfish's depth-5 self-play
//! sample and the reference crates' `.vf`, `.mf`, `.bf` files of the same
//! 3000 records (tests/data), each repeated to 300,000 records.
//!
//! Run: `cargo bench -p nnue-core --bench formats`. Results go to
//! docs/BENCHMARKS.md. Each figure is the best of 3 runs; "per CPU second"
//! divides by this thread's own CPU time, which is what one dedicated core
//! does on a shared machine.

use std::path::{Path, PathBuf};
use std::time::Instant;

use nnue_core::data::{
    ReaderOptions, RecordPolicy, TrainingDataReader, TrainingDataWriter, Validation,
};
use nnue_core::packed::PackedSfenValue;

/// Copies of the 3000-record sample per timed file.
const REPEAT: usize = 100;
/// Timing runs; the best is reported.
const RUNS: usize = 3;
/// The formats measured, as extensions.
const FORMATS: [&str; 6] = ["bin", "binpack", "plain", "vf", "mf", "bf"];

fn sample(ext: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/data/sf_tools_sample.{ext}"));
    std::fs::read(path).expect("sample file")
}

/// CPU time of this thread in seconds (Linux), if known.
fn thread_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Best records/s of `RUNS` runs of `f` (which handles `records` records),
/// wall clock and per CPU second.
fn best(records: usize, mut f: impl FnMut()) -> (f64, Option<f64>) {
    let (mut wall, mut cpu) = (0.0f64, None::<f64>);
    for _ in 0..RUNS {
        let (t, c) = (Instant::now(), thread_cpu());
        f();
        let w = records as f64 / t.elapsed().as_secs_f64();
        wall = wall.max(w);
        if let (Some(c0), Some(c1)) = (c, thread_cpu()) {
            let per_cpu = records as f64 / (c1 - c0).max(1e-9);
            cpu = Some(cpu.map_or(per_cpu, |b| b.max(per_cpu)));
        }
    }
    (wall, cpu)
}

fn read_all(path: &Path) -> usize {
    let options = ReaderOptions {
        policy: RecordPolicy {
            allow_move_none: true,
        },
        ..ReaderOptions::default()
    };
    let reader = TrainingDataReader::open(path, options).expect("open");
    let records = reader.records(Validation::Fast).expect("records");
    let mut count = 0;
    for record in records {
        std::hint::black_box(record.expect("valid"));
        count += 1;
    }
    count
}

fn write_all(path: &Path, records: &[PackedSfenValue]) {
    let mut writer = TrainingDataWriter::create(path).expect("create");
    for _ in 0..REPEAT {
        writer.write_all(records).expect("write");
    }
    writer.finish().expect("finish");
}

fn main() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("nnue-bench-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let records: Vec<PackedSfenValue> = {
        let reader =
            TrainingDataReader::open(dir_file(&dir, "binpack", 1), ReaderOptions::default())
                .expect("open sample");
        reader
            .records(Validation::Fast)
            .expect("records")
            .map(|r| r.expect("valid").raw)
            .collect()
    };
    let total = records.len() * REPEAT;
    println!("{total} records per run, best of {RUNS}");
    println!(
        "| format | bytes/record | read records/s (per CPU s) | write records/s (per CPU s) |"
    );
    println!("|---|---|---|---|");
    for ext in FORMATS {
        let input = dir_file(&dir, ext, REPEAT);
        let size = std::fs::metadata(&input).expect("size").len();
        assert_eq!(read_all(&input), total, "{ext}");
        let read = best(total, || assert_eq!(read_all(&input), total));
        let output = dir.join(format!("out.{ext}"));
        let write = best(total, || write_all(&output, &records));
        let cell = |(wall, cpu): (f64, Option<f64>)| match cpu {
            Some(cpu) => format!("{:.2} M ({:.2} M)", wall / 1e6, cpu / 1e6),
            None => format!("{:.2} M", wall / 1e6),
        };
        println!(
            "| `.{ext}` | {:.2} | {} | {} |",
            size as f64 / total as f64,
            cell(read),
            cell(write)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The sample in format `ext`, repeated `times`, as a file in `dir`.
fn dir_file(dir: &Path, ext: &str, times: usize) -> PathBuf {
    let path = dir.join(format!("in{times}.{ext}"));
    if !path.exists() {
        std::fs::write(&path, sample(ext).repeat(times)).expect("write input");
    }
    path
}

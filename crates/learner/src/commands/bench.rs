//! `nnue-learn bench`: training speed in positions per second, data preparation
//! (decode, filter, features) and the optimisation step timed separately.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::shape::ShapeArgs;
use super::thread_pool;
use crate::data::{
    Batcher, DataSource, Filter, PositionSource, SourceOptions, SparseBatch, Stream,
};
use crate::error::LearnError;
use crate::loss::LossParams;
use crate::model::{Extractor, Model};
use crate::optim::slots::ModelSlots;
use crate::optim::{Optimizer, Step};
use crate::train::step::{train_step, LossSetting, Workspace};

#[derive(clap::Args, Clone, Debug)]
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// Training data (.bin, .binpack or .plain); it is cycled as often as needed.
    #[arg(long, alias = "data")]
    pub train: PathBuf,
    #[command(flatten)]
    pub shape: ShapeArgs,
    #[arg(long, default_value_t = crate::train::builder::defaults::BATCH_SIZE,
          value_parser = super::at_least::<usize>(1))]
    pub batch_size: usize,
    /// Timed batches (after one warm-up batch).
    #[arg(long, default_value_t = 20, value_parser = super::at_least::<u32>(1))]
    pub batches: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = super::threads_parser())]
    pub threads: Option<usize>,
    /// Time the steps as `train --quantization-aware` runs them (dense layers
    /// at their quantized values).
    #[arg(long)]
    pub quantization_aware: bool,
}

/// Timing of a bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Positions of each timed phase.
    pub positions: u64,
    /// Reading batches, one after the other with training.
    pub data: Duration,
    /// Training steps.
    pub step: Duration,
    /// The same number of batches with the next one read while the current one
    /// trains, as `train` runs.
    pub pipelined: Duration,
    /// CPU time of the whole process over the pipelined phase (all threads),
    /// when the system reports it: on a loaded machine wall time says little.
    pub cpu: Option<Duration>,
}

impl BenchResult {
    /// Positions per second as `train` runs (reading overlapped with training).
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.pipelined.as_secs_f64().max(1e-9)
    }
}

/// CPU time used by this process so far (Linux `/proc/self/stat`, 100 ticks/s).
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// A model with its optimizer state and a data stream, as a run would have.
struct Bench<'a> {
    source: &'a DataSource,
    extractor: &'a Extractor,
    model: Model,
    slots: ModelSlots,
    opt: Optimizer,
    params: LossParams,
    stream: Stream,
    ws: Workspace,
    steps: u64,
    quantization_aware: bool,
}

impl Bench<'_> {
    fn read(&mut self, n: usize) -> Result<SparseBatch, LearnError> {
        let mut batch = SparseBatch::new();
        Batcher::new(self.source, self.extractor, Filter::default(), false).fill(
            &mut self.stream,
            n,
            &mut batch,
        )?;
        Ok(batch)
    }

    /// The next optimiser step, at the benchmark's fixed rate and without clipping.
    fn next_step(&mut self) -> Step {
        self.steps += 1;
        Step {
            lr: BENCH_LR,
            t: self.steps,
            limit: f32::MAX,
        }
    }

    fn train(&mut self, batch: &SparseBatch) {
        let step = self.next_step();
        let loss = bench_loss(&self.params, self.quantization_aware);
        let (m, s) = (&mut self.model, &mut self.slots);
        train_step(m, s, &self.opt, loss, batch, &mut self.ws, step);
    }

    /// Trains `batch` while reading the next one of `n` positions.
    fn train_reading_next(
        &mut self,
        batch: &SparseBatch,
        n: usize,
    ) -> Result<SparseBatch, LearnError> {
        let step = self.next_step();
        let loss = bench_loss(&self.params, self.quantization_aware);
        let mut batcher = Batcher::new(self.source, self.extractor, Filter::default(), false);
        let stream = &mut self.stream;
        let (m, s, ws, opt) = (&mut self.model, &mut self.slots, &mut self.ws, &self.opt);
        let (next, _) = rayon::join(
            || {
                let mut next = SparseBatch::new();
                batcher.fill(stream, n, &mut next).map(|()| next)
            },
            || train_step(m, s, opt, loss, batch, ws, step),
        );
        next
    }
}

/// Learning rate of the timed steps (its value does not change the work done).
const BENCH_LR: f32 = 1e-3;

/// The loss of the timed steps: the configured loss with no power-loss blend.
fn bench_loss(params: &LossParams, quantization_aware: bool) -> LossSetting<'_> {
    LossSetting {
        params,
        power_lambda: 1.0,
        quantization_aware,
    }
}

/// Runs the benchmark on the current rayon pool.
pub fn measure(args: &BenchArgs) -> Result<BenchResult, LearnError> {
    let shape = args.shape.model_shape()?;
    let source = DataSource::open(std::slice::from_ref(&args.train), SourceOptions::default())?;
    if source.is_empty() {
        return Err(source.no_records());
    }
    let extractor = Extractor::new(&shape);
    let model = Model::new(shape, 1, extractor.max_rows());
    let opt = Optimizer::default();
    let mut bench = Bench {
        source: &source,
        extractor: &extractor,
        slots: ModelSlots::new(&model, &opt),
        model,
        opt,
        params: LossParams::default(),
        stream: Stream::new(source.file_ranges(), 1 << 20, 1),
        ws: Workspace::default(),
        steps: 0,
        quantization_aware: args.quantization_aware,
    };
    let n = args.batch_size;
    let mut result = BenchResult {
        positions: u64::from(args.batches) * n as u64,
        data: Duration::ZERO,
        step: Duration::ZERO,
        pipelined: Duration::ZERO,
        cpu: None,
    };
    // Warm-up, then reading and training one after the other.
    let warm = bench.read(n)?;
    bench.train(&warm);
    for _ in 0..args.batches {
        let t0 = Instant::now();
        let batch = bench.read(n)?;
        let t1 = Instant::now();
        bench.train(&batch);
        result.data += t1 - t0;
        result.step += t1.elapsed();
    }
    // As `train` runs: the next batch read while the current one trains.
    let cpu_start = process_cpu_time();
    let start = Instant::now();
    let mut batch = bench.read(n)?;
    for _ in 0..args.batches {
        batch = bench.train_reading_next(&batch, n)?;
    }
    result.pipelined = start.elapsed();
    result.cpu = process_cpu_time()
        .zip(cpu_start)
        .map(|(end, start)| end.saturating_sub(start));
    Ok(result)
}

/// `nnue-learn bench`.
pub fn run(args: &BenchArgs) -> Result<String, LearnError> {
    let pool = thread_pool(args.threads)?;
    let r = pool.install(|| measure(args))?;
    let cpu = r.cpu.map_or(String::new(), |cpu| {
        format!(
            "; CPU {:.2} s, {:.0} positions per CPU-second",
            cpu.as_secs_f64(),
            r.positions as f64 / cpu.as_secs_f64().max(1e-9)
        )
    });
    let shape = args.shape.model_shape()?;
    let hidden: Vec<String> = shape.arch.hidden.iter().map(usize::to_string).collect();
    let options = shape.arch.options_suffix();
    Ok(format!(
        "{} {}->{}x2-{}{options} batch {} on {} ({:?}): {} positions, {:.0} positions/s pipelined (one after the other: data {:.2} s, step {:.2} s){cpu}",
        args.shape.feature_set,
        shape.inputs(),
        shape.half(),
        hidden.join("-"),
        args.batch_size,
        nnue_core::cli::words::count(pool.current_num_threads() as u64, "thread"),
        crate::model::kernels::Simd::detect(),
        r.positions,
        r.positions_per_second(),
        r.data.as_secs_f64(),
        r.step.as_secs_f64()
    ))
}

//! `nnue-gen-sfen generate`: self-play training data as Stockfish tools'
//! `generate_training_data` makes it (formats.md section 3), with the differences
//! listed in docs/GENSFEN.md.
//!
//! Each worker thread plays its own games with its own one-thread [`Searcher`] and
//! its own random stream; finished games go over a crossbeam channel to the writer
//! (the calling thread), which writes exactly `--loop` records, shows progress and
//! watches the stop flag (set by SIGINT / SIGTERM) and `--max-time-*`. Stopping
//! discards the games in progress, so the file holds whole games' records only.

pub mod adjudicate;
pub mod book;
pub mod continuation;
pub mod dedup;
pub mod game;
pub mod opening;
pub mod options;
pub mod random_move;
pub mod summary;
mod writer;

pub use writer::part_path;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam::channel::{bounded, Receiver, RecvTimeoutError, Sender};
use nnue_core::output::OutputCheck;
use nnue_engine::eval::EvalKind;
use nnue_engine::search::{SearchControl, Searcher, SEARCH_STACK_BYTES};
use shakmaty::Chess;

use crate::error::Error;
use crate::progress::Progress;
use crate::rng::{worker_seed, GenRng};
use book::Book;
use continuation::Continuation;
use dedup::Dedup;
use game::{Game, GameEnd, Player};
use opening::{Opening, OpeningChecker};
use options::{GenConfig, GenerateArgs};
use summary::Summary;
use writer::{check_outputs, open_sink, RecordSink, RotatingSink};

/// Games buffered per worker between the workers and the writer.
const QUEUE_GAMES_PER_WORKER: usize = 4;
/// Evaluation cache per worker with `--use-eval-hash`, MiB.
const EVAL_CACHE_MB: usize = 8;
/// How often the writer looks at the stop flag and the clock.
const POLL: Duration = Duration::from_millis(50);

/// Runs `generate` and returns its summary (nothing with `--quiet`);
/// `stop` ends the run early, keeping whole games.
pub fn run(args: &GenerateArgs, stop: &AtomicBool) -> Result<String, Error> {
    let summary = generate(args, stop)?;
    Ok(if args.quiet {
        String::new()
    } else {
        summary.to_string()
    })
}

/// Checks `args` and every output path, then generates; `stop` ends the run
/// cleanly when set.
pub fn generate(args: &GenerateArgs, stop: &AtomicBool) -> Result<Summary, Error> {
    let clock_seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut config = args.resolve(clock_seed)?;
    // Everything that can fail on bad input fails before the output is
    // touched. The book and the net are inputs no output may overwrite.
    let check =
        OutputCheck::new(config.output_mode).inputs(config.book.iter().chain(config.eval.file()));
    check_outputs(&check, &config.output, config.save_every, config.count)?;
    // The format by extension (after the rule, which names a directory as such).
    crate::format::Format::from_path(&config.output)?;
    // Continuing a file: new games, not the ones its earlier runs played.
    let continuation = Continuation::of(&config)?;
    if let Some(continued) = continuation {
        config.seed = continued.seed;
    }
    let book = config
        .book
        .as_deref()
        .map(|p| Book::load(p, config.seed))
        .transpose()?;
    let eval = config.eval.load()?;
    let searchers = (0..config.threads)
        .map(|_| {
            let checker = config
                .random_opening
                .map(|settings| OpeningChecker::new(settings, &eval));
            Ok::<_, Error>((new_searcher(&config, &eval)?, checker))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sink: Box<dyn RecordSink> = match config.save_every {
        Some(every) => Box::new(RotatingSink::open(
            &config.output,
            check,
            config.output_mode,
            every,
        )?),
        None => open_sink(&config.output, config.output_mode)?,
    };
    let mut summary = play(&config, book.as_ref(), searchers, sink, stop)?;
    summary.continuation = continuation;
    Ok(summary)
}

fn new_searcher(config: &GenConfig, eval: &EvalKind) -> Result<Searcher, Error> {
    let mut searcher = Searcher::new(1, 1);
    searcher.set_hash(config.hash_mb)?;
    searcher.set_eval(eval.clone());
    if config.use_eval_hash {
        searcher.set_eval_cache(EVAL_CACHE_MB);
    }
    Ok(searcher)
}

/// Workers and writer of one run.
fn play(
    config: &GenConfig,
    book: Option<&Book>,
    searchers: Vec<(Searcher, Option<OpeningChecker>)>,
    sink: Box<dyn RecordSink>,
    stop: &AtomicBool,
) -> Result<Summary, Error> {
    let control = SearchControl::default();
    let dedup = Dedup::new(config.dedup_mib);
    let (tx, rx) = bounded::<Game>(config.threads * QUEUE_GAMES_PER_WORKER);
    std::thread::scope(|scope| {
        for (index, (searcher, checker)) in searchers.into_iter().enumerate() {
            let worker = Worker {
                index,
                config,
                book,
                dedup: &dedup,
                control: &control,
                tx: tx.clone(),
            };
            let spawned = std::thread::Builder::new()
                .name(format!("gensfen-{index}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || worker.run(searcher, checker));
            if let Err(source) = spawned {
                control.stop.store(true, Ordering::SeqCst);
                return Err(Error::Thread { index, source });
            }
        }
        drop(tx);
        let result = write_games(config, &rx, sink, &control, stop);
        // On a write error the workers must not wait on a full queue.
        control.stop.store(true, Ordering::SeqCst);
        drop(rx);
        result
    })
}

/// One generation thread.
struct Worker<'a> {
    index: usize,
    config: &'a GenConfig,
    book: Option<&'a Book>,
    dedup: &'a Dedup,
    control: &'a SearchControl,
    tx: Sender<Game>,
}

impl Worker<'_> {
    /// Plays games until the run stops, sending each to the writer; with a
    /// `checker`, each game starts from a verified random opening drawn from the
    /// game's base position with the worker's random stream.
    fn run(self, mut searcher: Searcher, mut checker: Option<OpeningChecker>) {
        let config = self.config;
        let shard = config.shard;
        let mut rng = GenRng::new(worker_seed(config.seed, shard.index, self.index as u64));
        // Book positions: this worker's slot among all workers of all shards.
        let workers = config.threads as u64;
        let slot = shard.index * workers + self.index as u64;
        let stride = shard.count * workers;
        let start = Chess::default();
        for game_number in 0u64.. {
            if self.control.stop.load(Ordering::Relaxed) {
                return;
            }
            let base = self
                .book
                .map_or(&start, |b| b.get(slot + game_number * stride));
            let opening = match checker.as_mut() {
                Some(checker) => checker.draw(base, &mut rng, self.control),
                None => Opening::plain(base),
            };
            let mut player = Player {
                config,
                searcher: &mut searcher,
                rng: &mut rng,
                dedup: self.dedup,
                control: self.control,
            };
            let mut game = player.play_from(&opening);
            game.opening_rejections = opening.rejections;
            game.opening_fallback = opening.fallback;
            if game.end == GameEnd::Stopped {
                return;
            }
            if !config.keep_draws && game.white_result == Some(nnue_core::packed::GameResult::Draw)
            {
                game.records.clear();
            }
            if self.tx.send(game).is_err() {
                return;
            }
        }
    }
}

/// The writer: takes games in arrival order, writes exactly `config.count`
/// records, stops the run when done, interrupted or out of time.
fn write_games(
    config: &GenConfig,
    rx: &Receiver<Game>,
    mut sink: Box<dyn RecordSink>,
    control: &SearchControl,
    stop: &AtomicBool,
) -> Result<Summary, Error> {
    let start = Instant::now();
    let mut summary = Summary {
        output: config.output.clone(),
        seed: config.seed,
        random_openings: config.random_opening.is_some(),
        ..Summary::default()
    };
    let mut progress = Progress::new(config.count, config.quiet);
    loop {
        match rx.recv_timeout(POLL) {
            Ok(game) => {
                if summary.positions < config.count {
                    let take = (config.count - summary.positions).min(game.records.len() as u64);
                    sink.write_batch(&game.records[..take as usize])?;
                    summary.positions += take;
                    summary.add_game(&game);
                    progress.update(summary.positions, summary.games);
                }
                if summary.positions >= config.count {
                    control.stop.store(true, Ordering::SeqCst);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        let out_of_time = config.max_time.is_some_and(|t| start.elapsed() >= t);
        if (stop.load(Ordering::Relaxed) || out_of_time)
            && !control.stop.swap(true, Ordering::SeqCst)
        {
            summary.interrupted = true;
        }
    }
    sink.finish()?;
    progress.finish();
    summary.elapsed = start.elapsed();
    Ok(summary)
}

//! `nnue-gen-sfen rescore IN OUT [--depth N | --soft-nodes N | --nodes N | --static]`: replaces every
//! record's score with a fresh search value (Stockfish tools' `transform
//! rescore`) or the static evaluation, keeping the position, move, ply and game
//! result.
//!
//! Why: the generator's score is a depth-N search, which for a shallow N is
//! the evaluation *plus* the best move's gain. A net trained on it and then
//! used as the static evaluation inside a search counts that gain twice.
//! `--depth 0` labels with the quiescence value instead, which for a quiet
//! position is exactly the static evaluation: the cleanest target for
//! distilling an evaluation into a net; `--static` takes the static
//! evaluation of every position, noisy or not, so a net copies exactly the
//! function it replaces. A positive depth relabels data with a deeper search
//! or another evaluation (`--eval-file`). `--soft-nodes` and `--nodes` label
//! with a node-limited search instead, as modern generators (Viridithas,
//! Stormphrax) do: the generator's `--soft-nodes` and `--nodes` (a new
//! iteration starts only below the soft limit; the hard one cuts the search),
//! so data can be relabelled under either kind of limit and their labels
//! compared at equal cost.
//!
//! Records are searched in batches, each batch split among `--threads`
//! workers with a one-thread searcher each, and written in input order; the
//! output does not depend on the thread count. It appears under its name only
//! when complete.

use std::path::PathBuf;

use clap::builder::RangedI64ValueParser;
use clap::{value_parser, Args};
use nnue_core::data::{DataError, ReaderOptions, TrainingDataWriter, Validation};
use nnue_core::output::{AtomicOutput, OutputCheck};
use nnue_core::packed::{PackedSfenValue, SfMove};
use nnue_engine::search::{Limits, Searcher};
use shakmaty::{Chess, Move};

use crate::error::Error;
use crate::eval::EvalChoice;
use crate::format::{estimated_records, transform_formats, Format};
use crate::progress::Progress;
use crate::source::for_each_record;

/// Records searched between two writes (memory stays at a few MiB).
const BATCH: usize = 1 << 14;
/// Transposition table of each worker, MiB: positions are unrelated, so the
/// table only serves the search within one position, and it is cleared often.
const HASH_MB: usize = 1;
/// Records scored from one empty table at depth 0 (clearing the table for
/// every quiescence search would cost more than the searches).
const RUN: usize = 1024;
/// Deepest search `rescore` accepts (the generator's limit).
pub const RESCORE_DEPTH_MAX: u32 = crate::generate::options::DEPTH_MAX;
/// Most worker threads.
const THREADS_MAX: i64 = 1024;

/// The arguments of `nnue-gen-sfen rescore` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct RescoreArgs {
    /// Input file (.bin, .binpack, .plain, .vf, .mf or .bf); every record must be a legal position.
    pub input: PathBuf,
    /// Output file (.bin, .binpack, .plain, .vf, .mf or .bf); it appears only when complete.
    pub output: PathBuf,
    /// Search depth: 0 for the quiescence value, else a full search of that depth.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(0..=i64::from(RESCORE_DEPTH_MAX)))]
    pub depth: u32,
    /// Soft node limit of each search: no new iteration starts once it has used
    /// this many nodes (the depth is then unlimited unless --depth says).
    #[arg(long, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..))]
    pub soft_nodes: Option<u64>,
    /// Hard node limit of each search: it stops there, mid-iteration (the depth
    /// is then unlimited unless --depth says).
    #[arg(long, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..))]
    pub nodes: Option<u64>,
    /// Score with the static evaluation, no search at all.
    #[arg(long = "static")]
    pub static_eval: bool,
    /// Also replace every record's move with the search's best move (Stockfish
    /// tools' `keep_moves 0`); needs a search: --depth 1 or more, --soft-nodes or --nodes.
    #[arg(long)]
    pub best_move: bool,
    /// A `.nnue` net to score with (default: the classical evaluation).
    #[arg(long, alias = "eval_file")]
    pub eval_file: Option<PathBuf>,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..=THREADS_MAX))]
    pub threads: u64,
    /// Replace an existing output (never the input or the net).
    #[arg(long)]
    pub force: bool,
    /// No progress display.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `rescore` and says what it did.
pub fn run(args: &RescoreArgs) -> Result<String, Error> {
    let label = Label::new(
        args.depth,
        args.static_eval,
        NodeLimits {
            soft: args.soft_nodes,
            hard: args.nodes,
        },
    )?;
    if args.best_move && !matches!(label, Label::Search(..)) {
        return Err(Error::BestMoveWithoutSearch(label.to_string()));
    }
    let done = rescore(args, label)?;
    let moves = if args.best_move {
        format!(", {} moves changed", done.moves_changed)
    } else {
        String::new()
    };
    Ok(format!(
        "rescored {} records with {label} ({} scores changed{moves}): {} -> {}",
        done.written,
        done.changed,
        args.input.display(),
        args.output.display()
    ))
}

/// What a record's new score is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// The static evaluation, no search at all.
    Static,
    /// The quiescence value (`--depth 0`).
    Quiescence,
    /// A search to this depth (>= 1) within these node limits.
    Search(u32, NodeLimits),
}

/// The node limits of a rescoring search (`--soft-nodes`, `--nodes`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeLimits {
    /// No new iteration starts beyond this many nodes.
    pub soft: Option<u64>,
    /// The search stops here, mid-iteration.
    pub hard: Option<u64>,
}

impl NodeLimits {
    fn any(&self) -> bool {
        self.soft.is_some() || self.hard.is_some()
    }
}

impl Label {
    /// The label of `--depth`, `--static` and the node limits: a node limit with
    /// no depth searches to any depth. (clap has checked the ranges.)
    pub fn new(depth: u32, static_eval: bool, nodes: NodeLimits) -> Result<Label, Error> {
        match (static_eval, depth) {
            (true, 0) if nodes.any() => Err(Error::StaticWithNodes),
            (true, 0) => Ok(Label::Static),
            (true, d) => Err(Error::StaticWithDepth(d)),
            (false, 0) if nodes.any() => Ok(Label::Search(RESCORE_DEPTH_MAX, nodes)),
            (false, 0) => Ok(Label::Quiescence),
            (false, d) => Ok(Label::Search(d, nodes)),
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Label::Static => write!(f, "the static evaluation"),
            Label::Quiescence => write!(f, "depth 0 (quiescence)"),
            Label::Search(d, nodes) => {
                let mut parts = Vec::new();
                if let Some(n) = nodes.soft {
                    parts.push(format!("soft nodes {n}"));
                }
                if let Some(n) = nodes.hard {
                    parts.push(format!("nodes {n}"));
                }
                if !nodes.any() || *d < RESCORE_DEPTH_MAX {
                    parts.push(format!("depth {d}"));
                }
                write!(f, "{}", parts.join(", "))
            }
        }
    }
}

/// What a rescoring did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rescored {
    /// Records written.
    pub written: u64,
    /// Records whose score changed.
    pub changed: u64,
    /// Records whose move changed (only with `--best-move`).
    pub moves_changed: u64,
}

/// Rescores `input` into `output` (formats by extension). Every record must
/// be a legal position (checked in full); the first bad one stops the run
/// with its file and index, and the output is left as it was.
pub fn rescore(options: &RescoreArgs, label: Label) -> Result<Rescored, Error> {
    let (input, output) = (options.input.as_path(), options.output.as_path());
    let mode = OutputCheck::mode_from_flags(options.force, false);
    // The net is an input too: no output may overwrite it.
    let check = OutputCheck::new(mode).inputs(&options.eval_file);
    let out_format = transform_formats(input, output, check, false)?;
    let mut workers = new_searchers(options)?;
    let size = std::fs::metadata(input).map_or(0, |m| m.len());
    let total = estimated_records(Format::from_path(input)?, size);
    let mut progress = Progress::new(total, options.quiet);
    let (guard, file) = AtomicOutput::create(output, false)?;
    let mut writer = TrainingDataWriter::from_file(file, output, out_format)?;
    let mut batch: Vec<(PackedSfenValue, Chess)> = Vec::with_capacity(BATCH);
    let mut done = Rescored {
        written: 0,
        changed: 0,
        moves_changed: 0,
    };
    let best_move = options.best_move;
    let mut flush = |batch: &mut Vec<(PackedSfenValue, Chess)>| -> Result<(), Error> {
        let scored = score_batch(&mut workers, batch, label, best_move);
        for (old, new) in batch.iter().map(|(r, _)| r).zip(&scored) {
            done.changed += u64::from(old.score != new.score);
            done.moves_changed += u64::from(old.mv != new.mv);
            writer.write(new)?;
        }
        done.written += scored.len() as u64;
        batch.clear();
        progress.update_count(done.written);
        Ok(())
    };
    let mut index = 0u64;
    for_each_record(
        input,
        ReaderOptions::default(),
        Validation::Full,
        |raw, record| {
            // Full validation has decoded this position already, so this cannot
            // fail; should it, the record is named like any other bad record.
            let pos = record
                .position
                .to_chess()
                .map_err(|e| DataError::BadRecord {
                    file: input.to_path_buf(),
                    index,
                    reason: e.into(),
                })?;
            index += 1;
            batch.push((*raw, pos));
            if batch.len() == BATCH {
                flush(&mut batch)?;
            }
            Ok(())
        },
    )?;
    if !batch.is_empty() {
        flush(&mut batch)?;
    }
    progress.finish();
    writer.finish()?;
    if done.written == 0 {
        return Err(DataError::no_records(&[input], 0).into());
    }
    guard.commit()?;
    Ok(done)
}

/// One searcher per worker thread, all with the chosen evaluation.
fn new_searchers(options: &RescoreArgs) -> Result<Vec<Searcher>, Error> {
    let eval = match &options.eval_file {
        None => EvalChoice::Classical,
        Some(path) => EvalChoice::File(path.clone()),
    }
    .load()?;
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n as usize,
    };
    let mut searchers = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut searcher = Searcher::new(HASH_MB, 1);
        searcher.set_eval(eval.clone());
        searchers.push(searcher);
    }
    Ok(searchers)
}

/// The batch's records with their new scores, in order. The batch is cut into
/// runs of [`RUN`] records dealt round-robin to the workers; each run starts
/// from an empty table, so the scores depend on the input alone, never on the
/// thread count.
fn score_batch(
    workers: &mut [Searcher],
    batch: &[(PackedSfenValue, Chess)],
    label: Label,
    best_move: bool,
) -> Vec<PackedSfenValue> {
    let runs: Vec<_> = batch.chunks(RUN).collect();
    let count = workers.len();
    let mut scored: Vec<Vec<PackedSfenValue>> = vec![Vec::new(); runs.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(w, searcher)| {
                let mine: Vec<_> = runs.iter().enumerate().skip(w).step_by(count).collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|(index, run)| (index, score_run(searcher, run, label, best_move)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            for (index, run) in handle.join().expect("a rescoring worker panicked") {
                scored[index] = run;
            }
        }
    });
    scored.concat()
}

/// One run of records, from an empty table. A search of depth >= 1 also starts
/// each position afresh (as a lone `go depth N` would), so its score is the one
/// a user gets by searching that position alone. With `best_move` (a search
/// label only) the record's move becomes that search's best move.
fn score_run(
    searcher: &mut Searcher,
    run: &[(PackedSfenValue, Chess)],
    label: Label,
    best_move: bool,
) -> Vec<PackedSfenValue> {
    searcher.clear();
    run.iter()
        .map(|(raw, pos)| {
            if let (Label::Search(depth, nodes), true) = (label, best_move) {
                searcher.clear();
                let (score, mv) = search_value_and_move(searcher, pos, depth, nodes);
                return PackedSfenValue {
                    score,
                    // A record's position always has a legal move (checked on
                    // reading), so the search has one; the old move is kept
                    // should it ever not.
                    mv: mv.map_or(raw.mv, |m| SfMove::from_move(&m)),
                    ..*raw
                };
            }
            if matches!(label, Label::Search(..)) {
                searcher.clear();
            }
            PackedSfenValue {
                score: label_value(searcher, pos, label),
                ..*raw
            }
        })
        .collect()
}

/// A search's value fitted to the 16-bit field (mate values, |v| <= 32000, fit).
fn clamp_value(value: i32) -> i16 {
    value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// The value of a search of `pos` to `depth` within `nodes`, and its best move.
fn search_value_and_move(
    searcher: &mut Searcher,
    pos: &Chess,
    depth: u32,
    nodes: NodeLimits,
) -> (i16, Option<Move>) {
    let limits = Limits {
        depth: Some(depth),
        nodes: nodes.hard,
        soft_nodes: nodes.soft,
        ..Limits::default()
    };
    let result = searcher.search(pos, &limits);
    (clamp_value(result.value), result.best_move)
}

/// The value of `pos` for its side to move under `label`; mate values fit the
/// 16-bit field (|v| <= 32000).
pub fn label_value(searcher: &mut Searcher, pos: &Chess, label: Label) -> i16 {
    match label {
        Label::Static => clamp_value(searcher.evaluate(pos)),
        Label::Quiescence => clamp_value(searcher.quiescence(pos, &[])),
        Label::Search(depth, nodes) => search_value_and_move(searcher, pos, depth, nodes).0,
    }
}

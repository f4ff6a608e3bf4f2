//! The `generate` command line: Stockfish's `gensfen` / `generate_training_data`
//! options in kebab-case, their snake_case spellings and the tools' later names
//! accepted as aliases, checked and resolved into a [`GenConfig`].

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{BoolishValueParser, RangedI64ValueParser};
use clap::{value_parser, Args};
use nnue_core::output::{OutputCheck, OutputMode};

use crate::error::Error;
use crate::eval::EvalChoice;
use crate::generate::adjudicate::{DrawAdjudication, WinAdjudication};
use crate::generate::opening::{PlyRange, RandomOpening};
use crate::rng::{mix, GenRng};
use crate::shard::Shard;

/// Stockfish's `mate_in(2)`: the largest `--eval-limit` that still means something.
pub const EVAL_LIMIT_MAX: i32 = 31998;
/// Stockfish's `VALUE_KNOWN_WIN`: a search value this large ends the game at once.
pub const KNOWN_WIN: i32 = 10000;
/// Longest game: a record's ply is a 16-bit field.
const MAX_GAME_PLY: i64 = u16::MAX as i64;
/// Deepest search a generation ply (or `rescore`) may ask for.
pub const DEPTH_MAX: u32 = 100;
/// Search depth without `--depth` or `--nodes` (Stockfish's default).
const DEPTH_DEFAULT: u32 = 3;
/// Most worker threads.
const THREADS_MAX: i64 = 1024;
/// Largest transposition table per worker, MiB (64 GiB).
const HASH_MAX: i64 = 65536;
/// Most MultiPV lines of the random-move search.
const MULTI_PV_MAX: i64 = 256;
/// Largest duplicate filter, MiB (64 GiB).
const DEDUP_MIB_MAX: i64 = 65536;
/// Depth of the random openings' verification search: deep enough to see a
/// piece hung by the random plies, cheap next to a game of searches.
const OPENING_CHECK_DEPTH_DEFAULT: u32 = 8;
/// Largest |score| of a kept random opening, internal units: about 100 cp on
/// Stockfish's scale (a pawn is 208), a position still worth playing out.
const OPENING_MAX_SCORE_DEFAULT: i32 = 200;
/// Salt that separates `--random-file-name`'s suffix from the games' streams.
const FILE_NAME_SALT: u64 = 0x5EED_F11E;

/// Options of `nnue-gen-sfen generate` (also accepted with no subcommand).
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Worker threads, each playing its own games with a one-thread search.
    #[arg(long, default_value_t = 1, aliases = ["thread-num", "thread_num"],
          allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<usize>::new().range(1..=THREADS_MAX))]
    pub threads: usize,
    /// Output file: `.bin`, `.binpack` or `.plain` by extension.
    #[arg(
        short = 'o',
        long,
        default_value = "generated_kifu.bin",
        aliases = ["output-file-name", "output_file_name"]
    )]
    pub output: PathBuf,
    /// Records to write (exactly this many, unless stopped earlier).
    #[arg(long = "loop", default_value_t = 8_000_000_000, alias = "count",
          allow_negative_numbers = true, value_parser = RangedI64ValueParser::<u64>::new().range(1..))]
    pub loop_count: u64,
    /// Search depth (the minimum when --depth2 is larger). Default 3, or unlimited
    /// when --nodes is given.
    #[arg(long, aliases = ["min-depth", "min_depth"], allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(DEPTH_MAX)))]
    pub depth: Option<u32>,
    /// Maximum search depth: each ply searches a depth drawn from [depth, depth2].
    #[arg(long, aliases = ["max-depth", "max_depth"], allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(DEPTH_MAX)))]
    pub depth2: Option<u32>,
    /// Node limit per search (0 = none).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub nodes: u64,
    /// Soft node limit per search: no new iteration starts once the search has
    /// used this many nodes (--nodes stays the hard cap). Default depth: unlimited.
    #[arg(long, alias = "soft_nodes", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..))]
    pub soft_nodes: Option<u64>,
    /// Each game starts with N uniformly random plies, N drawn from MIN-MAX (or
    /// exactly N), kept when the verification search scores them within
    /// --opening-max-score; not written as training positions.
    #[arg(long, alias = "random_opening_plies", value_name = "MIN-MAX")]
    pub random_opening_plies: Option<PlyRange>,
    /// Depth of the random openings' verification search (one thread, empty table).
    #[arg(long, default_value_t = OPENING_CHECK_DEPTH_DEFAULT, alias = "opening_check_depth",
          requires = "random_opening_plies", allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(DEPTH_MAX)))]
    pub opening_check_depth: u32,
    /// Largest |verification score| of a kept random opening, internal units.
    #[arg(long, default_value_t = OPENING_MAX_SCORE_DEFAULT, alias = "opening_max_score",
          requires = "random_opening_plies", allow_negative_numbers = true,
          value_parser = value_parser!(i32).range(0..=i64::from(EVAL_LIMIT_MAX)))]
    pub opening_max_score: i32,
    /// A search value at least this large (absolute, internal units) ends the game.
    #[arg(long, default_value_t = 3000, alias = "eval_limit", allow_negative_numbers = true,
          value_parser = value_parser!(i32).range(1..))]
    pub eval_limit: i32,
    /// First ply whose position is written.
    #[arg(long, default_value_t = 16, aliases = ["write-min-ply", "write_minply", "write_min_ply"],
          allow_negative_numbers = true, value_parser = value_parser!(u32).range(0..=MAX_GAME_PLY))]
    pub write_minply: u32,
    /// Games reaching this many plies end as draws.
    #[arg(long, default_value_t = 400, aliases = ["write-max-ply", "write_maxply", "write_max_ply"],
          allow_negative_numbers = true, value_parser = value_parser!(u32).range(0..=MAX_GAME_PLY))]
    pub write_maxply: u32,
    /// Random moves per game.
    #[arg(long, default_value_t = 5, alias = "random_move_count", allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(0..=MAX_GAME_PLY))]
    pub random_move_count: u32,
    /// First ply (1-based) that may get a random move; -1: the first
    /// --random-move-count plies.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = value_parser!(i32).range(-1..=MAX_GAME_PLY),
          aliases = ["random-move-min-ply", "random_move_minply", "random_move_min_ply"])]
    pub random_move_minply: i32,
    /// Last ply (1-based) that may get a random move.
    #[arg(long, default_value_t = 24, allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(0..=MAX_GAME_PLY),
          aliases = ["random-move-max-ply", "random_move_maxply", "random_move_max_ply"])]
    pub random_move_maxply: u32,
    /// N > 0: a random move is a king move with probability 1/N, and then the
    /// opponent's next move is random too with probability 1/2 (Apery's scheme).
    #[arg(long, default_value_t = 0, alias = "random_move_like_apery",
          allow_negative_numbers = true, value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub random_move_like_apery: u64,
    /// K > 0: random moves are drawn from the top K moves of a MultiPV search.
    #[arg(long, default_value_t = 0, alias = "random_multi_pv", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<usize>::new().range(0..=MULTI_PV_MAX))]
    pub random_multi_pv: usize,
    /// Only MultiPV moves within this many internal units of the best are drawn.
    #[arg(long, default_value_t = 32000, alias = "random_multi_pv_diff",
          allow_negative_numbers = true, value_parser = value_parser!(i32).range(0..))]
    pub random_multi_pv_diff: i32,
    /// Depth of the MultiPV search (default: the maximum search depth).
    #[arg(long, alias = "random_multi_pv_depth", allow_negative_numbers = true,
          value_parser = value_parser!(u32).range(1..=i64::from(DEPTH_MAX)))]
    pub random_multi_pv_depth: Option<u32>,
    /// Node limit of the MultiPV search (default: --nodes).
    #[arg(long, alias = "random_multi_pv_nodes", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub random_multi_pv_nodes: Option<u64>,
    /// Start a new file every N records: `<stem>_<k>.<ext>`, k = 0, 1, ...
    #[arg(long, alias = "save_every", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(1..))]
    pub save_every: Option<u64>,
    /// Append `_` and 32 random hex digits (from the seed) to the file stem.
    #[arg(long, alias = "random_file_name", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), default_value = "false")]
    pub random_file_name: bool,
    /// Write drawn games.
    #[arg(long, alias = "keep_draws", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), default_value = "true",
          aliases = ["write-out-draw-game-in-training-data-generation",
                     "write_out_draw_game_in_training_data_generation"])]
    pub keep_draws: bool,
    /// Adjudicate a draw after 8 consecutive zero scores from ply 80 on.
    #[arg(long, num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), default_value = "true",
          aliases = ["adjudicate_draws_by_score", "detect-draw-by-consecutive-low-score",
                     "detect_draw_by_consecutive_low_score"])]
    pub adjudicate_draws_by_score: bool,
    /// Adjudicate a draw with KvK, K+minor vs K, KB vs KB (bishops on one colour).
    #[arg(long, num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), default_value = "true",
          aliases = ["adjudicate_draws_by_insufficient_material",
                     "detect-draw-by-insufficient-mating-material",
                     "detect_draw_by_insufficient_mating_material"])]
    pub adjudicate_draws_by_insufficient_material: bool,
    /// Adjudicate a win once the search scores, from one side's view, are at
    /// least SCORE (internal units) for PLIES consecutive plies (off by default).
    #[arg(
        long,
        value_name = "SCORE:PLIES",
        alias = "adjudicate_win",
        allow_hyphen_values = true
    )]
    pub adjudicate_win: Option<WinAdjudication>,
    /// Adjudicate a draw once |score| is at most SCORE for PLIES consecutive
    /// plies, all at ply FROM or later (off by default).
    #[arg(
        long,
        value_name = "SCORE:PLIES:FROM",
        alias = "adjudicate_draw",
        allow_hyphen_values = true
    )]
    pub adjudicate_draw: Option<DrawAdjudication>,
    /// Opening positions: a text file with one FEN or EPD per line (shuffled by the seed).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Seed: a number or any text (hashed). Default: from the clock (printed).
    /// With --append to a file that holds data, the games come from this seed
    /// mixed with the file's length, so a continued run never replays its games.
    #[arg(long)]
    pub seed: Option<String>,
    /// Transposition table per worker, MiB.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<usize>::new().range(1..=HASH_MAX))]
    pub hash: usize,
    /// An evaluation cache in each worker's searcher (8 MiB; see docs/GENSFEN.md
    /// for what it buys).
    #[arg(long, alias = "use_eval_hash", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new(), default_value = "false")]
    pub use_eval_hash: bool,
    /// A `.nnue` network to label positions with (implies --use-nnue true).
    #[arg(long, alias = "eval_file")]
    pub eval_file: Option<PathBuf>,
    /// Evaluate with NNUE (--eval-file, else the net embedded in the binary) or,
    /// when false, with the classical evaluation.
    #[arg(long, alias = "use_nnue", num_args = 0..=1, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    pub use_nnue: Option<bool>,
    /// Stop after this many seconds (checked between games).
    #[arg(long, alias = "max_time_seconds", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub max_time_seconds: Option<u64>,
    /// Stop after this many minutes.
    #[arg(long, alias = "max_time_minutes", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub max_time_minutes: Option<u64>,
    /// Stop after this many hours.
    #[arg(long, alias = "max_time_hours", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<u64>::new().range(0..))]
    pub max_time_hours: Option<u64>,
    /// Memory of the duplicate-position filter in MiB (0 = off).
    #[arg(long, default_value_t = 64, alias = "dedup_mib", allow_negative_numbers = true,
          value_parser = RangedI64ValueParser::<usize>::new().range(0..=DEDUP_MIB_MAX))]
    pub dedup_mib: usize,
    /// This job is shard I of N (0-based): seeds disjoint from the other shards'.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Append to an existing output file, with new games (see --seed).
    #[arg(long, conflicts_with = "force")]
    pub append: bool,
    /// Replace an existing output file (never the book or the net).
    #[arg(long)]
    pub force: bool,
    /// No progress bar and no summary (errors still go to stderr).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Checked generation settings.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub threads: usize,
    pub output: PathBuf,
    pub output_mode: OutputMode,
    pub count: u64,
    pub depth_min: u32,
    pub depth_max: u32,
    pub nodes: Option<u64>,
    pub soft_nodes: Option<u64>,
    pub random_opening: Option<RandomOpening>,
    pub eval_limit: i32,
    pub write_minply: u32,
    pub write_maxply: u32,
    pub random_move_count: u32,
    pub random_move_minply: i32,
    pub random_move_maxply: u32,
    pub random_move_like_apery: u64,
    pub random_multi_pv: usize,
    pub random_multi_pv_diff: i32,
    pub random_multi_pv_depth: u32,
    pub random_multi_pv_nodes: Option<u64>,
    pub save_every: Option<u64>,
    pub keep_draws: bool,
    pub adjudicate_by_score: bool,
    pub adjudicate_by_material: bool,
    pub adjudicate_win: Option<WinAdjudication>,
    pub adjudicate_draw: Option<DrawAdjudication>,
    pub book: Option<PathBuf>,
    pub seed: u64,
    pub hash_mb: usize,
    pub use_eval_hash: bool,
    pub eval: EvalChoice,
    pub max_time: Option<Duration>,
    pub dedup_mib: usize,
    pub shard: Shard,
    pub quiet: bool,
}

impl GenerateArgs {
    /// Checks what clap's ranges cannot (options that must agree with each
    /// other) and resolves defaults; `clock_seed` is used when no `--seed`
    /// is given.
    pub fn resolve(&self, clock_seed: u64) -> Result<GenConfig, Error> {
        let nodes = (self.nodes > 0).then_some(self.nodes);
        let (depth_min, depth_max) = self.depths(nodes.is_some() || self.soft_nodes.is_some())?;
        self.check_plies()?;
        self.check_adjudication()?;
        let seed = self
            .seed
            .as_deref()
            .map_or(clock_seed, crate::rng::parse_seed);
        Ok(GenConfig {
            threads: self.threads,
            output: self.output_path(seed),
            output_mode: OutputCheck::mode_from_flags(self.force, self.append),
            count: self.loop_count,
            depth_min,
            depth_max,
            nodes,
            soft_nodes: self.soft_nodes,
            random_opening: self.random_opening_plies.map(|plies| RandomOpening {
                plies,
                check_depth: self.opening_check_depth,
                max_score: self.opening_max_score,
            }),
            eval_limit: self.eval_limit.min(EVAL_LIMIT_MAX),
            write_minply: self.write_minply,
            write_maxply: self.write_maxply,
            random_move_count: self.random_move_count,
            random_move_minply: self.random_move_minply,
            random_move_maxply: self.random_move_maxply,
            random_move_like_apery: self.random_move_like_apery,
            random_multi_pv: self.random_multi_pv,
            random_multi_pv_diff: self.random_multi_pv_diff,
            random_multi_pv_depth: self.random_multi_pv_depth.unwrap_or(depth_max),
            random_multi_pv_nodes: self.random_multi_pv_nodes.or(nodes).filter(|&n| n > 0),
            save_every: self.save_every,
            keep_draws: self.keep_draws,
            adjudicate_by_score: self.adjudicate_draws_by_score,
            adjudicate_by_material: self.adjudicate_draws_by_insufficient_material,
            adjudicate_win: self.adjudicate_win,
            adjudicate_draw: self.adjudicate_draw,
            book: self.book.clone(),
            seed,
            hash_mb: self.hash,
            use_eval_hash: self.use_eval_hash,
            eval: self.eval_choice()?,
            max_time: self.max_time(),
            dedup_mib: self.dedup_mib,
            shard: self.shard.unwrap_or_default(),
            quiet: self.quiet,
        })
    }

    /// The search depth window: `--depth` (default 3, or unlimited with
    /// `--nodes` or `--soft-nodes`) up to `--depth2` (default: `--depth`).
    fn depths(&self, has_nodes: bool) -> Result<(u32, u32), Error> {
        let default = if has_nodes { DEPTH_MAX } else { DEPTH_DEFAULT };
        let depth = self.depth.unwrap_or(default);
        let depth2 = self.depth2.unwrap_or(depth);
        if depth2 < depth {
            return Err(Error::DepthOrder { depth, depth2 });
        }
        Ok((depth, depth2))
    }

    /// The ply windows of writing and of random moves are not empty.
    fn check_plies(&self) -> Result<(), Error> {
        if self.write_minply > self.write_maxply {
            return Err(Error::WritePlyOrder {
                min: self.write_minply,
                max: self.write_maxply,
            });
        }
        match self.random_move_minply {
            0 => Err(Error::RandomPlyZero),
            min if min > 0 && min as u32 > self.random_move_maxply => Err(Error::RandomPlyOrder {
                min,
                max: self.random_move_maxply,
            }),
            _ => Ok(()),
        }
    }

    /// A position cannot be both won and drawn: the draw bound must lie below
    /// the win bound.
    fn check_adjudication(&self) -> Result<(), Error> {
        match (self.adjudicate_win, self.adjudicate_draw) {
            (Some(win), Some(draw)) if draw.score >= win.score => Err(Error::AdjudicationOrder {
                draw: draw.to_string(),
                win: win.to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// The evaluation of `--eval-file` and `--use-nnue`.
    fn eval_choice(&self) -> Result<EvalChoice, Error> {
        Ok(match (&self.eval_file, self.use_nnue) {
            (Some(_), Some(false)) => return Err(Error::EvalFileWithoutNnue),
            (Some(file), _) => EvalChoice::File(file.clone()),
            (None, Some(true)) => EvalChoice::Embedded,
            (None, _) => EvalChoice::Classical,
        })
    }

    /// The shortest of `--max-time-seconds`, `-minutes` and `-hours`.
    fn max_time(&self) -> Option<Duration> {
        let seconds = [
            self.max_time_seconds,
            self.max_time_minutes.map(|m| m.saturating_mul(60)),
            self.max_time_hours.map(|h| h.saturating_mul(3600)),
        ];
        seconds.into_iter().flatten().min().map(Duration::from_secs)
    }

    /// The output name, with the random suffix of `--random-file-name`.
    fn output_path(&self, seed: u64) -> PathBuf {
        if !self.random_file_name {
            return self.output.clone();
        }
        let mut rng = GenRng::new(mix(seed ^ FILE_NAME_SALT));
        let path = &self.output;
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let ext = path
            .extension()
            .map_or_else(String::new, |e| e.to_string_lossy().into_owned());
        path.with_file_name(format!(
            "{stem}_{:016x}{:016x}.{ext}",
            rng.next_u64(),
            rng.next_u64()
        ))
    }
}

//! `nnue-gen-sfen stats FILES...`: what a training set contains.

use std::collections::HashSet;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;

use clap::Args;
use nnue_core::data::{DataError, DataFormat, ReaderOptions, TrainingRecord, Validation};
use nnue_core::packed::GameResult;

use crate::error::Error;
use crate::source::for_each_record_as;

/// The arguments of `nnue-gen-sfen stats` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Input files (.bin, .binpack, .plain, .vf, .mf or .bf).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Read every input as this format, whatever its extension: bin,
    /// binpack, plain, viriformat (vf), marlinformat (mf) or bulletformat (bf).
    #[arg(long, value_name = "NAME")]
    pub format: Option<DataFormat>,
    /// Skip and count invalid records instead of stopping at the first one.
    #[arg(long)]
    pub skip_invalid: bool,
}

/// Runs `stats` and returns its report.
pub fn run(args: &StatsArgs) -> Result<String, Error> {
    Ok(stats_as(&args.files, args.format, args.skip_invalid)?.to_string())
}

/// Ply buckets are this wide; the last bucket is open-ended.
pub const PLY_BUCKET: u32 = 25;
/// Number of ply buckets.
pub const PLY_BUCKETS: usize = 17;

/// Upper bounds (exclusive) of the score buckets, internal units; the last
/// bucket is open-ended.
pub const SCORE_EDGES: [i32; 10] = [-3000, -1000, -500, -200, -50, 50, 200, 500, 1000, 3000];

/// Counters gathered over one or more files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Valid records.
    pub records: u64,
    /// Records skipped as invalid (including truncated tails).
    pub invalid: u64,
    /// Results from the side to move's view.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Positions whose side to move is in check.
    pub in_check: u64,
    /// Records whose best move captures (en passant included).
    pub captures: u64,
    /// Records whose position (pieces, side, castling, ep) was seen before.
    pub duplicates: u64,
    /// `ply_histogram[i]` counts game plies in `[25 i, 25 (i+1))`.
    pub ply_histogram: [u64; PLY_BUCKETS],
    /// Counts per score bucket (see [`SCORE_EDGES`]).
    pub score_histogram: [u64; SCORE_EDGES.len() + 1],
    seen: HashSet<u64>,
}

impl Stats {
    /// Adds one record.
    pub fn add(&mut self, rec: &TrainingRecord) {
        self.records += 1;
        match rec.result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
        let pos = &rec.position;
        if pos.is_check() {
            self.in_check += 1;
        }
        if rec.mv.is_capture(&pos.board, pos.turn) {
            self.captures += 1;
        }
        let mut h = DefaultHasher::new();
        (&pos.board, pos.turn, pos.castling, pos.ep_square).hash(&mut h);
        if !self.seen.insert(h.finish()) {
            self.duplicates += 1;
        }
        let ply_bucket = (u32::from(rec.game_ply) / PLY_BUCKET) as usize;
        self.ply_histogram[ply_bucket.min(PLY_BUCKETS - 1)] += 1;
        let score = i32::from(rec.score);
        let bucket = SCORE_EDGES.partition_point(|&edge| edge <= score);
        self.score_histogram[bucket] += 1;
    }
}

fn pct(n: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * n as f64 / total as f64
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.records;
        writeln!(f, "records: {n}")?;
        writeln!(f, "invalid (skipped): {}", self.invalid)?;
        writeln!(
            f,
            "results (side to move): win {} ({:.1}%), draw {} ({:.1}%), loss {} ({:.1}%)",
            self.wins,
            pct(self.wins, n),
            self.draws,
            pct(self.draws, n),
            self.losses,
            pct(self.losses, n)
        )?;
        writeln!(
            f,
            "in check: {} ({:.1}%)",
            self.in_check,
            pct(self.in_check, n)
        )?;
        writeln!(
            f,
            "capture best moves: {} ({:.1}%)",
            self.captures,
            pct(self.captures, n)
        )?;
        writeln!(
            f,
            "duplicate positions: {} ({:.1}%)",
            self.duplicates,
            pct(self.duplicates, n)
        )?;
        writeln!(f, "ply histogram:")?;
        for (i, c) in self.ply_histogram.iter().enumerate() {
            let lo = i as u32 * PLY_BUCKET;
            if i + 1 == PLY_BUCKETS {
                writeln!(f, "  {lo:>4}+     {c:>10} ({:.1}%)", pct(*c, n))?;
            } else {
                writeln!(
                    f,
                    "  {lo:>4}-{:<4} {c:>10} ({:.1}%)",
                    lo + PLY_BUCKET - 1,
                    pct(*c, n)
                )?;
            }
        }
        writeln!(f, "score histogram (internal units, 208 = 1 pawn):")?;
        for (i, c) in self.score_histogram.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_EDGES[0]),
                i if i == SCORE_EDGES.len() => format!(">= {}", SCORE_EDGES[i - 1]),
                i => format!("{}..{}", SCORE_EDGES[i - 1], SCORE_EDGES[i]),
            };
            writeln!(f, "  {label:>12} {c:>10} ({:.1}%)", pct(*c, n))?;
        }
        Ok(())
    }
}

/// Gathers [`Stats`] over `files` (any format, by extension). The first
/// invalid record is an error naming it, unless `skip_invalid` (then invalid
/// records are counted). Reading no valid record at all is an error too:
/// statistics of nothing would hide a wrong path or a wrong file.
pub fn stats(files: &[PathBuf], skip_invalid: bool) -> Result<Stats, Error> {
    stats_as(files, None, skip_invalid)
}

/// [`stats`] reading every file as `format` where given.
pub fn stats_as(
    files: &[PathBuf],
    format: Option<DataFormat>,
    skip_invalid: bool,
) -> Result<Stats, Error> {
    let mut s = Stats::default();
    let options = ReaderOptions {
        skip_invalid,
        ..ReaderOptions::default()
    };
    for path in files {
        let source = (path.as_path(), format);
        let skipped = for_each_record_as(source, options, Validation::Fast, |_, rec| {
            s.add(rec);
            Ok(())
        })?;
        s.invalid += skipped;
    }
    if s.records == 0 {
        return Err(DataError::no_records(files, s.invalid).into());
    }
    Ok(s)
}

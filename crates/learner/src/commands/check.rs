//! `nnue-learn check`: how well a net's evaluations follow the training scores
//! of a data file — the Pearson correlation and the mean absolute difference
//! over a sample of positions, the figures scripts/pipeline.py checks after
//! each training step. It reads the data with the same readers as `train` and
//! evaluates with the core's network, so no engine process and no text parsing
//! is involved; the values are those the engine's `eval` command prints.

use std::fmt::Write as _;
use std::path::PathBuf;

use nnue_core::nnue::{Kernel, Network};

use crate::data::{DataSource, PositionSource, SourceOptions};
use crate::error::LearnError;

/// Positions sampled by default (scripts/pipeline.py's sample).
pub const DEFAULT_COUNT: usize = 400;
/// Scores at or beyond this (internal units) are decided positions, left out.
pub const DEFAULT_SCORE_LIMIT: i32 = 2000;

#[derive(clap::Args, Clone, Debug)]
#[command(allow_negative_numbers = true)]
pub struct CheckArgs {
    /// The `.nnue` net to check.
    #[arg(long)]
    pub net: PathBuf,
    /// Data files (.bin, .binpack or .plain) whose scores the evaluations are
    /// compared with.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Positions sampled, evenly spread over the data (every k-th record).
    #[arg(long, default_value_t = DEFAULT_COUNT, value_parser = super::at_least::<usize>(1))]
    pub count: usize,
    /// Sample only the last part of the data, as `train` holds it out for
    /// validation (0: all of it).
    #[arg(long, default_value_t = 0.0, value_parser = fraction)]
    pub held_out: f64,
    /// Leave out positions whose |score| is at least this.
    #[arg(long, default_value_t = DEFAULT_SCORE_LIMIT, value_parser = super::at_least::<i32>(1))]
    pub score_limit: i32,
    /// Print the figures as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A share in `0..1`.
fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{text}' is not a fraction in [0, 1)")),
    }
}

/// The figures of one check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFigures {
    /// Positions compared (after the score limit).
    pub positions: usize,
    /// Pearson correlation of evaluations and scores (0 when either is constant).
    pub correlation: f64,
    /// Mean |evaluation − score|, internal units.
    pub mean_absolute_difference: f64,
}

/// The record indices sampled: the last `held_out` share of `len` records (all
/// when 0), every k-th of them, at most `count` (as scripts/pipeline.py did).
fn sample(len: u64, held_out: f64, count: usize) -> impl Iterator<Item = u64> {
    let start = if held_out > 0.0 {
        (len as f64 * (1.0 - held_out)) as u64
    } else {
        0
    };
    let step = ((len - start) / count as u64).max(1);
    (start..len).step_by(step as usize).take(count)
}

/// Pearson's correlation of `pairs`' two members.
fn pearson(pairs: &[(f64, f64)]) -> f64 {
    let n = pairs.len() as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx > 0.0 && syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        0.0
    }
}

/// Evaluates the sample of `source` with `net`.
pub fn measure(
    net: &Network,
    source: &dyn PositionSource,
    args: &CheckArgs,
) -> Result<CheckFigures, LearnError> {
    let kernel = Kernel::detect();
    let mut pairs = Vec::new();
    for index in sample(source.len(), args.held_out, args.count) {
        let record = source.record(index)?;
        let score = i32::from(record.score);
        if score.abs() >= args.score_limit {
            continue;
        }
        let pos = &record.position;
        let eval = net.evaluate_board(kernel, &pos.board, pos.turn);
        pairs.push((f64::from(eval), f64::from(score)));
    }
    let n = pairs.len().max(1) as f64;
    Ok(CheckFigures {
        positions: pairs.len(),
        correlation: pearson(&pairs),
        mean_absolute_difference: pairs.iter().map(|(x, y)| (x - y).abs()).sum::<f64>() / n,
    })
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `nnue-learn check`: the figures as text or JSON.
pub fn run(args: &CheckArgs) -> Result<String, LearnError> {
    let net = Network::load(&args.net)?;
    let source = DataSource::open(&args.data, SourceOptions::default())?;
    if source.is_empty() {
        return Err(source.no_records());
    }
    let f = measure(&net, &source, args)?;
    let (net_name, data) = (args.net.display().to_string(), source.describe());
    if args.json {
        return Ok(format!(
            "{{\"net\": {}, \"data\": {}, \"positions\": {}, \"correlation\": {:.6}, \"mean_absolute_difference\": {:.3}}}",
            json_string(&net_name),
            json_string(&data),
            f.positions,
            f.correlation,
            f.mean_absolute_difference
        ));
    }
    Ok(format!(
        "net:                       {net_name}\ndata:                      {data}\npositions:                 {}\ncorrelation:               {:.6}\nmean absolute difference:  {:.3}",
        f.positions, f.correlation, f.mean_absolute_difference
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_the_pipelines() {
        let all: Vec<u64> = sample(1000, 0.0, 4).collect();
        assert_eq!(all, [0, 250, 500, 750]);
        // The last 5 %: records 950..1000, every 12th.
        let held: Vec<u64> = sample(1000, 0.05, 4).collect();
        assert_eq!(held, [950, 962, 974, 986]);
        let few: Vec<u64> = sample(3, 0.0, 400).collect();
        assert_eq!(few, [0, 1, 2]);
    }

    #[test]
    fn pearson_of_a_line_is_one() {
        let pairs = [(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)];
        assert!((pearson(&pairs) - 1.0).abs() < 1e-12);
        assert_eq!(pearson(&[(1.0, 2.0), (1.0, 3.0)]), 0.0);
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}

//! `nnue-learn features`: what a feature set does with positions, so a set can
//! be checked by hand and its cost measured before anyone trains with it.
//!
//! With `--fen` it prints the active indices of both perspectives (or, with
//! `--changed MOVE`, the indices the move turns off and on, as the
//! accumulator's incremental update sees them). With `--data` it walks the
//! games of training data and reports the figures the feature-set study
//! compares: active features per position, features added and removed per
//! move, and how often a move forces a refresh.

use std::fmt::Write as _;
use std::path::PathBuf;

use nnue_core::data::{DataError, ReaderOptions, TrainingDataReader, Validation};
use nnue_core::features::{BoardChange, FeatureDelta, FeatureSet, MoveContext};
use nnue_core::packed::{DecodedSfen, SfMove};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Board, CastlingMode, Chess, Color, Position, PositionError};

use crate::error::LearnError;

#[derive(clap::Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["fen", "data"])))]
pub struct FeaturesArgs {
    /// Feature set, e.g. All, HalfKP, All+MB, KAm8+T.
    #[arg(long, alias = "features")]
    pub feature_set: String,
    /// A position (FEN) whose active indices are printed.
    #[arg(long, conflicts_with = "data")]
    pub fen: Option<String>,
    /// A UCI move legal in `--fen`: print the indices it removes and adds instead.
    #[arg(long, conflicts_with = "data")]
    pub changed: Option<String>,
    /// Training data (.bin, .binpack or .plain) to measure the set on.
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Read at most this many positions [default: all].
    #[arg(long, conflicts_with = "fen", value_parser = super::at_least::<u64>(1))]
    pub count: Option<u64>,
    /// Print the figures as one JSON object.
    #[arg(long, conflicts_with = "fen")]
    pub json: bool,
}

/// `nnue-learn features`: indices for `--fen`, figures for `--data`.
pub fn run(args: &FeaturesArgs) -> Result<String, LearnError> {
    let set = FeatureSet::parse(&args.feature_set)?;
    match &args.fen {
        Some(fen) => {
            let pos = parse_fen(fen)?;
            match &args.changed {
                Some(mv) => changed_report(&set, &pos, fen, mv),
                None => Ok(active_report(&set, pos.board())),
            }
        }
        None => {
            let stats = measure(&set, &args.data, args.count)?;
            Ok(if args.json {
                stats.json(&set)
            } else {
                stats.text(&set)
            })
        }
    }
}

/// The position of `--fen`, standard castling; the impossible-check rule is
/// waived as the data readers waive it (Stockfish writes such positions).
fn parse_fen(text: &str) -> Result<Chess, LearnError> {
    let fen: Fen = text
        .trim()
        .parse()
        .map_err(|e| LearnError::Usage(format!("--fen '{text}': not a FEN: {e}")))?;
    fen.into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| LearnError::Usage(format!("--fen '{text}': not a legal position: {e}")))
}

/// `label: 1,5,9`, or `label:` for no index: no line ends in a space, since
/// the toolkit's report trims the last one and every line should read alike.
fn line(label: &str, indices: &[u32]) -> String {
    let mut out = format!("{label}:");
    for (k, i) in indices.iter().enumerate() {
        out.push(if k == 0 { ' ' } else { ',' });
        let _ = write!(out, "{i}");
    }
    out
}

/// The perspectives in the order they are printed.
const PERSPECTIVES: [(Color, &str); 2] = [(Color::White, "white"), (Color::Black, "black")];

/// `white: …` and `black: …`, the sorted active indices of each perspective.
fn active_report(set: &FeatureSet, board: &Board) -> String {
    PERSPECTIVES
        .iter()
        .map(|&(color, name)| line(name, &set.active_sorted(board, color)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The removed and added indices of `mv` (UCI, legal in `pos`) for each
/// perspective, or `refresh` where the set rebuilds that accumulator.
fn changed_report(
    set: &FeatureSet,
    pos: &Chess,
    fen: &str,
    mv: &str,
) -> Result<String, LearnError> {
    let illegal = || LearnError::Usage(format!("--changed '{mv}': not a legal move in '{fen}'"));
    let uci = UciMove::from_ascii(mv.trim().as_bytes()).map_err(|_| illegal())?;
    let m = uci.to_move(pos).map_err(|_| illegal())?;
    let before = pos.board().clone();
    let change = BoardChange::of_move(&before, pos.turn(), &m);
    let after = pos.clone().play(m).map_err(|_| illegal())?;
    let mut lines = Vec::new();
    let mut delta = FeatureDelta::default();
    for &(color, name) in &PERSPECTIVES {
        let ctx = MoveContext::new(&before, after.board(), &change, color);
        if set.needs_refresh(&ctx) {
            lines.push(format!("{name}: refresh"));
            continue;
        }
        delta.clear();
        set.changed(&ctx, &mut delta);
        delta.removed.sort_unstable();
        delta.added.sort_unstable();
        lines.push(line(&format!("{name} removed"), &delta.removed));
        lines.push(line(&format!("{name} added"), &delta.added));
    }
    Ok(lines.join("\n"))
}

/// What a feature set did over the games of some training data. Counts are
/// summed over both perspectives; the means divide by two per position or
/// move, so they are per perspective, the unit an accumulator half pays in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureStats {
    /// Positions read.
    pub positions: u64,
    /// Moves within games: a record's stored move that leads to the next
    /// record's position.
    pub moves: u64,
    /// Active features, both perspectives, over all positions.
    pub active: u64,
    /// Features added, both perspectives, over all moves (a refresh adds
    /// every feature active after the move).
    pub added: u64,
    /// Features removed (a refresh removes every feature active before).
    pub removed: u64,
    /// Perspective updates that were refreshes.
    pub refreshes: u64,
}

/// `sum / (2·n)`, 0 when there is nothing to divide.
fn per_perspective(sum: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum as f64 / (2 * n) as f64
    }
}

impl FeatureStats {
    /// Mean active features per position and perspective.
    pub fn active_per_position(&self) -> f64 {
        per_perspective(self.active, self.positions)
    }

    /// Mean features added per move and perspective.
    pub fn added_per_move(&self) -> f64 {
        per_perspective(self.added, self.moves)
    }

    /// Mean features removed per move and perspective.
    pub fn removed_per_move(&self) -> f64 {
        per_perspective(self.removed, self.moves)
    }

    /// The share of perspective updates that were refreshes.
    pub fn refresh_rate(&self) -> f64 {
        per_perspective(self.refreshes, self.moves)
    }

    /// The four means with their JSON keys and text labels, in output order.
    fn means(&self) -> [(&'static str, &'static str, f64); 4] {
        [
            (
                "active_per_position",
                "active per position",
                self.active_per_position(),
            ),
            ("added_per_move", "added per move", self.added_per_move()),
            (
                "removed_per_move",
                "removed per move",
                self.removed_per_move(),
            ),
            ("refresh_rate", "refresh rate", self.refresh_rate()),
        ]
    }

    /// The figures as aligned text.
    pub fn text(&self, set: &FeatureSet) -> String {
        let mut text = format!(
            "feature set:          {}\ninputs:               {}\npositions:            {}\nmoves:                {}",
            set.name(),
            set.size(),
            self.positions,
            self.moves
        );
        for (key, label, value) in self.means() {
            // The refresh rate is a small share: one more digit.
            let digits = if key == "refresh_rate" { 4 } else { 3 };
            let label = format!("{label}:");
            text.push_str(&format!("\n{label:<22}{value:.digits$}"));
        }
        text
    }

    /// The figures as one JSON object (the name is a spec: no character
    /// JSON would need escaped).
    pub fn json(&self, set: &FeatureSet) -> String {
        let mut json = format!(
            "{{\"feature_set\": \"{}\", \"inputs\": {}, \"positions\": {}, \"moves\": {}",
            set.name(),
            set.size(),
            self.positions,
            self.moves
        );
        for (key, _, value) in self.means() {
            json.push_str(&format!(", \"{key}\": {value:.6}"));
        }
        json.push('}');
        json
    }
}

/// The record before the current one, once its stored move has been played:
/// what a move to the next record needs.
struct Played {
    before: Board,
    after: Board,
    turn_after: Color,
    change: BoardChange,
    /// Active features of `before`, White's and Black's perspective.
    active: [u64; 2],
}

/// Plays the stored move of `position`; `None` when the position or the move
/// is not legal (then no move to the next record is counted).
fn play(position: &DecodedSfen, record_move: SfMove, active: [u64; 2]) -> Option<Played> {
    let chess = position.to_chess().ok()?;
    let m = record_move.to_move(&chess).ok()?;
    let change = BoardChange::of_move(chess.board(), chess.turn(), &m);
    let before = chess.board().clone();
    let after = chess.play(m).ok()?;
    Some(Played {
        before,
        after: after.board().clone(),
        turn_after: after.turn(),
        change,
        active,
    })
}

/// Walks the records of `files` in order (games never span two files),
/// at most `count` positions.
pub fn measure(
    set: &FeatureSet,
    files: &[PathBuf],
    count: Option<u64>,
) -> Result<FeatureStats, LearnError> {
    let mut stats = FeatureStats::default();
    let mut walker = Walker::new(set);
    'files: for path in files {
        let reader = TrainingDataReader::open(path, ReaderOptions::default())?;
        let mut pending: Option<Played> = None;
        for record in reader.records(Validation::Fast)? {
            if count.is_some_and(|c| stats.positions >= c) {
                break 'files;
            }
            let record = record?.record;
            pending = walker.step(&mut stats, pending.as_ref(), &record.position, record.mv);
        }
    }
    if stats.positions == 0 {
        return Err(DataError::no_records(files, 0).into());
    }
    Ok(stats)
}

/// The buffers reused from record to record.
struct Walker<'a> {
    set: &'a FeatureSet,
    buffer: Vec<u32>,
    delta: FeatureDelta,
}

impl<'a> Walker<'a> {
    fn new(set: &'a FeatureSet) -> Walker<'a> {
        Walker {
            set,
            buffer: Vec::with_capacity(set.buffer_capacity()),
            delta: FeatureDelta::default(),
        }
    }

    fn active(&mut self, board: &Board, perspective: Color) -> u64 {
        self.buffer.clear();
        self.set.active(board, perspective, &mut self.buffer);
        self.buffer.len() as u64
    }

    /// Counts one position, and the move from `previous` to it when that move
    /// leads here (otherwise a new game starts); the played record to pass on.
    fn step(
        &mut self,
        stats: &mut FeatureStats,
        previous: Option<&Played>,
        position: &DecodedSfen,
        record_move: SfMove,
    ) -> Option<Played> {
        let active = [
            self.active(&position.board, Color::White),
            self.active(&position.board, Color::Black),
        ];
        stats.positions += 1;
        stats.active += active[0] + active[1];
        if let Some(p) = previous {
            if p.after == position.board && p.turn_after == position.turn {
                self.count_move(stats, p, active);
            }
        }
        play(position, record_move, active)
    }

    /// Adds the move `p` (ending in a position with `active` features) to `stats`.
    fn count_move(&mut self, stats: &mut FeatureStats, p: &Played, active: [u64; 2]) {
        stats.moves += 1;
        for (k, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let ctx = MoveContext::new(&p.before, &p.after, &p.change, color);
            if self.set.needs_refresh(&ctx) {
                stats.refreshes += 1;
                stats.removed += p.active[k];
                stats.added += active[k];
            } else {
                self.delta.clear();
                self.set.changed(&ctx, &mut self.delta);
                stats.removed += self.delta.removed.len() as u64;
                stats.added += self.delta.added.len() as u64;
            }
        }
    }
}

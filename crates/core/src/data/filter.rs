//! Which positions are used: nodchip's and nnue-pytorch's skipping rules and
//! the bullet ecosystem's presets, one filter for the trainer (`nnue-learn
//! train`) and the data tools (`nnue-gen-sfen convert` and `shuffle`), with the
//! same option names ([`FilterArgs`] for the tools).

use super::TrainingRecord;
use crate::nnue::random::splitmix64_finalize;
use crate::packed::{GameResult, MoveKind};

/// The skipping rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Skip positions whose stored best move captures or promotes, or whose side to
    /// move is in check: the net should learn quiet positions' values.
    pub smart_fen_skipping: bool,
    /// Skip each position with probability `N / (N + 1)`.
    pub random_fen_skipping: u32,
    /// Skip positions of the first N plies of a game.
    pub early_fen_skipping: u16,
    /// Skip positions with |score| above this.
    pub eval_limit: i32,
    /// Skip positions with fewer pieces than this on the board, kings
    /// included (0 and 2 keep every position).
    pub min_pieces: u8,
    /// Keep positions of drawn games.
    pub use_draws: bool,
    /// Seed of the random skipping.
    pub seed: u64,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            smart_fen_skipping: false,
            random_fen_skipping: 0,
            early_fen_skipping: 0,
            eval_limit: DEFAULT_EVAL_LIMIT,
            min_pieces: 0,
            use_draws: true,
            seed: 0,
        }
    }
}

impl Filter {
    /// Whether `record` is used. `draw` numbers the position in the stream so the
    /// random choice is a pure function of the seed and the stream position.
    pub fn accepts(&self, record: &TrainingRecord, draw: u64) -> bool {
        if i32::from(record.score).abs() > self.eval_limit
            || record.game_ply < self.early_fen_skipping
            || record.position.board.occupied().count() < usize::from(self.min_pieces)
            || (!self.use_draws && record.result == GameResult::Draw)
        {
            return false;
        }
        if self.smart_fen_skipping && is_noisy(record) {
            return false;
        }
        if self.random_fen_skipping > 0 {
            let z = draw_hash(self.seed, draw);
            if !z.is_multiple_of(u64::from(self.random_fen_skipping) + 1) {
                return false;
            }
        }
        true
    }

    /// The same rules without random skipping (validation positions).
    pub fn deterministic(&self) -> Filter {
        Filter {
            random_fen_skipping: 0,
            ..self.clone()
        }
    }
}

/// The filters of the bullet ecosystem by name, as `--filter-preset` sets them
/// (random skipping, draws and the seed stay the command line's).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FilterPreset {
    /// The `viriformat` crate's `Filter::default()`: ply at least 16, at least 4
    /// pieces, no capture, promotion or en-passant best move, not in check,
    /// |score| below 31339.
    Viriformat,
    /// bullet's example filter for Stockfish binpacks: ply at least 16, not in
    /// check, |score| at most 10000, no capture or promotion best move (bullet's
    /// example also drops castling moves, which this keeps).
    Bullet,
}

/// The first ply a preset keeps.
const PRESET_MIN_PLY: u16 = 16;
/// viriformat's `max_eval`: a position is skipped from this |score| up.
const VIRIFORMAT_MAX_EVAL: i32 = 31339;
/// viriformat's `min_pieces`.
const VIRIFORMAT_MIN_PIECES: u8 = 4;
/// The |score| bound of bullet's binpack example (kept up to it).
const BULLET_EVAL_LIMIT: i32 = 10_000;

impl FilterPreset {
    /// `base` with this preset's rules in place of its ply, tactical, score and
    /// piece-count rules.
    pub fn apply(self, base: Filter) -> Filter {
        let (eval_limit, min_pieces) = match self {
            FilterPreset::Viriformat => (VIRIFORMAT_MAX_EVAL - 1, VIRIFORMAT_MIN_PIECES),
            FilterPreset::Bullet => (BULLET_EVAL_LIMIT, 0),
        };
        Filter {
            smart_fen_skipping: true,
            early_fen_skipping: PRESET_MIN_PLY,
            eval_limit,
            min_pieces,
            ..base
        }
    }
}

/// SplitMix64's increment, spreading consecutive draw numbers.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A 64-bit hash of draw number `draw` under `seed`: the per-position random
/// choices (random skipping, `--mirror`) are pure functions of it, so they do not
/// depend on the thread count and resume exactly.
pub fn draw_hash(seed: u64, draw: u64) -> u64 {
    splitmix64_finalize(seed ^ draw.wrapping_mul(GOLDEN))
}

/// A capture, a promotion, or the side to move in check.
pub fn is_noisy(record: &TrainingRecord) -> bool {
    let pos = &record.position;
    record.mv.kind() == MoveKind::Promotion
        || record.mv.is_capture(&pos.board, pos.turn)
        || pos.is_check()
}

/// The default `--eval-limit`: no score of the formats is above it but
/// mate-like ones.
pub const DEFAULT_EVAL_LIMIT: i32 = 32000;

/// The filter options of `nnue-gen-sfen convert` and `shuffle`, spelled as
/// `nnue-learn train` spells them.
#[derive(Clone, Debug, clap::Args)]
pub struct FilterArgs {
    /// Skip positions whose best move captures or promotes, or whose side to
    /// move is in check.
    #[arg(long)]
    pub smart_fen_skipping: bool,
    /// Skip each position with probability N/(N+1), drawn from --skip-seed and
    /// the position's number in the input.
    #[arg(long, default_value_t = 0)]
    pub random_fen_skipping: u32,
    /// Skip positions of the first N plies.
    #[arg(long, default_value_t = 0)]
    pub early_fen_skipping: u16,
    /// Skip positions with |score| above this.
    #[arg(long, default_value_t = DEFAULT_EVAL_LIMIT)]
    pub eval_limit: i32,
    /// Skip positions with fewer pieces than N on the board, kings included.
    #[arg(long, default_value_t = 0)]
    pub min_pieces: u8,
    /// A named filter in place of --early-fen-skipping, --smart-fen-skipping,
    /// --eval-limit and --min-pieces: viriformat (its crate's default) or
    /// bullet (its binpack example); docs/TRAIN-FOR-YOUR-ENGINE.md.
    #[arg(long, value_enum, conflicts_with_all = ["early_fen_skipping", "smart_fen_skipping", "eval_limit", "min_pieces"])]
    pub filter_preset: Option<FilterPreset>,
    /// Seed of --random-fen-skipping.
    #[arg(long, default_value_t = 0)]
    pub skip_seed: u64,
}

impl FilterArgs {
    /// The filter these options ask for, `None` when they keep every
    /// position (so a plain conversion decodes nothing it does not need).
    pub fn filter(&self) -> Option<Filter> {
        let filter = Filter {
            smart_fen_skipping: self.smart_fen_skipping,
            random_fen_skipping: self.random_fen_skipping,
            early_fen_skipping: self.early_fen_skipping,
            eval_limit: self.eval_limit,
            min_pieces: self.min_pieces,
            use_draws: true,
            seed: self.skip_seed,
        };
        let filter = match self.filter_preset {
            Some(preset) => preset.apply(filter),
            None => filter,
        };
        let keeps_all = Filter {
            seed: filter.seed,
            ..Filter::default()
        };
        (filter != keeps_all).then_some(filter)
    }
}

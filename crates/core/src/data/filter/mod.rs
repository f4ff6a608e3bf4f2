//! Which positions are used: nodchip's and nnue-pytorch's skipping rules and
//! the bullet ecosystem's presets, one filter for the trainer (`nnue-learn
//! train`) and the data tools (`nnue-gen-sfen convert` and `shuffle`), with the
//! same option names ([`FilterArgs`] for the tools).

mod args;
mod preset;
pub mod wld;

pub use args::{FilterArgs, PRESET_CONFLICTS};
pub use preset::FilterPreset;

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
    /// Skip positions whose stored best move castles (bullet's binpack
    /// example keeps only normal moves; viriformat's `filter_castling`).
    pub castling_fen_skipping: bool,
    /// nnue-pytorch's win/draw/loss-versus-score skipping ([`wld`]): keep a
    /// position with the probability its model gives its game's result.
    pub wld_fen_skipping: bool,
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
            castling_fen_skipping: false,
            wld_fen_skipping: false,
            use_draws: true,
            seed: 0,
        }
    }
}

impl Filter {
    /// Whether `record` is used. `draw` numbers the position in the stream so the
    /// random choices are pure functions of the seed and the stream position.
    pub fn accepts(&self, record: &TrainingRecord, draw: u64) -> bool {
        if i32::from(record.score).abs() > self.eval_limit
            || record.game_ply < self.early_fen_skipping
            || record.position.board.occupied().count() < usize::from(self.min_pieces)
            || (!self.use_draws && record.result == GameResult::Draw)
            || (self.smart_fen_skipping && is_noisy(record))
            || (self.castling_fen_skipping && record.mv.kind() == MoveKind::Castling)
        {
            return false;
        }
        if self.random_fen_skipping > 0 {
            let z = draw_hash(self.seed, draw);
            if !z.is_multiple_of(u64::from(self.random_fen_skipping) + 1) {
                return false;
            }
        }
        !(self.wld_fen_skipping && self.wld_skips(record, draw))
    }

    /// Whether the WLD rule skips `record`: a draw of its own stream (so
    /// turning random skipping on or off leaves its choices alone) below
    /// nnue-pytorch's threshold `(1 − p) · 2^64`.
    fn wld_skips(&self, record: &TrainingRecord, draw: u64) -> bool {
        let keep = wld::result_probability(record.score, record.game_ply, record.result);
        draw_hash(self.seed.wrapping_add(WLD_STREAM), draw) < wld::skip_threshold(keep)
    }

    /// The same rules without the random ones, random and WLD skipping
    /// (validation positions: a fixed set, measured on every position the
    /// deterministic rules keep).
    pub fn deterministic(&self) -> Filter {
        Filter {
            random_fen_skipping: 0,
            wld_fen_skipping: false,
            ..self.clone()
        }
    }
}

/// Offsets the seed so WLD skipping draws from another stream than random
/// skipping (and `--mirror`'s).
const WLD_STREAM: u64 = 0x574C_445F_534B_4950;

/// SplitMix64's increment, spreading consecutive draw numbers.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A 64-bit hash of draw number `draw` under `seed`: the per-position random
/// choices (random and WLD skipping, `--mirror`) are pure functions of it, so they do not
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

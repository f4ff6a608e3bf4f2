//! The filters of the trainers engine authors use, by name (`--filter-preset`):
//! each sets every rule but random skipping, draws and the seed, which stay the
//! command line's. The numbers are the sources' own:
//!
//! - viriformat 3.0.0, `dataformat.rs`, `Filter::default()`: `min_ply: 16`,
//!   `min_pieces: 4`, `max_eval: 31339` (skipped from `|eval| >= max_eval` up),
//!   `filter_tactical` (capture, promotion or en passant; castling, which it
//!   writes king-takes-rook, is not a capture), `filter_check`, and
//!   `filter_castling: false`; the same in 2.0.1, the version bullet's
//!   `ViriBinpackLoader` builds with.
//! - bullet's `examples/simple.rs`, its Stockfish-binpack filter:
//!   `ply >= 16`, not in check, `score.unsigned_abs() <= 10000`, a
//!   `MoveType::Normal` best move (so no promotion, en passant or castling)
//!   onto an empty square.
//! - nnue-pytorch's data loader (`data_loader/config.py`): `filtered` (a
//!   capture or in check) and `wld_filtered`, both on by default; it also skips
//!   scores of 32002 (`VALUE_NONE`), which the default `--eval-limit` 32000 does.

use super::{Filter, DEFAULT_EVAL_LIMIT};

/// A named filter, as `--filter-preset` spells it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FilterPreset {
    /// The `viriformat` crate's `Filter::default()`: ply at least 16, at least 4
    /// pieces, no capture, promotion or en-passant best move, not in check,
    /// |score| below 31339 (castling moves kept).
    Viriformat,
    /// bullet's example filter for Stockfish binpacks: ply at least 16, not in
    /// check, |score| at most 10000, a best move that neither captures,
    /// promotes nor castles.
    Bullet,
    /// nnue-pytorch's default skipping: `--smart-fen-skipping` and
    /// `--wld-fen-skipping`.
    #[value(name = "nnue-pytorch")]
    NnuePytorch,
}

/// The first ply viriformat's and bullet's filters keep.
const MIN_PLY: u16 = 16;
/// viriformat's `max_eval`: a position is skipped from this |score| up.
const VIRIFORMAT_MAX_EVAL: i32 = 31339;
/// viriformat's `min_pieces`.
const VIRIFORMAT_MIN_PIECES: u8 = 4;
/// The |score| bound of bullet's binpack example (kept up to it).
const BULLET_EVAL_LIMIT: i32 = 10_000;

impl FilterPreset {
    /// `base` with this preset's rules in place of its ply, tactical, castling,
    /// score, piece-count and WLD rules.
    pub fn apply(self, base: Filter) -> Filter {
        let rules = Filter {
            smart_fen_skipping: true,
            early_fen_skipping: MIN_PLY,
            eval_limit: DEFAULT_EVAL_LIMIT,
            min_pieces: 0,
            castling_fen_skipping: false,
            wld_fen_skipping: false,
            ..base
        };
        match self {
            FilterPreset::Viriformat => Filter {
                eval_limit: VIRIFORMAT_MAX_EVAL - 1,
                min_pieces: VIRIFORMAT_MIN_PIECES,
                ..rules
            },
            FilterPreset::Bullet => Filter {
                eval_limit: BULLET_EVAL_LIMIT,
                castling_fen_skipping: true,
                ..rules
            },
            FilterPreset::NnuePytorch => Filter {
                early_fen_skipping: 0,
                wld_fen_skipping: true,
                ..rules
            },
        }
    }
}

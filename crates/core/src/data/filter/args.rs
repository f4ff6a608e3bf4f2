//! The filter options of `nnue-gen-sfen convert` and `shuffle`.

use super::{Filter, FilterPreset, DEFAULT_EVAL_LIMIT};

/// The options a `--filter-preset` sets, which cannot be given beside it (the
/// `nnue-learn train` options of the same names use this list too).
pub const PRESET_CONFLICTS: [&str; 6] = [
    "early_fen_skipping",
    "smart_fen_skipping",
    "eval_limit",
    "min_pieces",
    "castling_fen_skipping",
    "wld_fen_skipping",
];

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
    /// Skip positions whose best move castles.
    #[arg(long)]
    pub castling_fen_skipping: bool,
    /// nnue-pytorch's WLD skipping: keep a position with the probability its
    /// win-rate model gives the game's result at the position's score and ply,
    /// drawn from --skip-seed and the position's number in the input.
    #[arg(long, alias = "wld-filtered")]
    pub wld_fen_skipping: bool,
    /// A named filter in place of the options above but --random-fen-skipping:
    /// viriformat (its crate's default), bullet (its binpack example) or
    /// nnue-pytorch (its data loader's default); docs/FORMATS.md, "Filtering".
    #[arg(long, value_enum, conflicts_with_all = PRESET_CONFLICTS)]
    pub filter_preset: Option<FilterPreset>,
    /// Seed of --random-fen-skipping and --wld-fen-skipping.
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
            castling_fen_skipping: self.castling_fen_skipping,
            wld_fen_skipping: self.wld_fen_skipping,
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

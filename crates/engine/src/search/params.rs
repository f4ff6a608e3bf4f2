//! Every tuning constant of the search in one place: pruning margins, reduction
//! and extension conditions, aspiration windows, time-management factors and the
//! one piece-value table used by SEE, move ordering and delta pruning. Depths are
//! plies, values internal units (a pawn is 208).

use shakmaty::Role;

/// Piece values: Stockfish's endgame material values (king: more than everything).
/// SEE swaps with them, delta pruning adds them, ordering ranks by them.
pub const PIECE_VALUE: [i32; 6] = [208, 850, 910, 1380, 2680, 20000];

/// The value of `role` from [`PIECE_VALUE`].
#[inline]
pub fn piece_value(role: Role) -> i32 {
    PIECE_VALUE[role as usize - Role::Pawn as usize]
}

/// The value of `role` in whole pawns, for MVV-LVA ordering.
#[inline]
pub fn piece_rank(role: Role) -> i32 {
    piece_value(role) / PIECE_VALUE[0]
}

/// MVV-LVA: victim ranks weigh this much more than attacker ranks, so the most
/// valuable victim always comes first.
pub const MVV_WEIGHT: i32 = 128;

// Reverse futility pruning (static null move).
/// Deepest node where a static value far above beta cuts.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Margin per ply of depth.
pub const RFP_MARGIN: i32 = 170;

// Null-move pruning.
/// Shallowest node that tries a null move.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Reduction: base ...
pub const NMP_BASE: i32 = 3;
/// ... plus depth / this ...
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// ... plus (static eval - beta) / this, at most [`NMP_EVAL_MAX`].
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;

/// Internal iterative reduction: nodes this deep without a table move search one
/// ply shallower.
pub const IIR_MIN_DEPTH: i32 = 5;

// Move-count (late move) pruning: at depth <= LMP_MAX_DEPTH skip quiet moves after
// LMP_BASE + LMP_FACTOR * depth^2 moves.
pub const LMP_MAX_DEPTH: i32 = 4;
pub const LMP_BASE: i32 = 3;
pub const LMP_FACTOR: i32 = 2;

// SEE pruning of captures: at depth <= SEE_MAX_DEPTH skip captures losing more
// than SEE_MARGIN per ply.
pub const SEE_MAX_DEPTH: i32 = 6;
pub const SEE_MARGIN: i32 = -120;

// Futility pruning of quiet moves: at depth <= FUTILITY_MAX_DEPTH skip quiet moves
// when static eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 5;
pub const FUTILITY_BASE: i32 = 120;
pub const FUTILITY_MARGIN: i32 = 100;

// Late move reductions.
/// Shallowest node that reduces.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Root moves reduced from this index on (0-based, after the first line's).
pub const LMR_ROOT_FROM: usize = 3;
/// History score worth one ply less reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 6000;
/// The log-log reduction table: `LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Check extensions stop once the line is this many times the root depth.
pub const CHECK_EXTENSION_PLY_FACTOR: i32 = 2;

// Quiescence.
/// Plies after which only recaptures are searched.
pub const RECAPTURES_FROM: u32 = 4;
/// Delta pruning: a capture is skipped when even the victim's value plus this
/// cannot lift the stand-pat value to alpha.
pub const DELTA_MARGIN: i32 = 200;

// Aspiration windows.
/// Shallowest iteration searched with a window around the last value.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// First half-width.
pub const ASPIRATION_DELTA: i32 = 30;
/// After a fail, delta grows by delta / 2 + this ...
pub const ASPIRATION_GROWTH: i32 = 10;
/// ... and past this the window is opened fully.
pub const ASPIRATION_FULL_WINDOW: i32 = 1000;

// Time management.
/// Moves assumed left when the GUI does not say (with an increment).
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The same without increment (sudden death).
pub const SUDDEN_DEATH_MOVES_TO_GO: u32 = 50;
/// Kept back on every move on top of the move overhead, milliseconds.
pub const SAFETY_MS: u64 = 5;
/// Optimum time scale by how many iterations in a row kept the best move
/// (0, 1, 2, 3 or more): a stable best move needs less time.
pub const STABILITY_SCALE: [f64; 4] = [1.3, 1.0, 0.8, 0.6];

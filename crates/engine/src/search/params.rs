//! Every tuning constant of the search in one place: pruning margins, reduction
//! and extension conditions, aspiration windows, time-management factors and the
//! one piece-value table used by SEE, move ordering and delta pruning. Depths are
//! plies, values internal units (a pawn is 208).

use shakmaty::Role;

/// Piece values: Stockfish's endgame material values (king: more than everything).
/// SEE swaps with them, delta pruning adds them, ordering ranks by them.
pub(crate) const PIECE_VALUE: [i32; 6] = [208, 850, 910, 1380, 2680, 20000];

/// The value of `role` from [`PIECE_VALUE`].
#[inline]
pub(crate) fn piece_value(role: Role) -> i32 {
    PIECE_VALUE[role as usize - Role::Pawn as usize]
}

/// [`PIECE_VALUE`] in whole pawns (rounded down), computed once at compile time
/// instead of a division per capture scored.
const PIECE_RANK: [i32; 6] = {
    let mut ranks = [0; 6];
    let mut i = 0;
    while i < 6 {
        ranks[i] = PIECE_VALUE[i] / PIECE_VALUE[0];
        i += 1;
    }
    ranks
};

/// The value of `role` in whole pawns, for MVV-LVA ordering.
#[inline]
pub(crate) fn piece_rank(role: Role) -> i32 {
    PIECE_RANK[role as usize - Role::Pawn as usize]
}

/// MVV-LVA: victim ranks weigh this much more than attacker ranks, so the more
/// valuable victim comes first unless the capture history says otherwise.
pub(crate) const MVV_WEIGHT: i32 = 128;
/// The capture history enters a capture's ordering score divided by this: at its
/// bound it is worth one victim rank.
pub(crate) const CAPTURE_HISTORY_DIVISOR: i32 = 128;

// Reverse futility pruning (static null move).
/// Deepest node where a static value far above beta cuts.
pub(crate) const RFP_MAX_DEPTH: i32 = 7;
/// Margin per ply of depth.
pub(crate) const RFP_MARGIN: i32 = 170;

// Null-move pruning.
/// Shallowest node that tries a null move.
pub(crate) const NMP_MIN_DEPTH: i32 = 3;
/// Reduction: base ...
pub(crate) const NMP_BASE: i32 = 3;
/// ... plus depth / this ...
pub(crate) const NMP_DEPTH_DIVISOR: i32 = 4;
/// ... plus (static eval - beta) / this, at most [`NMP_EVAL_MAX`].
pub(crate) const NMP_EVAL_DIVISOR: i32 = 200;
/// The most plies the evaluation margin adds to the null-move reduction.
pub(crate) const NMP_EVAL_MAX: i32 = 3;

/// Internal iterative reduction: nodes this deep without a table move search one
/// ply shallower.
pub(crate) const IIR_MIN_DEPTH: i32 = 5;

// Move-count (late move) pruning: at depth <= LMP_MAX_DEPTH skip quiet moves after
// LMP_BASE + factor * depth^2 moves, the factor LMP_FACTOR_IMPROVING while the static
// evaluation improves and LMP_FACTOR otherwise.
/// Deepest node where late quiet moves are skipped.
pub(crate) const LMP_MAX_DEPTH: i32 = 4;
/// Quiet moves always tried, at any depth.
pub(crate) const LMP_BASE: i32 = 3;
/// Further quiet moves tried per square of the depth ...
pub(crate) const LMP_FACTOR: i32 = 1;
/// ... and while the static evaluation improves.
pub(crate) const LMP_FACTOR_IMPROVING: i32 = 2;

// History pruning of quiet moves: at depth <= HISTORY_PRUNE_MAX_DEPTH skip a quiet
// move (after the first move, killers excepted) whose history score is below
// -HISTORY_PRUNE_MARGIN * depth.
/// Deepest node where quiet moves with a bad history are skipped.
pub(crate) const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
/// History score per ply of depth a quiet move may fall below zero before it is
/// skipped (the score sums three tables of +-16384 each; a cutoff at depth 3 moves
/// an entry by 288).
pub(crate) const HISTORY_PRUNE_MARGIN: i32 = 2000;

// SEE pruning of captures: at depth <= SEE_MAX_DEPTH skip captures losing more
// than SEE_MARGIN per ply.
/// Deepest node where losing captures are skipped.
pub(crate) const SEE_MAX_DEPTH: i32 = 6;
/// Material a capture may lose per ply of depth before it is skipped.
pub(crate) const SEE_MARGIN: i32 = -120;

// Futility pruning of quiet moves: at depth <= FUTILITY_MAX_DEPTH skip quiet moves
// when static eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha.
/// Deepest node where futile quiet moves are skipped.
pub(crate) const FUTILITY_MAX_DEPTH: i32 = 5;
/// Margin at any depth.
pub(crate) const FUTILITY_BASE: i32 = 120;
/// Margin added per ply of depth.
pub(crate) const FUTILITY_MARGIN: i32 = 100;

// Late move reductions.
/// Shallowest node that reduces.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
/// Root moves reduced from this index on (0-based, after the first line's).
pub(crate) const LMR_ROOT_FROM: usize = 3;
/// History score (butterfly plus both continuation histories) worth one ply less
/// reduction.
pub(crate) const LMR_HISTORY_DIVISOR: i32 = 10000;
/// Extra reduction at expected cut nodes: their late moves are expected to fail
/// low, and if one does not, the re-search corrects it.
pub(crate) const LMR_CUT_NODE: i32 = 1;
/// Extra reduction of quiet moves when the table move is a capture or
/// promotion: the node's best line is most likely tactical.
pub(crate) const LMR_TT_TACTICAL: i32 = 1;
/// A late capture or promotion is reduced this many plies less than a quiet
/// move at the same place.
pub(crate) const LMR_TACTICAL_RELIEF: i32 = 1;
/// The log-log reduction table: `LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR`.
pub(crate) const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub(crate) const LMR_DIVISOR: f64 = 2.25;
/// Rows (depths) and columns (move numbers) of the reduction table; deeper nodes
/// and later moves use the last row and column.
pub(crate) const LMR_TABLE_SIZE: usize = 64;
/// Root moves are reduced this many plies less than the table says: the root's
/// move order is the least reliable part of the tree to cut.
pub(crate) const LMR_ROOT_RELIEF: i32 = 1;

/// Quiet moves remembered per node, to be penalised in the history when a later
/// quiet move cuts (further ones are not penalised).
pub(crate) const QUIETS_REMEMBERED: usize = 32;
/// Tactical moves remembered per node, to be penalised in the capture history when
/// a later move cuts.
pub(crate) const TACTICALS_REMEMBERED: usize = 32;

/// Check and singular extensions stop once the line is this many times the root
/// depth.
pub(crate) const EXTENSION_PLY_FACTOR: i32 = 2;

// Singular extensions.
/// Shallowest node that tests its table move for singularity.
pub(crate) const SE_MIN_DEPTH: i32 = 7;
/// The table's lower bound must come from at most this many plies shallower.
pub(crate) const SE_TT_DEPTH_MARGIN: i32 = 3;
/// The other moves must stay this much per ply of depth below the table's value
/// for the table move to count as singular.
pub(crate) const SE_BETA_MARGIN: i32 = 2;

// Correction history (`correction.rs`).
/// Entries per side to move (pawn structures hash into them).
pub(crate) const CORRECTION_SIZE: usize = 16384;
/// Corrections are kept in 1/this internal units, so that small steps add up.
pub(crate) const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, internal units (a quarter pawn and a little more).
pub(crate) const CORRECTION_MAX: i32 = 64;
/// A measurement's weight is its depth plus one, at most this (of 256).
pub(crate) const CORRECTION_MAX_WEIGHT: i32 = 16;

// Pruning on the depth a move would be searched at after its reduction.
/// Quiet moves whose exchange on their square loses more than this times the
/// squared reduced depth are skipped ...
pub(crate) const QUIET_SEE_MARGIN: i32 = 40;
/// ... at reduced depths up to this.
pub(crate) const QUIET_SEE_MAX_DEPTH: i32 = 8;

// Singular extensions beyond one ply.
/// A table move this far below the singular bound (and no PV node) is
/// extended two plies ...
pub(crate) const SE_DOUBLE_MARGIN: i32 = 40;
/// ... at most this many times on one line.
pub(crate) const SE_DOUBLE_MAX: u8 = 6;

// Quiescence.
/// In check, quiet evasions searched once one evasion escaped mate.
pub(crate) const QS_QUIET_EVASIONS: u32 = 2;
/// Plies after which only recaptures are searched.
pub(crate) const RECAPTURES_FROM: u32 = 4;
/// Delta pruning: a capture is skipped when even the victim's value plus this
/// cannot lift the stand-pat value to alpha.
pub(crate) const DELTA_MARGIN: i32 = 200;

// Aspiration windows.
/// Lazy SMP: odd helper threads start at this depth (even ones at 1), so that the
/// threads spread over depths instead of searching the same tree in step.
pub(crate) const HELPER_ODD_START_DEPTH: i32 = 2;
/// Lazy SMP voting (`vote.rs`): a thread's vote weighs (its score - the lowest
/// thread's score + this) times its completed depth.
pub(crate) const VOTE_SCORE_BASE: i32 = 14;
/// Iterations end this many plies short of `MAX_PLY` (`search::MAX_DEPTH`), so
/// that check extensions and quiescence below the last iteration still fit.
pub(crate) const MAX_DEPTH_MARGIN: u32 = 4;

/// Shallowest iteration searched with a window around the last value.
pub(crate) const ASPIRATION_MIN_DEPTH: i32 = 4;
/// First half-width.
pub(crate) const ASPIRATION_DELTA: i32 = 30;
/// After a fail, delta grows by delta / 2 + this ...
pub(crate) const ASPIRATION_GROWTH: i32 = 10;
/// ... and past this the window is opened fully.
pub(crate) const ASPIRATION_FULL_WINDOW: i32 = 1000;

// Time management.
/// Moves assumed left when the GUI does not say (with an increment).
pub(crate) const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The same without increment (sudden death).
pub(crate) const SUDDEN_DEATH_MOVES_TO_GO: u32 = 50;
/// Kept back on every move on top of the move overhead, milliseconds.
pub(crate) const SAFETY_MS: u64 = 5;
/// Optimum time scale by how many iterations in a row kept the best move
/// (0, 1, 2, 3, 4 or more): a stable best move needs less time.
pub(crate) const STABILITY_SCALE: [f64; 5] = [1.6, 1.2, 0.95, 0.85, 0.75];
/// Optimum time scale by the best move's share of the root's nodes:
/// `(NODE_SHARE_BASE - share) * NODE_SHARE_SCALE`, from 2.0 (no share) to 0.68 (all).
pub(crate) const NODE_SHARE_BASE: f64 = 1.5;
/// See [`NODE_SHARE_BASE`].
pub(crate) const NODE_SHARE_SCALE: f64 = 1.35;
/// Optimum time scale per internal unit the score fell since the last iteration
/// (a pawn's fall, 208 units, adds about half the optimum) ...
pub(crate) const EVAL_FALL_PER_UNIT: f64 = 1.0 / 400.0;
/// ... never below this (a rising score) ...
pub(crate) const EVAL_FALL_MIN: f64 = 0.85;
/// ... nor above this.
pub(crate) const EVAL_FALL_MAX: f64 = 1.5;
/// The three scales' product is at most this: the old time manager's largest
/// stability scale. Uncapped (up to 4.8), an unsettled opening move took several
/// optimums and the clock ran low in long games (docs/RESULTS.md, "Where the clock
/// went"); the cap keeps what each scale says below it.
pub(crate) const SOFT_SCALE_MAX: f64 = 1.3;
/// With one move to the time control, the optimum is this share of the time left
/// (numerator, denominator) ...
pub(crate) const LAST_MOVE_OPTIMUM: (u32, u32) = (6, 10);
/// ... and the maximum this share: the rest covers the GUI's latency.
pub(crate) const LAST_MOVE_MAXIMUM: (u32, u32) = (8, 10);
/// Share of the increment spent on every move on top of the time left's share.
pub(crate) const INCREMENT_SHARE: (u32, u32) = (3, 4);
/// The optimum is at most the time left divided by this.
pub(crate) const OPTIMUM_LEFT_DIVISOR: u32 = 2;
/// The maximum is at most this many optimums ...
pub(crate) const MAXIMUM_OPTIMUMS: u32 = 4;
/// ... and at most this share of the time left (never less than the optimum).
pub(crate) const MAXIMUM_SHARE: (u32, u32) = (6, 10);
/// How often a `go infinite` or pondering search that has finished its iterations
/// looks for `stop` or `ponderhit`, in milliseconds.
pub(crate) const RELEASE_POLL_MS: u64 = 1;
/// Nodes between two publications of a thread's node count (and, on the main
/// thread, two checks of the stop flag, the node limit and the clock); a power of
/// two, so the check is a mask.
pub(crate) const NODES_BETWEEN_CHECKS: u64 = 1024;

// History (move ordering).
/// History values stay within +-HISTORY_MAX (the gravity formula keeps them there).
pub(crate) const HISTORY_MAX: i32 = 16384;
/// A cutoff at depth d is worth d * d, at most this much.
pub(crate) const HISTORY_BONUS_MAX: i32 = 400;
/// The bonus is scaled up by this before it enters the table ...
pub(crate) const HISTORY_BONUS_SCALE: i32 = 32;
/// ... and an entry loses entry * |bonus| / this on each update (gravity: the
/// closer to the bound, the smaller the step).
pub(crate) const HISTORY_GRAVITY_DIVISOR: i32 = 512;

// Transposition table replacement.
/// A non-exact result does not replace one of the same position and search that
/// is more than this many plies deeper.
pub(crate) const TT_KEEP_DEPTH_MARGIN: i32 = 2;
/// Choosing a victim slot, each search of age costs as many plies of depth.
pub(crate) const TT_AGE_WEIGHT: i32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_ranks_are_the_values_in_whole_pawns() {
        let ranks = Role::ALL.map(piece_rank);
        assert_eq!(ranks, [1, 4, 4, 6, 12, 96]);
        for role in Role::ALL {
            assert_eq!(
                piece_rank(role),
                piece_value(role) / piece_value(Role::Pawn)
            );
        }
    }
}

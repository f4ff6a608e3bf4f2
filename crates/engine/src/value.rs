//! The scale every evaluation and search value is on, shared by the evaluations
//! ([`crate::eval`]) and the search ([`crate::search`]) so that neither has to
//! import the other's constants: internal units (a pawn in the endgame is
//! [`PAWN_VALUE_EG`]), mate values counted in plies from the root, and the clamp
//! that keeps every static evaluation below the mate range.

/// One pawn in the endgame, in internal units (Stockfish's `PawnValueEg`); the NNUE
/// output uses the same scale, and UCI centipawns are `value * 100 / 208`.
pub const PAWN_VALUE_EG: i32 = 208;

/// Deepest ply the search goes (also bounds the mate distance).
pub const MAX_PLY: usize = 128;
/// Value of delivering mate now; mate in n plies is `MATE - n`.
pub const MATE: i32 = 32000;
/// Bigger than any value.
pub const INFINITE: i32 = 32001;
/// Values at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A drawn position (repetition, fifty moves, stalemate, bare kings).
pub const DRAW: i32 = 0;
/// Largest static evaluation: every evaluation is clamped to +-EVAL_MAX, so a young
/// or random net can never produce a mate score, and every value fits the table's
/// 16-bit fields.
pub const EVAL_MAX: i32 = MATE_BOUND - 1;

//! What a feature block is told about one move.
//!
//! The accumulator asks every block two questions per move and perspective: must
//! the accumulator be rebuilt ([`super::FeatureBlock::needs_refresh`]), and if not,
//! which features turned off and on ([`super::FeatureBlock::changed`]). Both take a
//! [`MoveContext`], so composite blocks forward one value instead of four (the
//! answer of `changed` goes to a [`super::FeatureDelta`]).

use shakmaty::{Board, Color};

use super::change::BoardChange;

/// One move seen from one perspective: the boards around it, the pieces it
/// changed, and whose accumulator is being updated.
#[derive(Copy, Clone, Debug)]
pub struct MoveContext<'a> {
    /// The board before the move.
    pub before: &'a Board,
    /// The board after the move.
    pub after: &'a Board,
    /// The pieces the move changed (what turns `before` into `after`).
    pub change: &'a BoardChange,
    /// The side whose features (and accumulator half) are asked about.
    pub perspective: Color,
}

impl<'a> MoveContext<'a> {
    /// The move from `before` to `after`, making `change`, seen by `perspective`.
    pub fn new(
        before: &'a Board,
        after: &'a Board,
        change: &'a BoardChange,
        perspective: Color,
    ) -> MoveContext<'a> {
        MoveContext {
            before,
            after,
            change,
            perspective,
        }
    }
}

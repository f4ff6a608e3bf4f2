//! Move-ordering memory that survives from node to node: killer moves (quiet moves
//! that refuted a sibling at the same ply) and the history table (how often a quiet
//! move by this piece to this square caused a cutoff). Kept per thread and across
//! searches of the same game; `ucinewgame` clears it.

use shakmaty::{Color, Move, Role};

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_GRAVITY_DIVISOR, HISTORY_MAX};
use super::score::MAX_PLY;

/// Killers and history of one search thread.
pub(crate) struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    table: [[i32; 64]; 12],
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            table: [[0; 64]; 12],
        }
    }
}

/// The history row of the moving piece: shakmaty's `Color` casts to Black = 0 and
/// White = 1, so Black's six roles fill rows 0-5 and White's rows 6-11.
#[inline]
fn piece_index(color: Color, m: &Move) -> usize {
    let role = m.role();
    color as usize * 6 + (role as usize - Role::Pawn as usize)
}

impl History {
    /// Forgets everything (new game).
    pub(crate) fn clear(&mut self) {
        *self = History::default();
    }

    /// The two killers at `ply`.
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY + 1)]
    }

    /// Clears the killers of the ply below, so they come from this subtree.
    #[inline]
    pub(crate) fn clear_killers(&mut self, ply: usize) {
        if ply < MAX_PLY + 2 {
            self.killers[ply] = [None; 2];
        }
    }

    /// The history score of a quiet move by `color`.
    #[inline]
    pub(crate) fn score(&self, color: Color, m: &Move) -> i32 {
        self.table[piece_index(color, m)][m.to() as usize]
    }

    /// A quiet move caused a beta cutoff at `depth`: remember it as a killer, reward
    /// it and penalise the quiet moves tried before it.
    pub(crate) fn reward(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        best: &Move,
        tried: &[Move],
    ) {
        let ply = ply.min(MAX_PLY + 1);
        if self.killers[ply][0] != Some(*best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(*best);
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.update(color, best, bonus);
        for m in tried {
            if m != best {
                self.update(color, m, -bonus);
            }
        }
    }

    #[inline]
    fn update(&mut self, color: Color, m: &Move, bonus: i32) {
        let entry = &mut self.table[piece_index(color, m)][m.to() as usize];
        // Gravity: the closer to the bound, the smaller the step.
        *entry += HISTORY_BONUS_SCALE * bonus - *entry * bonus.abs() / HISTORY_GRAVITY_DIVISOR;
        *entry = (*entry).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

//! The trait every feature block implements.

use shakmaty::{Board, Color};
use std::fmt::Debug;

use super::context::MoveContext;
use super::delta::FeatureDelta;

/// A block of binary input features, defined per perspective.
///
/// Feature indices are `u32` in `0..size()`. Every method *appends* to the output
/// vectors, so composite blocks can offset just the part a child wrote.
pub trait FeatureBlock: Send + Sync + Debug {
    /// Canonical spec text of the block (what [`super::FeatureSet::parse`] accepts).
    fn name(&self) -> String;

    /// Number of features per perspective.
    fn size(&self) -> usize;

    /// The most features [`Self::active`] can append for any position (at most 32
    /// pieces), so callers can size sparse batches and buffers once.
    fn max_active(&self) -> usize;

    /// The most entries [`Self::active`] has in the output at once, intermediate
    /// ones included (products stage their factors there): a buffer with this much
    /// spare room never reallocates.
    fn peak_active(&self) -> usize {
        self.max_active()
    }

    /// Appends the active features of `board` from `perspective`'s view, each once.
    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>);

    /// Whether the accumulator of `mv.perspective` must be rebuilt from scratch
    /// rather than updated after `mv.change` (e.g. HalfKP when the own king moved).
    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        let _ = mv;
        false
    }

    /// Appends the features that turned off (`delta.removed`) and on
    /// (`delta.added`) from `mv.before` to `mv.after`. Only called when
    /// [`Self::needs_refresh`] is false.
    ///
    /// The default diffs the two active lists: always right, and cheap enough for
    /// blocks whose features depend on more than the moved pieces (lines, pairs,
    /// mobility). Blocks whose features are the pieces themselves override it.
    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let mut old = Vec::with_capacity(64);
        let mut new = Vec::with_capacity(64);
        self.active(mv.before, mv.perspective, &mut old);
        self.active(mv.after, mv.perspective, &mut new);
        diff_sorted(&mut old, &mut new, &mut delta.removed, &mut delta.added);
    }
}

/// Appends `old \ new` to `removed` and `new \ old` to `added` (both sorted first).
pub fn diff_sorted(old: &mut [u32], new: &mut [u32], removed: &mut Vec<u32>, added: &mut Vec<u32>) {
    old.sort_unstable();
    new.sort_unstable();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(&a), Some(&b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(&a), Some(&b)) if a < b => {
                removed.push(a);
                i += 1;
            }
            (Some(_), Some(&b)) => {
                added.push(b);
                j += 1;
            }
            (Some(&a), None) => {
                removed.push(a);
                i += 1;
            }
            (None, Some(&b)) => {
                added.push(b);
                j += 1;
            }
            (None, None) => break,
        }
    }
}

/// Most pieces on a legal board: the bound of one-feature-per-piece blocks.
pub const MAX_PIECES: usize = 32;

/// Largest block that uses [`SeenSet`] (PH and PV, 1152 features).
pub(crate) const SEEN_SET_CAPACITY: usize = 1152;

/// A fixed-size "is this feature already listed" set for blocks with set semantics
/// (several pieces can switch on the same feature). It lives on the stack, so
/// feature extraction never allocates.
pub(crate) struct SeenSet {
    bits: [u64; SEEN_SET_CAPACITY / 64],
}

impl SeenSet {
    /// An empty set for a block of `size` features (at most [`SEEN_SET_CAPACITY`]).
    pub(crate) fn new(size: usize) -> SeenSet {
        debug_assert!(size <= SEEN_SET_CAPACITY);
        SeenSet {
            bits: [0; SEEN_SET_CAPACITY / 64],
        }
    }

    /// Pushes `index` to `out` unless it was pushed before.
    pub(crate) fn push(&mut self, index: usize, out: &mut Vec<u32>) {
        if let Some(word) = self.bits.get_mut(index / 64) {
            let bit = 1u64 << (index % 64);
            if *word & bit == 0 {
                *word |= bit;
                out.push(index as u32);
            }
        }
    }
}

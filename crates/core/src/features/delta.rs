//! Where a feature block writes which features a move turned off and on.
//!
//! The two lists always travel together (from the block tree to the accumulator's
//! update kernel), so they are one value.

/// The features a move turned off (`removed`) and on (`added`), for one
/// perspective.
///
/// Blocks *append* to both lists, so composite blocks can offset just the part a
/// child wrote; callers that reuse a delta across moves [`clear`](Self::clear) it
/// first, keeping its capacity so updates do not allocate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureDelta {
    /// Features active before the move and not after it.
    pub removed: Vec<u32>,
    /// Features active after the move and not before it.
    pub added: Vec<u32>,
}

impl FeatureDelta {
    /// An empty delta with room for `capacity` entries in each list.
    pub fn with_capacity(capacity: usize) -> FeatureDelta {
        FeatureDelta {
            removed: Vec::with_capacity(capacity),
            added: Vec::with_capacity(capacity),
        }
    }

    /// Empties both lists, keeping their capacity.
    pub fn clear(&mut self) {
        self.removed.clear();
        self.added.clear();
    }

    /// Whether the move changed no feature.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

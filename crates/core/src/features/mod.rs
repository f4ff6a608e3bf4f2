//! Feature sets: which inputs of the network are on for a position.
//!
//! A [`FeatureSet`] is built from its name (grammar in [`spec`]) and gives, for a
//! board and a perspective, the active feature indices; for a move (as a
//! [`BoardChange`]), the features that turn off and on; and whether the accumulator
//! must instead be refreshed. Blocks and their exact index formulas:
//!
//! | name | size | module |
//! |---|---|---|
//! | `HalfKP` | 41024 | [`halfkp`] (Stockfish 12, rotated `sq ^ 63`) |
//! | `All` | 768 | [`all`] |
//! | `K` | 64 | [`king`] |
//! | `King-All` (= `K*All`) | 49152 | [`algebra`] |
//! | `H`, `V` | 96 | [`lines`] |
//! | `D1`, `D2` | 180 | [`lines`] |
//! | `PH`, `PV` | 1152 | [`pairs`] |
//! | `MB` | 768 | [`mobility`] (thesis definition) |
//! | `MC` | 206 | [`mobility`] (thesis definition) |
//! | `MBp` | 768 | [`mobility`] (per-piece pseudo-legal; `MB` before) |
//! | `MCp` | 160 | [`mobility`] (per-piece pseudo-legal; `MC` before) |
//! | `T` | 9216 | [`threats`] |
//! | `KAm4`, `KAm8` | 3072, 6144 | [`buckets`] (mirrored, king-bucketed All) |
//! | `HalfKAv2_hm` | 22528 | [`halfka_v2_hm`] (Stockfish 15.1) |
//!
//! `docs/FEATURES.md` lists every block with its orientation and update cost.

pub mod algebra;
pub mod all;
pub mod block;
pub mod buckets;
pub mod change;
pub mod context;
pub mod delta;
pub mod halfka_v2_hm;
pub mod halfkp;
pub mod king;
pub mod lines;
pub mod mobility;
pub mod orient;
pub mod pairs;
pub mod spec;
pub mod threats;

use shakmaty::{Board, Color};

pub use block::FeatureBlock;
pub use change::{BoardChange, DirtyPiece};
pub use context::MoveContext;
pub use delta::FeatureDelta;
pub use orient::perspective_index;
pub use spec::FeatureSetError;

/// A parsed feature set: the block tree plus its canonical name and size.
#[derive(Debug)]
pub struct FeatureSet {
    name: String,
    size: usize,
    max_active: usize,
    root: Box<dyn FeatureBlock>,
}

impl FeatureSet {
    /// Builds the feature set named `spec` (e.g. `"HalfKP"`, `"All+H+V"`, `"K*All"`).
    ///
    /// ```
    /// let set = nnue_core::features::FeatureSet::parse("All+H+V").unwrap();
    /// assert_eq!(set.size(), 768 + 96 + 96);
    /// assert_eq!(set.name(), "All+H+V");
    /// ```
    pub fn parse(spec: &str) -> Result<FeatureSet, FeatureSetError> {
        let root = spec::parse(spec)?;
        Ok(FeatureSet {
            name: root.name(),
            size: root.size(),
            max_active: root.max_active(),
            root,
        })
    }

    /// Canonical name (whitespace removed, redundant parentheses dropped).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of features per perspective.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The most features one perspective can have active (for sizing buffers).
    pub fn max_active(&self) -> usize {
        self.max_active
    }

    /// Room a buffer needs so that [`Self::active`] never reallocates: products
    /// write their factors' features before replacing them with the pairs.
    pub fn buffer_capacity(&self) -> usize {
        self.root.peak_active()
    }

    /// Both perspectives' active features, side to move (`turn`) first, the way
    /// the transformed input orders them. The buffers are cleared first; with
    /// [`Self::buffer_capacity`] room they never reallocate.
    pub fn active_both(&self, board: &Board, turn: Color, stm: &mut Vec<u32>, nstm: &mut Vec<u32>) {
        stm.clear();
        nstm.clear();
        self.root.active(board, turn, stm);
        self.root.active(board, !turn, nstm);
    }

    /// Appends the active features of `board` for `perspective` to `out`.
    pub fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        self.root.active(board, perspective, out);
    }

    /// The active features of `board` for `perspective`, sorted.
    pub fn active_sorted(&self, board: &Board, perspective: Color) -> Vec<u32> {
        let mut out = Vec::with_capacity(64);
        self.active(board, perspective, &mut out);
        out.sort_unstable();
        out
    }

    /// Whether `mv.perspective`'s accumulator must be rebuilt after the move.
    pub fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        self.root.needs_refresh(mv)
    }

    /// Appends to `delta` the features that turn off and on with the move (when
    /// no refresh is needed).
    pub fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        self.root.changed(mv, delta);
    }
}

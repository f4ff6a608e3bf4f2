//! The shape of a HalfKAv2_hm net and the hashes Stockfish 15.1 derives from it
//! (`nnue_architecture.h`, `nnue_feature_transformer.h`, `layers/*.h`).
//!
//! Only the transformer width varies here: 15.1 itself is 1024 wide; a trainer may
//! write narrower nets of the same layout (15.1 refuses them, as their hashes say).

use crate::features::halfka_v2_hm::HALFKA_SIZE;

/// The `.nnue` version word 15.1 reads (the same as Stockfish 12's).
pub const VERSION: u32 = 0x7AF3_2F20;
/// PSQT buckets and layer stacks, both chosen by `(pieces - 1) / 4`.
pub const STACKS: usize = 8;
/// First hidden layer outputs fed on (15.1's `FC_0_OUTPUTS`); one more output,
/// the 16th, is the skip connection straight to the result.
pub const L1: usize = 15;
/// Second hidden layer outputs (15.1's `FC_1_OUTPUTS`).
pub const L2: usize = 32;
/// Raw output per internal unit (15.1's `OutputScale`).
pub const OUTPUT_SCALE: i32 = 16;
/// Fixed-point bits of the hidden layers' weights (15.1's `WeightScaleBits`).
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// Stockfish 15.1's transformer width (`TransformedFeatureDimensions`).
pub const SF15_1_WIDTH: usize = 1024;
/// Widths are multiples of this, so each half of an accumulator is a whole
/// number of 32-byte steps of the transformer's output.
pub const WIDTH_MULTIPLE: usize = 64;
/// Rows of the affine layers are padded to this many inputs (`MaxSimdWidth`).
pub const PADDING: usize = 32;

/// 15.1's feature set hash (`HalfKAv2_hm::HashValue`).
const FEATURE_HASH: u32 = 0x7f23_4cb8;
/// The seed of the layer-stack hash chain (`Network::get_hash_value`).
const STACK_SEED: u32 = 0xEC42_E90D;
/// Every affine layer's hash constant.
const AFFINE_HASH: u32 = 0xCC03_DAE4;
/// Every clipped ReLU's hash constant.
const RELU_HASH: u32 = 0x538D_24C7;

/// Rounds `n` up to a multiple of [`PADDING`].
pub const fn padded(n: usize) -> usize {
    n.div_ceil(PADDING) * PADDING
}

/// A HalfKAv2_hm net's sizes: transformer width `width` (per perspective), then
/// `width -> L1 + 1 -> L2 -> 1` per stack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Accumulator width per perspective (15.1: 1024); a multiple of [`WIDTH_MULTIPLE`].
    pub width: usize,
}

impl Shape {
    /// Stockfish 15.1's shape.
    pub const SF15_1: Shape = Shape {
        width: SF15_1_WIDTH,
    };

    /// Features per perspective.
    pub const fn features(self) -> usize {
        HALFKA_SIZE
    }

    /// The transformer's hash (`FeatureTransformer::get_hash_value`).
    pub const fn transformer_hash(self) -> u32 {
        FEATURE_HASH ^ (self.width as u32 * 2)
    }

    /// One affine layer's link in the chain (`AffineTransform::get_hash_value`).
    const fn affine(prev: u32, outputs: usize) -> u32 {
        let mut hash = AFFINE_HASH.wrapping_add(outputs as u32);
        hash ^= prev >> 1;
        hash ^= prev << 31;
        hash
    }

    /// One clipped ReLU's link in the chain (`ClippedReLU::get_hash_value`).
    const fn relu(prev: u32) -> u32 {
        RELU_HASH.wrapping_add(prev)
    }

    /// Each layer stack's hash (`Network::get_hash_value`).
    pub const fn stack_hash(self) -> u32 {
        let mut hash = STACK_SEED ^ (self.width as u32 * 2);
        hash = Self::affine(hash, L1 + 1);
        hash = Self::relu(hash);
        hash = Self::affine(hash, L2);
        hash = Self::relu(hash);
        Self::affine(hash, 1)
    }

    /// The file's hash (15.1's `HashValue`).
    pub const fn file_hash(self) -> u32 {
        self.transformer_hash() ^ self.stack_hash()
    }

    /// Bytes of the parameters after the description: the transformer's hash,
    /// biases, weights and PSQT weights, then each stack's hash and layers.
    pub const fn body_len(self) -> usize {
        let f = self.features();
        let transformer = 4 + 2 * self.width + 2 * self.width * f + 4 * STACKS * f;
        transformer + STACKS * self.stack_len()
    }

    /// Bytes of one layer stack, its hash included.
    pub const fn stack_len(self) -> usize {
        let fc0 = 4 * (L1 + 1) + (L1 + 1) * padded(self.width);
        let fc1 = 4 * L2 + L2 * padded(2 * L1);
        let fc2 = 4 + padded(L2);
        4 + fc0 + fc1 + fc2
    }

    /// The shape whose body is `len` bytes long, if a valid width gives exactly that.
    pub fn from_body_len(len: usize) -> Option<Shape> {
        // body_len is affine in the width: (2 + 2f + 8 * (L1 + 1)) per unit of width.
        let f = HALFKA_SIZE;
        let per_width = 2 + 2 * f + STACKS * (L1 + 1);
        let fixed = Shape { width: 0 }.body_len();
        let rest = len.checked_sub(fixed)?;
        let width = rest / per_width;
        let shape = Shape { width };
        (width > 0 && width.is_multiple_of(WIDTH_MULTIPLE) && shape.body_len() == len)
            .then_some(shape)
    }

    /// The layer stack (and PSQT bucket) for a position with `pieces` pieces.
    pub fn stack_of(pieces: usize) -> usize {
        (pieces.saturating_sub(1) / 4).min(STACKS - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash stored in Stockfish 15.1's default net `nn-ad9b42354671.nnue`
    /// (bytes 4..8: `f2 2e 10 1c`) and its size, 47,001,499 bytes with a
    /// 75-byte description, as `export_net` writes them.
    #[test]
    fn sf15_1_hashes_and_size() {
        assert_eq!(Shape::SF15_1.file_hash(), 0x1C10_2EF2);
        assert_eq!(Shape::SF15_1.transformer_hash(), 0x7F23_44B8);
        assert_eq!(12 + 75 + Shape::SF15_1.body_len(), 47_001_499);
        assert_eq!(
            Shape::from_body_len(Shape::SF15_1.body_len()),
            Some(Shape::SF15_1)
        );
        let small = Shape { width: 256 };
        assert_eq!(Shape::from_body_len(small.body_len()), Some(small));
        assert_eq!(Shape::from_body_len(small.body_len() + 1), None);
    }

    #[test]
    fn stacks_by_piece_count() {
        assert_eq!(Shape::stack_of(2), 0);
        assert_eq!(Shape::stack_of(4), 0);
        assert_eq!(Shape::stack_of(5), 1);
        assert_eq!(Shape::stack_of(32), 7);
    }
}

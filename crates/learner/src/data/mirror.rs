//! `--mirror` augmentation: a training position mirrored left to right (file a
//! <-> h for every piece, kings included) has the same value, result and side to
//! move, since chess is symmetric under that mirror except for castling rights,
//! which no feature set encodes. Every second position, on average, is mirrored.
//!
//! Whether a draw is mirrored is a pure function of the seed and its draw number
//! (as random skipping), so runs are reproducible, independent of the thread
//! count, and resume exactly.

use std::borrow::Cow;

use shakmaty::Board;

use super::filter::draw_hash;

/// Offsets the seed so mirroring draws from another stream than random skipping.
const MIRROR_STREAM: u64 = 0x4D49_5252_4F52_0001;

/// Whether draw number `draw` of a run seeded `seed` is mirrored (probability ½).
pub fn mirrors(seed: u64, draw: u64) -> bool {
    draw_hash(seed.wrapping_add(MIRROR_STREAM), draw) >> 63 == 1
}

/// `board`, mirrored left to right when `mirror` is set.
pub fn oriented(board: &Board, mirror: bool) -> Cow<'_, Board> {
    if mirror {
        let mut flipped = board.clone();
        flipped.flip_horizontal();
        Cow::Owned(flipped)
    } else {
        Cow::Borrowed(board)
    }
}

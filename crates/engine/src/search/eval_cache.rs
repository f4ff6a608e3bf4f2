//! An evaluation cache per search thread (`--use-eval-hash` of the generator, the
//! "eval hash" of the original NNUE generator): static evaluations by Zobrist key,
//! so a position reached again (transpositions, re-searches, the next move's
//! search) is not evaluated again even after its table entry was replaced.
//!
//! One `u64` per slot: the key's upper 48 bits and the value's 16 bits, so a
//! slot is written and read whole. Direct-mapped, always replace.

use super::score::EVAL_MAX;

const VALUE_BITS: u32 = 16;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;

/// The cache of one thread.
pub(crate) struct EvalCache {
    slots: Vec<u64>,
    mask: u64,
}

impl EvalCache {
    /// A cache of the largest power of two of slots in `mb` MiB (at least one slot).
    pub(crate) fn new(mb: usize) -> EvalCache {
        let wanted = ((mb << 20) / size_of::<u64>()).max(1);
        let size = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        EvalCache {
            slots: vec![0; size],
            mask: size as u64 - 1,
        }
    }

    /// The cached value of `key`.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<i32> {
        let slot = self.slots[(key & self.mask) as usize];
        (slot != 0 && slot & !VALUE_MASK == key & !VALUE_MASK)
            .then_some((slot & VALUE_MASK) as u16 as i16 as i32)
    }

    /// Caches `value` (within +-[`EVAL_MAX`], so it fits 16 bits) for `key`.
    #[inline]
    pub(crate) fn store(&mut self, key: u64, value: i32) {
        debug_assert!(value.abs() <= EVAL_MAX);
        self.slots[(key & self.mask) as usize] = (key & !VALUE_MASK) | (value as i16 as u16 as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_replaces() {
        let mut c = EvalCache::new(1);
        let k = 0x1234_5678_9ABC_0000u64 | 5;
        assert_eq!(c.probe(k), None);
        c.store(k, -321);
        assert_eq!(c.probe(k), Some(-321));
        assert_eq!(c.probe(k ^ (1 << 40)), None);
        c.store(k ^ (1 << 40), 7);
        assert_eq!(c.probe(k), None);
    }
}

//! The duplicate-position filter of Stockfish's generator: a table of Zobrist keys
//! indexed by the key's low bits, shared by all workers without locks. A position
//! whose key is already in its slot is not written again; otherwise its key
//! replaces the slot's. Exact key equality only, so it never drops a position by
//! mistake (barring 64-bit collisions), but may let a duplicate through.

use std::sync::atomic::{AtomicU64, Ordering};

/// The filter (`--dedup-mib`, 0 = off).
pub struct Dedup {
    slots: Vec<AtomicU64>,
    mask: u64,
}

impl Dedup {
    /// A table of the largest power of two of keys fitting in `mib` MiB.
    pub fn new(mib: usize) -> Dedup {
        let keys = (mib << 20) / size_of::<u64>();
        if keys == 0 {
            return Dedup {
                slots: Vec::new(),
                mask: 0,
            };
        }
        let size = 1usize << (usize::BITS - 1 - keys.leading_zeros());
        Dedup {
            slots: (0..size).map(|_| AtomicU64::new(0)).collect(),
            mask: size as u64 - 1,
        }
    }

    /// Whether `key` was seen before (and records it if not).
    pub fn seen(&self, key: u64) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let slot = &self.slots[(key & self.mask) as usize];
        if slot.load(Ordering::Relaxed) == key {
            return true;
        }
        slot.store(key, Ordering::Relaxed);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_keys_until_replaced() {
        let d = Dedup::new(1);
        assert_eq!(d.slots.len(), 131072);
        assert!(!d.seen(5));
        assert!(d.seen(5));
        assert!(!d.seen(5 + 131072)); // same slot, different key: replaces
        assert!(!d.seen(5));
        let off = Dedup::new(0);
        assert!(!off.seen(5) && !off.seen(5));
    }
}

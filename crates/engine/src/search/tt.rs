//! The transposition table: one table shared by all search threads, without locks.
//!
//! Each slot is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts
//! a slot only if `stored_key ^ data == key`, so a slot torn by two threads writing
//! at once reads as a miss instead of as wrong data (the classic XOR trick). Slots
//! are grouped in buckets of four that share a cache line; the replacement policy
//! keeps deep entries from the current search and evicts old or shallow ones.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use shakmaty::{Move, Role};

use super::error::HashError;
use super::score::Bound;

const BUCKET: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [[AtomicU64; 2]; BUCKET],
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best move in the [`encode_move`] form (0: none).
    pub mv: u16,
    /// Search value, mate scores relative to the node (see `score::to_tt`).
    pub value: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket). Panics only if even that
    /// cannot be allocated; use [`TranspositionTable::try_new`] for user sizes.
    pub fn new(mb: usize) -> TranspositionTable {
        match Self::try_new(mb) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` MiB, or an error if the memory is not available (a
    /// `Hash` value larger than the machine must not abort the engine).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashError> {
        let count = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|source| HashError::Alloc { mb, source })?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.slots {
                s[0].store(0, Ordering::Relaxed);
                s[1].store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to fetch the bucket of `key` (called as soon as a child's key is
    /// known, before it is searched).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: prefetching any address is harmless; this one is in the table.
            std::arch::x86_64::_mm_prefetch(
                self.bucket(key) as *const Bucket as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. Replaces the same key, else an empty slot, else the least
    /// valuable one (old generation first, then shallow).
    pub fn store(&self, key: u64, mv: u16, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if data != 0 && check ^ data == key {
                    let old = unpack(data);
                    // Keep a deeper exact result of the same position, and its move.
                    if bound != Bound::Exact && old.depth > depth + 2 && gen_of(data) == generation
                    {
                        return;
                    }
                    if mv == 0 && old.mv != 0 {
                        let data = pack(old.mv, value, eval, depth, bound, generation);
                        slot[1].store(data, Ordering::Relaxed);
                        slot[0].store(key ^ data, Ordering::Relaxed);
                        return;
                    }
                }
                break;
            }
            let age = (generation.wrapping_sub(gen_of(data)) & 63) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let data = pack(mv, value, eval, depth, bound, generation);
        let slot = &bucket.slots[victim];
        slot[1].store(data, Ordering::Relaxed);
        slot[0].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first 1000 slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let mut used = 0u32;
        let mut seen = 0u32;
        'outer: for b in &self.buckets {
            for s in &b.slots {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let data = s[1].load(Ordering::Relaxed);
                if data != 0 && gen_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

// Layout of the data word: move 16 | value 16 | eval 16 | depth 8 | bound 2 | gen 6.
fn pack(mv: u16, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(-1, 254) + 1) as u64) << 48)
        | (b << 56)
        | ((generation as u64 & 63) << 58)
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: data as u16,
        value: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - 1,
        bound: match (data >> 56) & 3 {
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

fn gen_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

/// A move in 16 bits: origin, destination (the rook's square for castling, so every
/// legal move has a distinct code) and promotion role.
#[inline]
pub fn encode_move(m: &Move) -> u16 {
    let (from, to, promo) = match *m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        Move::Put { to, .. } => (to, to, None),
    };
    let p = match promo {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    // Never 0 for a real move: from != to, so the low 12 bits are not all zero
    // unless from = to = a1, which no move has.
    (u16::from(from) & 63) | ((u16::from(to) & 63) << 6) | (p << 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF_1234_5678, 0x123, -31000, 45, 12, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            e,
            TtEntry {
                mv: 0x123,
                value: -31000,
                eval: 45,
                depth: 12,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5679), None);
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678), None);
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                1,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 900);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}

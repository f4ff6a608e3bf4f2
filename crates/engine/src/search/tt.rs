//! The transposition table: one table shared by all search threads, without locks.
//!
//! Each slot is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts
//! a slot only if `stored_key ^ data == key`, so a slot torn by two threads writing
//! at once reads as a miss instead of as wrong data (the classic XOR trick). Slots
//! are grouped in buckets of four that share a cache line; the replacement policy
//! keeps deep entries from the current search and evicts old or shallow ones.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use shakmaty::{Chess, Move, Position, Role, Square};

use super::error::HashError;
use super::params::{TT_AGE_WEIGHT, TT_KEEP_DEPTH_MARGIN};
use super::score::Bound;
use super::tt_memory::ZeroedTable;

/// Slots per bucket: four 16-byte slots fill one 64-byte cache line.
const BUCKET: usize = 4;

/// All-zero is an empty bucket: the table's memory starts zeroed (`ZeroedTable`).
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
    buckets: ZeroedTable<Bucket>,
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
        let count = ((mb.max(1) << 20) / size_of::<Bucket>()).max(1);
        let buckets = ZeroedTable::new(count).map_err(|source| HashError::Map { mb, source })?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for b in self.buckets.as_slice() {
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
        self.generation
            .store((g + 1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.buckets.as_slice();
        let i = ((key as u128 * buckets.len() as u128) >> 64) as usize;
        &buckets[i]
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
                    if bound != Bound::Exact
                        && old.depth > depth + TT_KEEP_DEPTH_MARGIN
                        && gen_of(data) == generation
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
            let age = (generation.wrapping_sub(gen_of(data)) & GENERATION_MASK) as i32;
            let worth = unpack(data).depth - TT_AGE_WEIGHT * age;
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
        'outer: for b in self.buckets.as_slice() {
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

// Layout of the data word, from the lowest bit:
// move 16 | value 16 | eval 16 | depth 8 | bound 2 | generation 6.
/// Bits of the move code ([`encode_move`]).
const MOVE_WIDTH: u32 = 16;
/// Bits of the value and of the static evaluation (two's complement; every
/// value the search stores fits, see `EVAL_MAX` and `MATE`).
const VALUE_WIDTH: u32 = 16;
/// Bits of the depth, stored plus [`DEPTH_OFFSET`].
const DEPTH_WIDTH: u32 = 8;
/// Bits of the bound.
const BOUND_WIDTH: u32 = 2;
/// Bits of the search generation.
const GENERATION_WIDTH: u32 = 6;

const VALUE_SHIFT: u32 = MOVE_WIDTH;
const EVAL_SHIFT: u32 = VALUE_SHIFT + VALUE_WIDTH;
const DEPTH_SHIFT: u32 = EVAL_SHIFT + VALUE_WIDTH;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + DEPTH_WIDTH;
const GENERATION_SHIFT: u32 = BOUND_SHIFT + BOUND_WIDTH;
const _: () = assert!(GENERATION_SHIFT + GENERATION_WIDTH == u64::BITS);

const DEPTH_MASK: u64 = (1 << DEPTH_WIDTH) - 1;
const BOUND_MASK: u64 = (1 << BOUND_WIDTH) - 1;
/// Generations count modulo 64: the age of an entry is taken with this mask.
const GENERATION_MASK: u8 = (1 << GENERATION_WIDTH) - 1;
/// Quiescence stores depth 0 and some nodes -1 (`depth - 1` at a leaf): stored
/// depths are shifted up by this so they are never negative.
const DEPTH_OFFSET: i32 = 1;
/// The deepest depth stored (deeper ones are stored as this).
const DEPTH_STORED_MAX: i32 = DEPTH_MASK as i32 - DEPTH_OFFSET;

/// The bound's code. Never 0, so that a stored word is never 0 (an empty slot).
const BOUND_EXACT: u64 = 1;
const BOUND_LOWER: u64 = 2;
const BOUND_UPPER: u64 = 3;

fn pack(mv: u16, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b = match bound {
        Bound::Exact => BOUND_EXACT,
        Bound::Lower => BOUND_LOWER,
        Bound::Upper => BOUND_UPPER,
    };
    let depth = (depth.clamp(-DEPTH_OFFSET, DEPTH_STORED_MAX) + DEPTH_OFFSET) as u64;
    (mv as u64)
        | ((value as i16 as u16 as u64) << VALUE_SHIFT)
        | ((eval as i16 as u16 as u64) << EVAL_SHIFT)
        | (depth << DEPTH_SHIFT)
        | (b << BOUND_SHIFT)
        | (u64::from(generation & GENERATION_MASK) << GENERATION_SHIFT)
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: data as u16,
        value: (data >> VALUE_SHIFT) as u16 as i16 as i32,
        eval: (data >> EVAL_SHIFT) as u16 as i16 as i32,
        depth: ((data >> DEPTH_SHIFT) & DEPTH_MASK) as i32 - DEPTH_OFFSET,
        bound: match (data >> BOUND_SHIFT) & BOUND_MASK {
            BOUND_LOWER => Bound::Lower,
            BOUND_UPPER => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

fn gen_of(data: u64) -> u8 {
    (data >> GENERATION_SHIFT) as u8 & GENERATION_MASK
}

// Layout of a move code, from the lowest bit: origin 6 | destination 6 | promotion 4.
/// A square's 6 bits.
const SQUARE_MASK: u16 = 63;
/// Where the destination starts.
const TO_SHIFT: u32 = 6;
/// Where the promotion role starts (0 none, 1 knight, 2 bishop, 3 rook, 4 queen).
const PROMOTION_SHIFT: u32 = 12;

/// A move in 16 bits: origin, destination (the rook's square for castling, so every
/// legal move has a distinct code) and promotion role.
#[inline]
pub(crate) fn encode_move(m: &Move) -> u16 {
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
    (u16::from(from) & SQUARE_MASK)
        | ((u16::from(to) & SQUARE_MASK) << TO_SHIFT)
        | (p << PROMOTION_SHIFT)
}

/// The quiet move `code` ([`encode_move`]) stands for in `pos`, when it is one: a
/// piece of the side to move going to an empty square, neither a promotion nor
/// castling nor a pawn's diagonal step. For the histories of a table cutoff,
/// which need the moving piece; a move from another position (a key collision)
/// only misplaces a bonus.
pub(crate) fn decode_quiet(pos: &Chess, code: u16) -> Option<Move> {
    if code == 0 || code >> PROMOTION_SHIFT != 0 {
        return None;
    }
    let from = Square::new(u32::from(code & SQUARE_MASK));
    let to = Square::new(u32::from((code >> TO_SHIFT) & SQUARE_MASK));
    let board = pos.board();
    let piece = board.piece_at(from)?;
    if piece.color != pos.turn() || board.piece_at(to).is_some() {
        return None;
    }
    let sideways = from.file().distance(to.file());
    let castling = piece.role == Role::King && sideways > 1;
    let pawn_capture_shape = piece.role == Role::Pawn && sideways != 0;
    (!castling && !pawn_capture_shape).then_some(Move::Normal {
        role: piece.role,
        from,
        capture: None,
        to,
        promotion: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_moves_decode_and_others_do_not() {
        use shakmaty::fen::Fen;
        use shakmaty::{CastlingMode, Position};
        let fen: Fen = "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1"
            .parse()
            .unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let mut quiet = 0;
        for m in pos.legal_moves() {
            let decoded = decode_quiet(&pos, encode_move(&m));
            if m.is_capture() || m.is_promotion() || m.is_castle() {
                assert_eq!(decoded, None, "{m}");
            } else {
                assert_eq!(decoded, Some(m), "{m}");
                quiet += 1;
            }
        }
        assert!(quiet > 20);
    }

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

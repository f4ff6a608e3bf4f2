//! Random-game positions: bench input and test data without shipping files.
//!
//! Uniformly random legal moves reach castling, en passant, promotions
//! (pawns drift forward over a long game) and high rule50 counts, which is
//! exactly the variety a decoder must survive. Deterministic per seed.

use nnue_core::packed::{GameResult, PackedSfenValue};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{Chess, Position};

/// Longest random game before starting a new one.
const MAX_GAME_PLIES: u16 = 400;

/// `count` records from random games seeded with `seed`. Each record's move
/// is a random legal move of its position (played next), its score a random
/// value in ±2000 and its result random.
pub fn random_records(seed: u64, count: usize) -> Vec<PackedSfenValue> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut pos = Chess::default();
    let mut ply: u16 = 0;
    while out.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() || ply >= MAX_GAME_PLIES || pos.is_insufficient_material() {
            pos = Chess::default();
            ply = 0;
            continue;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let score = (rng.next_u64() % 4001) as i16 - 2000;
        let result = match rng.next_u64() % 3 {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            _ => GameResult::Win,
        };
        out.push(PackedSfenValue::new(&pos, score, &m, ply, result));
        pos.play_unchecked(m);
        ply += 1;
    }
    out
}

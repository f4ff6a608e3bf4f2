//! One PQR triplet from consecutive records of a game. A record's stored move
//! is taken as the move played when playing it on the record's position gives
//! the next record's position (board and side to move); otherwise the record
//! ends a game, or its stored move was not the one played, and it has no
//! triplet. `r` is drawn from the other legal moves by a hash of the run's
//! seed, the record's index and its draw number: reproducible, and the same
//! whatever the thread count.

use nnue_core::data::{DataError, TrainingRecord};
use nnue_core::nnue::random::splitmix64_finalize;
use shakmaty::{Chess, Move, Position};

use crate::data::PositionSource;

/// Offsets the seed so the random move draws from another stream than random
/// skipping and mirroring.
const RANDOM_MOVE_STREAM: u64 = 0x5051_525F_4D4F_5645;

/// A game position, the position after the move played, and the position
/// after a random other legal move.
#[derive(Clone, Debug)]
pub struct Triplet {
    /// The record of `p` (its score and result feed the report's figures).
    pub p: TrainingRecord,
    pub q: Chess,
    pub r: Chess,
    pub played: Move,
    pub random: Move,
}

/// The salt that picks `r` for record `index` drawn as draw number `draw`.
pub fn salt(seed: u64, index: u64, draw: u64) -> u64 {
    let mixed = splitmix64_finalize(index ^ seed.wrapping_add(RANDOM_MOVE_STREAM));
    splitmix64_finalize(mixed ^ draw.rotate_left(32))
}

/// The triplet of record `index` of `source`, or `None` when the record has no
/// successor in its game or no other legal move. Errors are the records'.
pub fn triplet_at(
    source: &dyn PositionSource,
    index: u64,
    salt: u64,
) -> Result<Option<Triplet>, DataError> {
    if index + 1 >= source.len() {
        return Ok(None);
    }
    let p = source.record(index)?;
    let next = source.record(index + 1)?;
    Ok(triplet_of(p, &next, salt))
}

/// Whether `next` is `p` after its stored move: the played move, if so.
pub fn played_move(p: &TrainingRecord, next: &TrainingRecord) -> Option<(Chess, Move, Chess)> {
    let chess = p.position.to_chess().ok()?;
    let played = p.mv.to_move(&chess).ok()?;
    let q = chess.clone().play(played).ok()?;
    (q.board() == &next.position.board && q.turn() == next.position.turn)
        .then_some((chess, played, q))
}

/// The triplet of `p` followed by `next` (see [`triplet_at`]).
pub fn triplet_of(p: TrainingRecord, next: &TrainingRecord, salt: u64) -> Option<Triplet> {
    let (chess, played, q) = played_move(&p, next)?;
    let others: Vec<Move> = chess
        .legal_moves()
        .into_iter()
        .filter(|m| *m != played)
        .collect();
    if others.is_empty() {
        return None;
    }
    let random = others[(salt % others.len() as u64) as usize];
    let r = chess.play(random).ok()?;
    Some(Triplet {
        p,
        q,
        r,
        played,
        random,
    })
}

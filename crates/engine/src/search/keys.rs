//! The key of a child position from its parent's key, for the moves whose key
//! shakmaty does not update itself.
//!
//! `Position::update_zobrist_hash` gives up (returns `None`) on king moves,
//! castling, en passant, double pawn pushes, moves that touch a castling rook
//! and every move from a position with an en passant square; the key was then
//! hashed again from the whole board, a tenth of the moves made (a quarter in
//! endgames, where the king walks) at about 240 instructions each. Here the
//! parent's key is updated by what the move changed instead: the side to move,
//! the pieces moved, taken and placed, the castling rights lost and the en
//! passant file of each side of the move (as `EnPassantMode::Legal` counts it,
//! which is how [`super::worker::key`] hashes).

use nnue_core::features::change::BoardChange;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Castles, CastlingSide, Chess, Color, EnPassantMode, Move, Position};

/// The key of `child`, the position after `m` in `pos`, whose key is `key`:
/// equal to [`super::worker::key`]`(child)`. The pieces moved, taken and placed
/// come from [`BoardChange::of_move`], the one reading of a move's board change
/// that the evaluators' incremental updates use as well.
pub(super) fn child_key(pos: &Chess, key: u64, m: &Move, child: &Chess) -> u64 {
    if let Move::Put { .. } = m {
        // Not a chess move (crazyhouse drops): hash the child from scratch.
        return super::worker::key(child);
    }
    let mut z = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    for dirty in BoardChange::of_move(pos.board(), pos.turn(), m).pieces() {
        for square in dirty.from.into_iter().chain(dirty.to) {
            z ^= Zobrist64::zobrist_for_piece(square, dirty.piece);
        }
    }
    if pos.castles().castling_rights() != child.castles().castling_rights() {
        z ^= castling(pos.castles()) ^ castling(child.castles());
    }
    z ^= en_passant(pos) ^ en_passant(child);
    z.0
}

/// The castling rights' part of a key.
fn castling(castles: &Castles) -> Zobrist64 {
    let mut z = Zobrist64(0);
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                z ^= Zobrist64::zobrist_for_castling_right(color, side);
            }
        }
    }
    z
}

/// The en passant part of a key (a capturable en passant square's file).
#[inline]
fn en_passant(pos: &Chess) -> Zobrist64 {
    match pos.maybe_ep_square() {
        None => Zobrist64(0),
        Some(_) => pos
            .ep_square(EnPassantMode::Legal)
            .map_or(Zobrist64(0), |sq| {
                Zobrist64::zobrist_for_en_passant_file(sq.file())
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::worker::key;
    use nnue_test_support::position;

    /// Every legal move of every position along pseudo-random games from
    /// positions with castling rights, en passant squares (capturable, and one
    /// that is not because of a pin) and promotions: the updated key is the key
    /// shakmaty hashes from the child's whole board.
    #[test]
    fn child_keys_equal_the_keys_hashed_from_scratch() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
        ] {
            let mut pos = position(fen);
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let parent = key(&pos);
                for m in &moves {
                    let mut child = pos.clone();
                    child.play_unchecked(*m);
                    assert_eq!(
                        child_key(&pos, parent, m, &child),
                        key(&child),
                        "{fen}: {m}"
                    );
                    checked += 1;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }
}

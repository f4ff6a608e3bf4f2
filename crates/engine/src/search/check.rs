//! Whether a move gives check, decided on the board before the move is made: the
//! moved (or promoted) piece attacks the enemy king from its destination, or
//! leaving its origin uncovers a slider of ours aimed at the king. shakmaty's
//! own test plays the move on a copy of the position; the search needs the
//! answer before it decides whether the move is worth making at all.
//!
//! Castling and en passant (rare, and en passant can uncover a line through two
//! squares) take shakmaty's way: play the move on a copy and ask.

use shakmaty::{attacks, Bitboard, Chess, Move, Position};

/// Whether playing the legal move `m` in `pos` checks the opponent's king.
#[inline]
pub(crate) fn gives_check(pos: &Chess, m: &Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let &Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut after = pos.clone();
        after.play_unchecked(*m);
        return after.is_check();
    };
    let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let piece = promotion.unwrap_or(role).of(us);
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    // Discovered: our other sliders, seen from the king through the new occupancy
    // (the moved piece itself was counted above; a capture's victim was theirs).
    let others = board.by_color(us) & !Bitboard::from(from) & !Bitboard::from(to);
    let diagonal = others & (board.bishops() | board.queens());
    let straight = others & (board.rooks() | board.queens());
    (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;

    /// Every legal move of `pos` and of the positions `plies` moves below it:
    /// the board test agrees with playing the move.
    fn agrees_on_every_move(pos: &Chess, plies: u32) {
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            assert_eq!(gives_check(pos, &m), after.is_check(), "{m}");
            if plies > 0 {
                agrees_on_every_move(&after, plies - 1);
            }
        }
    }

    #[test]
    fn agrees_with_playing_the_move() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // Discovered checks, promotions with check, en passant along the rank.
            "4k3/8/8/4N3/8/8/8/4R1K1 w - - 0 1",
            "3k4/1P6/8/8/8/8/8/6K1 w - - 0 1",
            "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
            "7k/8/8/1B6/8/3N4/8/K7 w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            agrees_on_every_move(&position(fen), 2);
        }
    }
}

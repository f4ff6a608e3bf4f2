//! Output buckets by material: a net may hold several output layers (weight
//! rows and biases), and the number of pieces on the board picks the one that
//! evaluates a position, so the net can weigh its features differently in the
//! opening, the middlegame and the endgame at the cost of one row read.
//!
//! With `n` buckets, a position with `p` pieces (kings included) uses bucket
//! `(p − 2) / (32 / n)`, capped at `n − 1`: eight buckets group the positions
//! by four pieces (2–5 pieces bucket 0, …, 30–32 pieces bucket 7).

use shakmaty::Board;

/// Most pieces a position can have; bucket counts divide it.
pub const MAX_PIECES: usize = 32;
/// The two kings, always on the board: the first bucket starts there.
const KINGS: usize = 2;

/// Whether `count` output buckets can split the piece counts evenly (a divisor
/// of [`MAX_PIECES`]: 1, 2, 4, 8, 16 or 32).
pub const fn valid_count(count: usize) -> bool {
    count >= 1 && count <= MAX_PIECES && MAX_PIECES.is_multiple_of(count)
}

/// The bucket of `board` among `count` buckets (a [`valid_count`]; 0 for any
/// other count, so no input can index past the layer).
pub fn material_bucket(board: &Board, count: usize) -> usize {
    if !valid_count(count) {
        return 0;
    }
    let pieces = board.occupied().count();
    let per_bucket = MAX_PIECES / count;
    (pieces.saturating_sub(KINGS) / per_bucket).min(count - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Position};

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position::<shakmaty::Chess>(CastlingMode::Standard)
            .unwrap()
            .board()
            .clone()
    }

    #[test]
    fn eight_buckets_group_by_four_pieces() {
        let start = shakmaty::Chess::default();
        assert_eq!(material_bucket(start.board(), 8), 7);
        assert_eq!(material_bucket(start.board(), 1), 0);
        let kings = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(material_bucket(&kings, 8), 0);
        // Six pieces: (6 - 2) / 4 = 1.
        let six = board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(material_bucket(&six, 8), 1);
        assert_eq!(material_bucket(&six, 3), 0);
    }

    #[test]
    fn only_divisors_of_32_are_counts() {
        let valid: Vec<usize> = (0..=40).filter(|&n| valid_count(n)).collect();
        assert_eq!(valid, [1, 2, 4, 8, 16, 32]);
    }
}

//! HalfKAv2_hm, exactly as Stockfish 15.1 (`nnue/features/half_ka_v2_hm.*`): the own
//! king's bucket × (11 planes of 64 squares), kings included, 32 × 704 = 22528
//! features per perspective.
//!
//! For perspective `P` with its king on `k` (absolute squares, a1 = 0):
//!
//! * orientation: Black's view flips ranks (`sq ^ 56`); when the own king stands on
//!   files a–d every square is also mirrored (`sq ^ 7`), so the king is always on
//!   files e–h ("hm", horizontally mirrored). White: `sq ^ (7 or 0)`; Black:
//!   `sq ^ (63 or 56)`.
//! * plane: `2 * (role - 1) + (piece is the opponent's)` for pawn..queen (own pawn
//!   0, their pawn 1, own knight 2, ..., their queen 9); both kings share plane 10.
//! * bucket: `4 * (7 - relative rank of k) + mirrored file of k` (mirrored file =
//!   `file` on a–d, `7 - file` on e–h), so a king on its first rank is in buckets
//!   28–31: 15.1's `KingBuckets` table.
//!
//! `index = (sq ^ orientation) + 64 * plane + 704 * bucket`. Every king move of
//! the perspective changes its bucket or orientation, so it refreshes that
//! accumulator; every other change (the opponent's king included) is incremental.

use shakmaty::{Board, Color, Piece, Role, Square};

use super::block::{FeatureBlock, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;

/// Planes per king bucket: 5 piece types × 2 colours, plus one for both kings
/// (15.1's `PS_NB / 64`).
pub const HALFKA_PLANES: usize = 11;
/// Features per king bucket (15.1's `PS_NB`).
pub const BUCKET_STRIDE: usize = 64 * HALFKA_PLANES;
/// King buckets: 4 mirrored files × 8 ranks.
pub const KING_BUCKETS: usize = 32;
/// Features per perspective (15.1's `Dimensions`).
pub const HALFKA_SIZE: usize = KING_BUCKETS * BUCKET_STRIDE;
/// The plane both kings share (15.1's `PS_KING / 64`).
const KING_PLANE: usize = 10;

/// Stockfish 15.1's HalfKAv2_hm feature block.
#[derive(Copy, Clone, Debug, Default)]
pub struct HalfKaV2Hm;

impl HalfKaV2Hm {
    /// The square XOR that orients `perspective`'s view for its king on `king`
    /// (15.1's `OrientTBL`).
    #[inline]
    pub fn orientation(perspective: Color, king: Square) -> usize {
        let flip = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let mirror = if king.file().to_usize() < 4 { 7 } else { 0 };
        flip ^ mirror
    }

    /// The king bucket of `perspective`'s king on `king` (15.1's `KingBuckets / PS_NB`).
    #[inline]
    pub fn king_bucket(perspective: Color, king: Square) -> usize {
        let rank = king.rank().to_usize();
        let relative_rank = match perspective {
            Color::White => rank,
            Color::Black => 7 - rank,
        };
        let file = king.file().to_usize();
        let mirrored_file = if file < 4 { file } else { 7 - file };
        4 * (7 - relative_rank) + mirrored_file
    }

    /// The plane of `piece` seen by `perspective` (15.1's `PieceSquareIndex / 64`).
    #[inline]
    pub fn plane(perspective: Color, piece: Piece) -> usize {
        match piece.role {
            Role::King => KING_PLANE,
            role => 2 * (role as usize - 1) + usize::from(piece.color != perspective),
        }
    }

    /// The index of `piece` on `sq` for `perspective` whose king is on `king`
    /// (absolute squares; 15.1's `make_index`).
    #[inline]
    pub fn index(perspective: Color, king: Square, piece: Piece, sq: Square) -> u32 {
        let oriented = sq.to_usize() ^ Self::orientation(perspective, king);
        let plane = Self::plane(perspective, piece);
        let bucket = Self::king_bucket(perspective, king);
        (oriented + 64 * plane + BUCKET_STRIDE * bucket) as u32
    }
}

impl FeatureBlock for HalfKaV2Hm {
    fn name(&self) -> String {
        "HalfKAv2_hm".to_string()
    }

    fn size(&self) -> usize {
        HALFKA_SIZE
    }

    /// Every piece, kings included: 32.
    fn max_active(&self) -> usize {
        MAX_PIECES
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let Some(king) = board.king_of(perspective) else {
            return;
        };
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                out.push(HalfKaV2Hm::index(perspective, king, piece, sq));
            }
        }
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        mv.change.king_moved(mv.perspective)
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let perspective = mv.perspective;
        let Some(king) = mv.after.king_of(perspective) else {
            return;
        };
        for d in mv.change.pieces() {
            if let Some(from) = d.from {
                let index = HalfKaV2Hm::index(perspective, king, d.piece, from);
                delta.removed.push(index);
            }
            if let Some(to) = d.to {
                let index = HalfKaV2Hm::index(perspective, king, d.piece, to);
                delta.added.push(index);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;
    use shakmaty::Position;

    /// Values worked out by hand from 15.1's tables (`half_ka_v2_hm.h`): White's
    /// king on e1 is `KingBuckets[WHITE][SQ_E1] = B(31)`, `OrientTBL[WHITE][SQ_E1]
    /// = SQ_A1`; a white pawn on a2 is `8 + PS_W_PAWN + 31 * 704 = 21832`, the
    /// white king `4 + PS_KING (640) + 21824 = 22468`, a black knight on g8
    /// `62 + PS_B_KNIGHT (192) + 21824 = 22078`.
    #[test]
    fn start_position_indices_match_the_15_1_tables() {
        let board = Chess::default().board().clone();
        let white = HalfKaV2Hm.active_sorted_for_test(&board, Color::White);
        assert!(white.contains(&21832));
        assert!(white.contains(&22468));
        assert!(white.contains(&22078));
        // Black's view of the same squares: its own pawn on a7 is `48 ^ 56 = 8`
        // with Black's king on e8 in `KingBuckets[BLACK][SQ_E8] = B(31)`.
        let black = HalfKaV2Hm.active_sorted_for_test(&board, Color::Black);
        assert_eq!(white, black, "the start position is symmetric");
        assert_eq!(white.len(), 32);
    }

    /// A king on a1 is mirrored (`OrientTBL[WHITE][SQ_A1] = SQ_H1`, xor 7) into
    /// bucket `B(28)`; a black queen on d8 (59) becomes `59 ^ 7 = 60` on plane
    /// `PS_B_QUEEN / 64 = 9`: `60 + 576 + 28 * 704 = 20348`. From Black's side with
    /// its king on h8: `KingBuckets[BLACK][SQ_H8] = B(28)`, `OrientTBL = SQ_A8`, its
    /// own queen `59 ^ 56 = 3` on plane 8: `3 + 512 + 19712 = 20227`.
    #[test]
    fn mirrored_and_flipped_kings_match_the_15_1_tables() {
        let queen = Piece {
            color: Color::Black,
            role: Role::Queen,
        };
        assert_eq!(
            HalfKaV2Hm::index(Color::White, Square::A1, queen, Square::D8),
            20348
        );
        assert_eq!(
            HalfKaV2Hm::index(Color::Black, Square::H8, queen, Square::D8),
            20227
        );
        assert_eq!(HalfKaV2Hm::king_bucket(Color::White, Square::H8), 0);
        assert_eq!(HalfKaV2Hm::king_bucket(Color::Black, Square::D1), 3);
        assert_eq!(HALFKA_SIZE, 22528);
    }

    impl HalfKaV2Hm {
        fn active_sorted_for_test(&self, board: &Board, perspective: Color) -> Vec<u32> {
            let mut out = Vec::new();
            self.active(board, perspective, &mut out);
            out.sort_unstable();
            out
        }
    }
}

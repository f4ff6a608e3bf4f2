//! Mobility blocks, computed on the perspective's relative board from pseudo-legal
//! destinations: the squares a piece could move to if it were its side's turn,
//! ignoring checks, pins, castling and en passant (they need more than the board).
//! A pawn's destinations are its single push and, from its start rank, double push
//! when the squares are empty, plus its diagonal captures onto enemy pieces; any other
//! piece's are its attacks minus squares held by its own side.
//!
//! * MB ("mobility board", 12 × 64 = 768): feature `64 * plane + destination`, on when
//!   at least one piece of that plane can move to that square.
//! * MC ("mobility count"): for each piece plane, one feature per possible number of
//!   destinations of a single piece, on when at least one piece of that plane has
//!   exactly that many. The maxima are pawn 4, knight 8, bishop 13, rook 14, queen 27,
//!   king 8, so each colour has 5 + 9 + 14 + 15 + 28 + 9 = 80 values and MC has 160
//!   features. The thesis reports 206; see `docs/BENCHMARKS-nnue.md` ("MC size") for
//!   why that number is not reproduced.

use shakmaty::attacks::{attacks, pawn_attacks};
use shakmaty::{Bitboard, Board, Color, Piece, Rank, Role, Square};

use super::block::{FeatureBlock, SeenSet, MAX_PIECES};
use super::orient::{plane, plane_piece, relative_board, Orientation};

/// Pseudo-legal destination squares of `piece` standing on `sq` of `board`.
pub fn destinations(board: &Board, sq: Square, piece: Piece) -> Bitboard {
    let own = board.by_color(piece.color);
    let enemy = board.by_color(!piece.color);
    let occupied = board.occupied();
    match piece.role {
        Role::Pawn => {
            let mut dest = pawn_attacks(piece.color, sq) & enemy;
            let (step, start) = match piece.color {
                Color::White => (8, Rank::Second),
                Color::Black => (-8, Rank::Seventh),
            };
            if let Some(one) = sq.offset(step).filter(|s| !occupied.contains(*s)) {
                dest.add(one);
                if sq.rank() == start {
                    if let Some(two) = one.offset(step).filter(|s| !occupied.contains(*s)) {
                        dest.add(two);
                    }
                }
            }
            dest
        }
        _ => attacks(sq, piece, occupied) & !own,
    }
}

/// Mobility board block MB.
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityBoard;

impl FeatureBlock for MobilityBoard {
    fn name(&self) -> String {
        "MB".to_string()
    }

    fn size(&self) -> usize {
        768
    }

    /// Destination squares are only bounded by the block itself.
    fn max_active(&self) -> usize {
        self.size()
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        let mut seen = SeenSet::new(self.size());
        for (sq, piece) in &rel {
            for dest in destinations(&rel, sq, piece) {
                seen.push(64 * plane(piece) + dest.to_usize(), out);
            }
        }
    }
}

/// The most destinations one piece of `role` can have on an otherwise empty board.
pub const fn max_mobility(role: Role) -> usize {
    match role {
        Role::Pawn => 4,
        Role::Knight => 8,
        Role::Bishop => 13,
        Role::Rook => 14,
        Role::Queen => 27,
        Role::King => 8,
    }
}

/// Mobility count block MC.
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityCount;

impl MobilityCount {
    /// First feature of each plane's run of count values.
    fn offset(plane_index: usize) -> usize {
        (0..plane_index)
            .map(|p| max_mobility(plane_piece(p).role) + 1)
            .sum()
    }
}

impl FeatureBlock for MobilityCount {
    fn name(&self) -> String {
        "MC".to_string()
    }

    fn size(&self) -> usize {
        MobilityCount::offset(12)
    }

    /// At most one count per piece.
    fn max_active(&self) -> usize {
        MAX_PIECES
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        let mut seen = SeenSet::new(self.size());
        for (sq, piece) in &rel {
            // Positions that are not reachable in chess (a pawn on its last rank) stay
            // within the plane's range by clamping.
            let count = destinations(&rel, sq, piece)
                .count()
                .min(max_mobility(piece.role));
            seen.push(MobilityCount::offset(plane(piece)) + count, out);
        }
    }
}

//! T (threats): which kinds of piece attack which pieces.
//!
//! A feature per (attacker plane, attacked plane, attacked square), on when some
//! piece of the attacker plane attacks the piece of the attacked plane standing on
//! that square: `index = (12 * plane(attacker) + plane(attacked)) * 64 + sq`, with
//! planes `2 * role + c` (roles P N B R Q K = 0..5, c = 0 own, 1 theirs) and `sq`
//! on the perspective's relative board (Black's view flipped `sq ^ 56`), as for
//! All: 12 × 12 × 64 = 9216 features.
//!
//! Attacks are shakmaty's attack sets: sliders stop at the first piece, pawns attack
//! diagonally forward, a king attacks its adjacent squares. Pieces of the attacked
//! piece's own colour count too ("defends" is a threat by the own side). Two attackers
//! of one plane hitting the same piece make one feature.
//!
//! A move changes threats far from the moved pieces (a slider's ray opens or
//! closes), so updates diff the active lists before and after the move (the
//! [`FeatureBlock::changed`] default).

use shakmaty::attacks::{attacks, pawn_attacks};
use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::block::{FeatureBlock, MAX_PIECES};
use super::orient::{plane, plane_piece, relative_board, Orientation};

/// The threats block T.
#[derive(Copy, Clone, Debug, Default)]
pub struct Threats;

impl Threats {
    /// The index of "a piece of `attacker` plane attacks the piece of `attacked`
    /// plane on `sq`" (relative planes and square).
    pub const fn index(attacker: usize, attacked: usize, sq: Square) -> u32 {
        ((12 * attacker + attacked) * 64 + sq as usize) as u32
    }
}

/// The pieces of `plane` (relative) on `board` that attack `sq`: the reverse of
/// each role's attack set (for pawns, the other colour's pawn attacks).
fn attackers_of_plane(board: &Board, plane_index: usize, sq: Square) -> Bitboard {
    let piece = plane_piece(plane_index);
    let from = match piece.role {
        Role::Pawn => pawn_attacks(!piece.color, sq),
        _ => attacks(sq, piece, board.occupied()),
    };
    from & board.by_piece(piece)
}

impl FeatureBlock for Threats {
    fn name(&self) -> String {
        "T".to_string()
    }

    fn size(&self) -> usize {
        12 * 12 * 64
    }

    /// Every feature is an (attacker, attacked piece) pair, and one piece attacks at
    /// most 8 pieces (a queen or king in 8 directions, a knight on 8 squares, a rook
    /// or bishop 4, a pawn 2): 32 × 8.
    fn max_active(&self) -> usize {
        MAX_PIECES * 8
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        for (sq, target) in &rel {
            let attacked = plane(target);
            for attacker in 0..12 {
                if attackers_of_plane(&rel, attacker, sq).any() {
                    out.push(Threats::index(attacker, attacked, sq));
                }
            }
        }
    }
}

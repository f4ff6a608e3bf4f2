//! Static exchange evaluation: the material result of the capture sequence on one
//! square when both sides always recapture with their least valuable piece. Used to
//! skip losing captures in quiescence search and to order them late; without it, a
//! network that does not value material (a random or early net) makes quiescence
//! search explode on positions full of captures.

use shakmaty::{attacks, Bitboard, Board, Color, Move, Role};

use super::params::piece_value as value;

/// Whether `m` by `us` wins at least `threshold` in the exchange it starts.
/// Castling, en passant and promotions count as good (they are rare and mostly are).
pub(crate) fn see_ge(board: &Board, us: Color, m: &Move, threshold: i32) -> bool {
    let (from, to, role, captured) = match *m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: None,
        } => (from, to, role, capture),
        _ => return threshold <= 0,
    };
    let mut swap = captured.map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(role) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    let mut attackers = attackers_to(board, to, occupied);
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let mut side = us;
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let mine = attackers & board.by_color(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        let Some((attacker_role, sq)) = least_valuable(board, mine) else {
            break;
        };
        if attacker_role == Role::King {
            // The king may only take if nothing defends the square any more.
            return if (attackers & board.by_color(!side)).any() {
                !result
            } else {
                result
            };
        }
        swap = value(attacker_role) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= Bitboard::from(sq);
        // Sliders behind the piece that just captured join in (x-rays).
        if matches!(attacker_role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(attacker_role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
    }
    result
}

/// Whether a piece of `color` attacks `sq` on `board`. A quiet move to a square
/// nothing attacks cannot lose material in the exchange, so the search asks SEE
/// about a quiet move only when its square is attacked. It misses only a slider
/// that the moving piece itself uncovers, which leaves such a move unpruned.
/// (One square's attackers, asked per move: cheaper than the map of every
/// attacked square per node that it replaces, the same answer.)
#[inline]
pub(crate) fn attacked(board: &Board, color: Color, sq: shakmaty::Square) -> bool {
    board.attacks_to(sq, color, board.occupied()).any()
}

fn attackers_to(board: &Board, sq: shakmaty::Square, occupied: Bitboard) -> Bitboard {
    board.attacks_to(sq, Color::White, occupied) | board.attacks_to(sq, Color::Black, occupied)
}

fn least_valuable(board: &Board, among: Bitboard) -> Option<(Role, shakmaty::Square)> {
    for role in Role::ALL {
        if let Some(sq) = (among & board.by_role(role)).first() {
            return Some((role, sq));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;
    use shakmaty::{uci::UciMove, Position};

    fn check(fen: &str, mv: &str, threshold: i32) -> bool {
        let p = position(fen);
        let m = mv.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        see_ge(p.board(), p.turn(), &m, threshold)
    }

    #[test]
    fn attacked_squares_are_those_some_piece_attacks() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let board = position(fen).board().clone();
            for color in [Color::White, Color::Black] {
                // Every piece's attacks from its square, over the whole board.
                let mut map = Bitboard::EMPTY;
                for sq in board.by_color(color) {
                    let piece = board.piece_at(sq).unwrap();
                    map |= attacks::attacks(sq, piece, board.occupied());
                }
                for sq in shakmaty::Square::ALL {
                    assert_eq!(attacked(&board, color, sq), map.contains(sq), "{fen} {sq}");
                }
            }
        }
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +850.
        assert!(check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 850));
        assert!(!check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 851));
        // Queen takes a pawn defended by a pawn: loses the queen.
        assert!(!check("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes a rook defended by a rook, backed by our second rook: even.
        assert!(check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
        // Knight takes a pawn defended by a bishop: loses the knight for a pawn.
        assert!(!check("4k3/8/2b5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0));
        // Quiet move to an attacked square.
        assert!(!check("4k3/8/8/8/3p4/8/8/2B1K3 w - - 0 1", "c1e3", 0));
        assert!(check("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1e3", 0));
    }
}

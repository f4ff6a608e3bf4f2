//! Legal captures and queen promotions without generating every legal move: what
//! quiescence search needs at most of its nodes. shakmaty generates all legal moves
//! (its capture list is a filter of them), which costs quiescence a large share of
//! its time; here only the moves onto enemy pieces and promotion squares are built,
//! and legality is decided by the pin rule (a pinned piece may only move along the
//! line to its king) and, for the king, by the attackers of the target square.
//!
//! Only for positions that are not in check (evasions use the full generator).

use shakmaty::{
    attacks, Bitboard, Board, Chess, Color, Move, MoveList, Position, Rank, Role, Square,
};

/// Appends every legal capture (including en passant and capturing promotions to
/// any piece) and every queen promotion by a push. `pos` must not be in check.
pub(crate) fn legal_captures(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let side = Side {
        board,
        us,
        king,
        theirs: board.by_color(!us) & !board.kings(),
        pinned: pinned_pieces(board, us, king),
    };
    side.piece_captures(out);
    side.pawn_moves(out);
    // En passant: rare, and its legality (discovered checks along the rank) is
    // subtle; shakmaty's own generator decides it.
    // (Checked first: building shakmaty's move list is a 2 KiB copy.)
    if pos.maybe_ep_square().is_some() {
        for m in pos.en_passant_moves() {
            out.push(m);
        }
    }
    side.king_captures(out);
}

/// The side to move of a position not in check, with what its moves need.
struct Side<'a> {
    board: &'a Board,
    us: Color,
    king: Square,
    /// The enemy pieces that may be captured (not the king).
    theirs: Bitboard,
    pinned: Bitboard,
}

impl Side<'_> {
    /// Whether a move from `from` to `to` keeps the king safe: a pinned piece
    /// may only move along the line through its king.
    #[inline]
    fn legal_for(&self, from: Square, to: Square) -> bool {
        !self.pinned.contains(from) || attacks::aligned(from, to, self.king)
    }

    /// Captures by knights, bishops, rooks and queens.
    #[inline]
    fn piece_captures(&self, out: &mut MoveList) {
        let board = self.board;
        let occupied = board.occupied();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & board.by_color(self.us) {
                let reach = match role {
                    Role::Knight => attacks::knight_attacks(from),
                    Role::Bishop => attacks::bishop_attacks(from, occupied),
                    Role::Rook => attacks::rook_attacks(from, occupied),
                    _ => attacks::queen_attacks(from, occupied),
                };
                for to in reach & self.theirs {
                    if self.legal_for(from, to) {
                        out.push(Move::Normal {
                            role,
                            from,
                            capture: board.role_at(to),
                            to,
                            promotion: None,
                        });
                    }
                }
            }
        }
    }

    /// Pawn captures (promoting ones to every piece) and queen promotions by a push.
    #[inline]
    fn pawn_moves(&self, out: &mut MoveList) {
        let (board, us) = (self.board, self.us);
        let last_rank = match us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        for from in board.pawns() & board.by_color(us) {
            let mut targets = attacks::pawn_attacks(us, from) & self.theirs;
            let push = match us {
                Color::White => from.offset(8),
                Color::Black => from.offset(-8),
            };
            if let Some(push) = push {
                if push.rank() == last_rank && !board.occupied().contains(push) {
                    targets |= Bitboard::from(push);
                }
            }
            for to in targets {
                if self.legal_for(from, to) {
                    push_pawn_move(out, from, to, board.role_at(to), to.rank() == last_rank);
                }
            }
        }
    }

    /// King captures of pieces that nothing defends.
    #[inline]
    fn king_captures(&self, out: &mut MoveList) {
        let (board, king) = (self.board, self.king);
        let without_king = board.occupied() ^ Bitboard::from(king);
        for to in attacks::king_attacks(king) & self.theirs {
            if board.attacks_to(to, !self.us, without_king).is_empty() {
                out.push(Move::Normal {
                    role: Role::King,
                    from: king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// A pawn move to `to`: on the last rank, a capture promotes to every piece and a
/// push only to a queen (quiescence looks at no other quiet promotion).
#[inline]
fn push_pawn_move(
    out: &mut MoveList,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotes: bool,
) {
    let pawn_move = |promotion| Move::Normal {
        role: Role::Pawn,
        from,
        capture,
        to,
        promotion,
    };
    if !promotes {
        out.push(pawn_move(None));
        return;
    }
    let promotions: &[Role] = if capture.is_some() {
        &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
    } else {
        &[Role::Queen]
    };
    for &promotion in promotions {
        out.push(pawn_move(Some(promotion)));
    }
}

/// Our pieces that stand alone between an enemy slider and our king.
fn pinned_pieces(board: &Board, us: Color, king: Square) -> Bitboard {
    let them = board.by_color(!us);
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & them;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between & board.by_color(us);
        }
    }
    pinned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::encode_move;

    fn reference(pos: &Chess) -> Vec<u16> {
        let mut v: Vec<u16> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
            .map(encode_move)
            .collect();
        v.sort_unstable();
        v
    }

    fn ours(pos: &Chess) -> Vec<u16> {
        let mut list = MoveList::new();
        legal_captures(pos, &mut list);
        let mut v: Vec<u16> = list.iter().map(encode_move).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn same_moves_as_the_full_generator_along_random_games() {
        // A small xorshift keeps this test free of dependencies.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..400 {
            let mut p = Chess::default();
            for _ in 0..200 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !p.is_check() {
                    assert_eq!(ours(&p), reference(&p), "{:?}", p.board());
                    checked += 1;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Prefer captures so that games reach sparse, tactical positions.
                let captures: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && state.is_multiple_of(3) {
                    *captures[(state >> 8) as usize % captures.len()]
                } else {
                    moves[(state >> 8) as usize % moves.len()]
                };
                p.play_unchecked(m);
            }
        }
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn pins_promotions_and_en_passant() {
        use shakmaty::{fen::Fen, CastlingMode};
        for fen in [
            // Pinned knight may not capture; pinned rook may capture along the pin.
            "4k3/8/8/1b6/8/3N4/4K3/8 w - - 0 1",
            "4k3/4r3/8/8/4R3/8/4K3/8 w - - 0 1",
            // Promotions by push and by capture.
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            // En passant that would expose the king along the rank.
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1",
            // King may not take a defended piece.
            "4k3/8/8/8/8/3q4/4K3/3r4 w - - 0 1",
        ] {
            let p: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            if !p.is_check() {
                assert_eq!(ours(&p), reference(&p), "{fen}");
            }
        }
    }
}

//! What a move does to the board, as a short list of piece moves.
//!
//! The accumulator stack records a [`BoardChange`] on every `push` (cheap: at most
//! three entries) and only turns it into feature indices when an evaluation is
//! actually requested, the way Stockfish records its "dirty pieces".

use shakmaty::{Board, CastlingSide, Color, Move, Piece, Role, Square};

/// One piece that appeared, disappeared or moved.
///
/// `from == None` means the piece was added (promotion piece), `to == None` that it
/// was removed (captured piece, promoted pawn).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DirtyPiece {
    /// The piece, with its colour.
    pub piece: Piece,
    /// Where it stood before the move; `None` if it appeared.
    pub from: Option<Square>,
    /// Where it stands after the move; `None` if it disappeared.
    pub to: Option<Square>,
}

/// The most pieces one move changes (a capturing promotion; castling changes two).
const MAX_CHANGED: usize = 3;
/// The most squares one move touches: each changed piece leaves one and enters one.
const MAX_TOUCHED: usize = 2 * MAX_CHANGED;

/// The pieces a move changes: up to three (a capturing promotion changes the pawn,
/// the promoted piece and the captured piece; castling the king and the rook).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardChange {
    pieces: [Option<DirtyPiece>; MAX_CHANGED],
    len: u8,
}

impl BoardChange {
    /// The change of a null move: nothing.
    pub const fn none() -> BoardChange {
        BoardChange {
            pieces: [None; MAX_CHANGED],
            len: 0,
        }
    }

    fn add(&mut self, piece: DirtyPiece) {
        // A move never changes more than three pieces; anything beyond is ignored
        // rather than panicking (it cannot happen with shakmaty's move types).
        if let Some(slot) = self.pieces.get_mut(usize::from(self.len)) {
            *slot = Some(piece);
            self.len += 1;
        }
    }

    /// The changed pieces, in the order they were recorded.
    pub fn pieces(&self) -> impl Iterator<Item = &DirtyPiece> {
        self.pieces.iter().flatten()
    }

    /// Calls `visit` once for each distinct `key(piece, square)` over the squares the
    /// changed pieces left or entered, in the order first met. Blocks whose features
    /// live on lines (`H`, `V`, `D1`, `D2`, `PH`, `PV`) key a square by its line, so a
    /// move along a line, or two pieces on one line, re-read that line only once.
    pub fn for_each_touched<K: Copy + PartialEq>(
        &self,
        mut key: impl FnMut(Piece, Square) -> K,
        mut visit: impl FnMut(K),
    ) {
        // The keys array is filled with the first key met, so its entries need no
        // `Option` (per-entry compares showed in `nnue evalbench`); only
        // `keys[..count]` is ever read.
        let mut seen: Option<([K; MAX_TOUCHED], usize)> = None;
        for d in self.pieces() {
            for sq in d.from.into_iter().chain(d.to) {
                let k = key(d.piece, sq);
                match &mut seen {
                    None => seen = Some(([k; MAX_TOUCHED], 1)),
                    Some((keys, count)) => {
                        if keys[..*count].contains(&k) {
                            continue;
                        }
                        keys[*count] = k;
                        *count += 1;
                    }
                }
                visit(k);
            }
        }
    }

    /// Whether the king of `color` moved.
    pub fn king_moved(&self, color: Color) -> bool {
        self.pieces()
            .any(|d| d.piece.role == Role::King && d.piece.color == color)
    }

    /// Computes the change that `mv`, played by `mover`, makes on `board` (the
    /// board before the move).
    ///
    /// Only the board is read, so this works for any legal move of standard chess
    /// (and for Chess960 castling encoded king-takes-rook, as shakmaty does). The
    /// mover's colour is needed for drops (`Move::Put`), which name no square the
    /// piece comes from; for other moves the colour on the from-square is used.
    pub fn of_move(board: &Board, mover: Color, mv: &Move) -> BoardChange {
        let mut change = BoardChange::none();
        match *mv {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let color = board.color_at(from).unwrap_or(mover);
                change.add_normal(role.of(color), from, capture, to, promotion);
            }
            Move::EnPassant { from, to } => {
                let color = board.color_at(from).unwrap_or(mover);
                change.add_en_passant(color, from, to);
            }
            Move::Castle { king, rook } => {
                let color = board.color_at(king).unwrap_or(mover);
                let side = mv.castling_side().unwrap_or(CastlingSide::KingSide);
                change.add_castle(color, side, king, rook);
            }
            Move::Put { role, to } => {
                // Crazyhouse drops do not occur in standard chess, but they are a
                // move type shakmaty has: a piece of the mover appears.
                change.add(DirtyPiece {
                    piece: role.of(mover),
                    from: None,
                    to: Some(to),
                });
            }
        }
        change
    }

    /// A normal move of `piece` (captured piece first, then the mover; a
    /// promotion removes the pawn and adds the promoted piece).
    ///
    /// Each case is written whole rather than appended piece by piece, so the
    /// value is built in registers: appended at a run-time position, it went
    /// through memory byte by byte and was read back eight bytes at a time, a
    /// store-forwarding stall on every move the accumulator stack records.
    fn add_normal(
        &mut self,
        piece: Piece,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) {
        let captured = capture.map(|role| DirtyPiece {
            piece: role.of(!piece.color),
            from: Some(to),
            to: None,
        });
        let pieces = match promotion {
            Some(promoted) => {
                let pawn = DirtyPiece {
                    piece,
                    from: Some(from),
                    to: None,
                };
                let new = DirtyPiece {
                    piece: promoted.of(piece.color),
                    from: None,
                    to: Some(to),
                };
                match captured {
                    Some(c) => [Some(c), Some(pawn), Some(new)],
                    None => [Some(pawn), Some(new), None],
                }
            }
            None => {
                let moved = DirtyPiece {
                    piece,
                    from: Some(from),
                    to: Some(to),
                };
                match captured {
                    Some(c) => [Some(c), Some(moved), None],
                    None => [Some(moved), None, None],
                }
            }
        };
        // `of_move` calls this on an empty change.
        debug_assert_eq!(self.len, 0);
        self.len = pieces.iter().flatten().count() as u8;
        self.pieces = pieces;
    }

    /// An en-passant capture by `color`: the captured pawn stands beside
    /// `from`, on the file of `to`.
    fn add_en_passant(&mut self, color: Color, from: Square, to: Square) {
        let captured = Square::from_coords(to.file(), from.rank());
        self.add(DirtyPiece {
            piece: Role::Pawn.of(!color),
            from: Some(captured),
            to: None,
        });
        self.add(DirtyPiece {
            piece: Role::Pawn.of(color),
            from: Some(from),
            to: Some(to),
        });
    }

    /// Castling by `color` to `side`, given as king and rook squares (so
    /// Chess960 works): both move to their standard destination files.
    fn add_castle(&mut self, color: Color, side: CastlingSide, king: Square, rook: Square) {
        let king_to = Square::from_coords(side.king_to_file(), king.rank());
        let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
        self.add(DirtyPiece {
            piece: Role::King.of(color),
            from: Some(king),
            to: Some(king_to),
        });
        self.add(DirtyPiece {
            piece: Role::Rook.of(color),
            from: Some(rook),
            to: Some(rook_to),
        });
    }

    /// Applies the change to `board` (the board before the move), giving the board
    /// after it. Removals happen before additions so castling (king and rook may
    /// swap squares in Chess960) comes out right.
    pub fn apply(&self, board: &mut Board) {
        for d in self.pieces() {
            if let Some(from) = d.from {
                board.discard_piece_at(from);
            }
        }
        for d in self.pieces() {
            if let Some(to) = d.to {
                board.set_piece_at(to, d.piece);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, File, Position, Rank};

    fn change_of(fen: &str, uci: &str) -> BoardChange {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal test position");
        let mv = uci
            .parse::<UciMove>()
            .expect("test move")
            .to_move(&pos)
            .expect("legal test move");
        BoardChange::of_move(pos.board(), pos.turn(), &mv)
    }

    fn touched<K: Copy + PartialEq>(
        change: &BoardChange,
        key: impl Fn(Piece, Square) -> K,
    ) -> Vec<K> {
        let mut keys = Vec::new();
        change.for_each_touched(key, |k| keys.push(k));
        keys
    }

    #[test]
    fn castling_touches_one_rank_once_and_four_squares() {
        let change = change_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!(touched(&change, |_, sq| sq.rank()), vec![Rank::First]);
        let mut squares = touched(&change, |_, sq| sq);
        squares.sort();
        assert_eq!(
            squares,
            vec![Square::E1, Square::F1, Square::G1, Square::H1]
        );
    }

    #[test]
    fn capturing_promotion_keys_each_piece_apart() {
        // b7xa8=Q: the pawn leaves b7, the rook leaves a8, the queen enters a8.
        let change = change_of("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q");
        let mut by_piece_file = touched(&change, |piece, sq| (piece.role, sq.file()));
        by_piece_file.sort();
        assert_eq!(
            by_piece_file,
            vec![
                (Role::Pawn, File::B),
                (Role::Rook, File::A),
                (Role::Queen, File::A)
            ]
        );
        assert_eq!(touched(&change, |_, sq| sq.rank()).len(), 2);
    }
}

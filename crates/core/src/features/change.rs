//! What a move does to the board, as a short list of piece moves.
//!
//! The accumulator stack records a [`BoardChange`] on every `push` (cheap: at most
//! three entries) and only turns it into feature indices when an evaluation is
//! actually requested, the way Stockfish records its "dirty pieces".

use shakmaty::{Board, Color, Move, Piece, Role, Square};

/// One piece that appeared, disappeared or moved.
///
/// `from == None` means the piece was added (promotion piece), `to == None` that it
/// was removed (captured piece, promoted pawn).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DirtyPiece {
    pub piece: Piece,
    pub from: Option<Square>,
    pub to: Option<Square>,
}

/// The pieces a move changes: up to three (a capturing promotion changes the pawn,
/// the promoted piece and the captured piece; castling the king and the rook).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardChange {
    pieces: [Option<DirtyPiece>; 3],
    len: u8,
}

impl BoardChange {
    /// The change of a null move: nothing.
    pub const fn none() -> BoardChange {
        BoardChange {
            pieces: [None; 3],
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
                if let Some(captured) = capture {
                    change.add(DirtyPiece {
                        piece: captured.of(!color),
                        from: Some(to),
                        to: None,
                    });
                }
                match promotion {
                    Some(promoted) => {
                        change.add(DirtyPiece {
                            piece: role.of(color),
                            from: Some(from),
                            to: None,
                        });
                        change.add(DirtyPiece {
                            piece: promoted.of(color),
                            from: None,
                            to: Some(to),
                        });
                    }
                    None => change.add(DirtyPiece {
                        piece: role.of(color),
                        from: Some(from),
                        to: Some(to),
                    }),
                }
            }
            Move::EnPassant { from, to } => {
                let color = board.color_at(from).unwrap_or(mover);
                let captured = Square::from_coords(to.file(), from.rank());
                change.add(DirtyPiece {
                    piece: Role::Pawn.of(!color),
                    from: Some(captured),
                    to: None,
                });
                change.add(DirtyPiece {
                    piece: Role::Pawn.of(color),
                    from: Some(from),
                    to: Some(to),
                });
            }
            Move::Castle { king, rook } => {
                let color = board.color_at(king).unwrap_or(mover);
                let side = mv
                    .castling_side()
                    .unwrap_or(shakmaty::CastlingSide::KingSide);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                change.add(DirtyPiece {
                    piece: Role::King.of(color),
                    from: Some(king),
                    to: Some(king_to),
                });
                change.add(DirtyPiece {
                    piece: Role::Rook.of(color),
                    from: Some(rook),
                    to: Some(rook_to),
                });
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

//! Mobility blocks, computed on the perspective's relative board (own pieces
//! white, Black's view flipped `sq ^ 56`).
//!
//! # The thesis' mobility: `MB` and `MC`
//!
//! As the thesis code (final version) computes it, a piece's *moves* are:
//! the squares it attacks (shakmaty's attack sets: sliders stop at the first
//! piece) that do not hold a piece of its own colour; a pawn instead has the
//! diagonal squares holding an enemy piece plus its single step forward if that
//! square is empty (no double step, no en passant, no castling). Of those, only the
//! squares where, after the piece moves there (replacing whatever stood there), its
//! own king is not attacked are kept; for the king itself, the destination must not
//! be attacked after the move. A side without a king keeps every square. The
//! squares of all pieces of one (role, colour) are united (a square two knights
//! reach counts once).
//!
//! * `MB` (768): feature `sq * 12 + role * 2 + c` (roles P N B R Q K = 0..5, c = 0
//!   own, 1 theirs, `sq` on the relative board) for every square of the union.
//! * `MC` (206): for every (role, colour) one feature, `(offset[role] + min(m,
//!   cap[role])) * 2 + c` with `m` the size of the union, offsets P..K = 0, 9, 25,
//!   42, 68, 94 and caps 8, 15, 16, 25, 25, 8. Exactly 12 features are active,
//!   `m = 0` included (no piece of that kind, or no move).
//!
//! # The earlier per-piece variants: `MBp` and `MCp`
//!
//! Pseudo-legal destinations, no king-safety test: a pawn's single push and, from
//! its start rank, double push when the squares are empty, plus diagonal captures
//! of enemy pieces; any other piece's attacks minus own-occupied squares.
//!
//! * `MBp` (768): feature `64 * plane + destination`.
//! * `MCp` (160): per piece plane, one feature per possible number of destinations
//!   of a *single* piece (pawn 0..=4, knight 0..=8, bishop 0..=13, rook 0..=14,
//!   queen 0..=27, king 0..=8: 80 values per colour), on when at least one piece of
//!   that plane has exactly that many.
//!
//! These two were called `MB` and `MC` before the thesis blocks took those names;
//! networks whose file names them so still load as `MBp`/`MCp` (see
//! [`super::spec::legacy_name`]).

use shakmaty::attacks::{attacks, king_attacks, pawn_attacks};
use shakmaty::{Bitboard, Board, Color, Piece, Rank, Role, Square};

use super::block::{FeatureBlock, SeenSet, MAX_PIECES};
use super::orient::{plane, plane_piece, relative_board, Orientation};

/// Whether the king of `color` stands attacked after its piece moved from `from` to
/// `to` (capturing whatever stood on `to`). A side without a king is never in check.
fn king_attacked_after(board: &Board, color: Color, from: Square, to: Square) -> bool {
    let king = if board.role_at(from) == Some(Role::King) {
        to
    } else {
        match board.king_of(color) {
            Some(king) => king,
            None => return false,
        }
    };
    let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let enemies = board.by_color(!color) & !Bitboard::from(to);
    (board.attacks_to(king, !color, occupied) & enemies).any()
}

/// The thesis' moves of `piece` on `sq` of `board` (see the module docs): attacked
/// squares not held by its own side (pawns: captures and single push), kept only
/// where its own king is not attacked afterwards.
pub fn legal_destinations(board: &Board, sq: Square, piece: Piece) -> Bitboard {
    let own = board.by_color(piece.color);
    let occupied = board.occupied();
    let candidates = match piece.role {
        Role::Pawn => {
            let mut dest = pawn_attacks(piece.color, sq) & board.by_color(!piece.color);
            let step = match piece.color {
                Color::White => 8,
                Color::Black => -8,
            };
            if let Some(one) = sq.offset(step).filter(|s| !occupied.contains(*s)) {
                dest.add(one);
            }
            dest
        }
        Role::King => king_attacks(sq) & !own,
        _ => attacks(sq, piece, occupied) & !own,
    };
    let mut dest = Bitboard::EMPTY;
    for to in candidates {
        if !king_attacked_after(board, piece.color, sq, to) {
            dest.add(to);
        }
    }
    dest
}

/// The union of [`legal_destinations`] over all pieces of each plane of the
/// relative board, indexed by [`plane`].
fn plane_unions(rel: &Board) -> [Bitboard; 12] {
    let mut unions = [Bitboard::EMPTY; 12];
    for (sq, piece) in rel {
        unions[plane(piece)] |= legal_destinations(rel, sq, piece);
    }
    unions
}

/// Mobility board block MB (thesis): squares some piece of (role, colour) can move to.
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityBoard;

impl MobilityBoard {
    /// The index of "some piece of `plane` can move to `sq`" (relative square).
    pub const fn index(plane: usize, sq: Square) -> u32 {
        (sq as usize * 12 + plane) as u32
    }
}

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
        for (p, union) in plane_unions(&rel).into_iter().enumerate() {
            out.extend(union.into_iter().map(|sq| MobilityBoard::index(p, sq)));
        }
    }
}

/// First count value of each role in MC: P..K = 0, 9, 25, 42, 68, 94.
pub const MC_OFFSETS: [usize; 6] = [0, 9, 25, 42, 68, 94];
/// Largest count MC tells apart per role (larger counts share the last value).
pub const MC_CAPS: [usize; 6] = [8, 15, 16, 25, 25, 8];

/// Mobility count block MC (thesis): per (role, colour), the size of the union of
/// its pieces' moves, capped.
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityCount;

impl MobilityCount {
    /// The index of "the pieces of `plane` have `m` moves together".
    pub fn index(plane: usize, m: usize) -> u32 {
        let role = plane / 2;
        ((MC_OFFSETS[role] + m.min(MC_CAPS[role])) * 2 + plane % 2) as u32
    }
}

impl FeatureBlock for MobilityCount {
    fn name(&self) -> String {
        "MC".to_string()
    }

    fn size(&self) -> usize {
        (MC_OFFSETS[5] + MC_CAPS[5] + 1) * 2
    }

    /// One per (role, colour).
    fn max_active(&self) -> usize {
        12
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let rel = relative_board(board, perspective, Orientation::Flip);
        for (p, union) in plane_unions(&rel).into_iter().enumerate() {
            out.push(MobilityCount::index(p, union.count()));
        }
    }
}

/// Pseudo-legal destination squares of `piece` standing on `sq` of `board`, as
/// `MBp` and `MCp` use them (double pushes, no king-safety test).
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

/// Per-piece pseudo-legal mobility board `MBp` (formerly `MB`).
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityBoardPseudo;

impl FeatureBlock for MobilityBoardPseudo {
    fn name(&self) -> String {
        "MBp".to_string()
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

/// The most pseudo-legal destinations one piece of `role` can have on an otherwise
/// empty board (the ranges of `MCp`).
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

/// Per-piece pseudo-legal mobility count `MCp` (formerly `MC`).
#[derive(Copy, Clone, Debug, Default)]
pub struct MobilityCountPseudo;

impl MobilityCountPseudo {
    /// First feature of each plane's run of count values.
    fn offset(plane_index: usize) -> usize {
        (0..plane_index)
            .map(|p| max_mobility(plane_piece(p).role) + 1)
            .sum()
    }
}

impl FeatureBlock for MobilityCountPseudo {
    fn name(&self) -> String {
        "MCp".to_string()
    }

    fn size(&self) -> usize {
        MobilityCountPseudo::offset(12)
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
            seen.push(MobilityCountPseudo::offset(plane(piece)) + count, out);
        }
    }
}

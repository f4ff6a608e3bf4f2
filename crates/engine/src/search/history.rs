//! Move-ordering memory that survives from node to node: killer moves (quiet moves
//! that refuted a sibling at the same ply), the butterfly history (how often a quiet
//! move by this piece to this square caused a cutoff), continuation histories (the
//! same, following the moves one and two plies before) and the capture history (by
//! piece, square and victim). Kept per thread and across searches of the same game;
//! `ucinewgame` clears it.

use shakmaty::{Color, Move, Role, Square};

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE, HISTORY_GRAVITY_DIVISOR, HISTORY_MAX};
use super::score::MAX_PLY;

/// Pieces (color and role): the rows of every history table.
const PIECES: usize = 12;
/// Moved piece and destination pairs: the keys of continuation histories.
const PIECE_TO: usize = PIECES * 64;
/// What a tactical move takes: nothing (a quiet promotion) or pawn to queen.
const VICTIMS: usize = 6;

/// A moved piece and its destination, the key continuation histories follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PieceTo(u16);

impl PieceTo {
    /// The key of `m` played by `color`.
    #[inline]
    pub(crate) fn of(color: Color, m: &Move) -> PieceTo {
        let (role, to) = role_to(m);
        PieceTo((piece_row(color, role) * 64 + to as usize) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The moves that led to a node, one and two plies back (none across a null move
/// or before the root): a quiet move's worth depends on what it answers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Continuation(pub [Option<PieceTo>; 2]);

/// A table of piece-to rows for every previous piece-to (768 x 768 entries).
/// Entries are stored as `i16` (every history value lies within
/// +-[`HISTORY_MAX`] = 16384): 1.2 MB instead of 2.4 MB, so more of the rows a
/// search touches stay in cache. Arithmetic is done in `i32`.
type ContinuationTable = [[i16; PIECE_TO]; PIECE_TO];

/// The continuation row of a missing previous move (the root, a null move):
/// adding its zeros leaves a score as if the row were skipped.
static ZERO_ROW: [i16; PIECE_TO] = [0; PIECE_TO];

/// History scores of quiet moves by one side at one node (see
/// [`History::quiet_scorer`]).
pub(crate) struct QuietScorer<'a> {
    table: &'a [[i32; 64]; PIECES],
    rows: [&'a [i16; PIECE_TO]; 2],
    color: Color,
}

impl QuietScorer<'_> {
    /// The butterfly history of `m` plus both continuation histories.
    #[inline]
    pub(crate) fn score(&self, m: &Move) -> i32 {
        let (role, to) = role_to(m);
        let piece = piece_row(self.color, role);
        let key = piece * 64 + to as usize;
        let followed = i32::from(self.rows[0][key]) + i32::from(self.rows[1][key]);
        self.table[piece][to as usize] + followed
    }
}

/// Killers and histories of one search thread.
pub(crate) struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    table: [[i32; 64]; PIECES],
    /// Boxed: 1.2 MB, more than a thread's stack should hold.
    continuation: Box<ContinuationTable>,
    captures: [[[i32; VICTIMS]; 64]; PIECES],
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            table: [[0; 64]; PIECES],
            continuation: zeroed_continuation(),
            captures: [[[0; VICTIMS]; 64]; PIECES],
        }
    }
}

/// An empty continuation table, built on the heap (too large for the stack).
fn zeroed_continuation() -> Box<ContinuationTable> {
    let rows = vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice();
    rows.try_into()
        .unwrap_or_else(|_| unreachable!("the vector has PIECE_TO rows"))
}

/// The history row of the moving piece: shakmaty's `Color` casts to Black = 0 and
/// White = 1, so Black's six roles fill rows 0-5 and White's rows 6-11.
#[inline]
fn piece_row(color: Color, role: Role) -> usize {
    color as usize * 6 + (role as usize - Role::Pawn as usize)
}

/// `(m.role(), m.to())` in one match on the kind of move (each accessor
/// matches on its own, and the histories need both of every move they score).
#[inline]
fn role_to(m: &Move) -> (Role, Square) {
    match *m {
        Move::Normal { role, to, .. } | Move::Put { role, to } => (role, to),
        Move::EnPassant { to, .. } => (Role::Pawn, to),
        Move::Castle { rook, .. } => (Role::King, rook),
    }
}

/// The victim column of a tactical move: 0 for none, 1 (pawn) to 5 (queen).
#[inline]
fn victim_index(m: &Move) -> usize {
    m.capture()
        .map_or(0, |r| r as usize - Role::Pawn as usize + 1)
}

/// Gravity: the closer an entry is to the bound, the smaller its step.
#[inline]
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += HISTORY_BONUS_SCALE * bonus - *entry * bonus.abs() / HISTORY_GRAVITY_DIVISOR;
    *entry = (*entry).clamp(-HISTORY_MAX, HISTORY_MAX);
}

const _: () = assert!(
    HISTORY_MAX <= i16::MAX as i32,
    "continuation entries are i16"
);

/// A history value as stored in the continuation table; [`gravity`] keeps it
/// within +-[`HISTORY_MAX`], which `i16` holds.
#[inline]
fn narrow(value: i32) -> i16 {
    debug_assert!(value.abs() <= HISTORY_MAX);
    value as i16
}

/// The history bonus of a cutoff at `depth`.
#[inline]
fn bonus(depth: i32) -> i32 {
    (depth * depth).min(HISTORY_BONUS_MAX)
}

impl History {
    /// Forgets everything (new game).
    pub(crate) fn clear(&mut self) {
        *self = History::default();
    }

    /// The two killers at `ply`.
    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY + 1)]
    }

    /// Clears the killers of the ply below, so they come from this subtree.
    #[inline]
    pub(crate) fn clear_killers(&mut self, ply: usize) {
        if ply < MAX_PLY + 2 {
            self.killers[ply] = [None; 2];
        }
    }

    /// The history score of a quiet move by `color` after `cont`: the butterfly
    /// history plus both continuation histories.
    #[inline]
    pub(crate) fn score(&self, color: Color, m: &Move, cont: Continuation) -> i32 {
        self.quiet_scorer(color, cont).score(m)
    }

    /// Scores the quiet moves of one node: the node's two continuation rows are
    /// looked up once, not once per move.
    #[inline]
    pub(crate) fn quiet_scorer(&self, color: Color, cont: Continuation) -> QuietScorer<'_> {
        let row = |prev: Option<PieceTo>| prev.map_or(&ZERO_ROW, |p| &self.continuation[p.index()]);
        QuietScorer {
            table: &self.table,
            rows: [row(cont.0[0]), row(cont.0[1])],
            color,
        }
    }

    /// The capture history score of a tactical move by `color`.
    #[inline]
    pub(crate) fn capture_score(&self, color: Color, m: &Move) -> i32 {
        self.captures[piece_row(color, m.role())][m.to() as usize][victim_index(m)]
    }

    /// A quiet move caused a beta cutoff at `depth`: remember it as a killer, reward
    /// it and penalise the quiet moves tried before it (and the tactical ones).
    pub(crate) fn reward(
        &mut self,
        color: Color,
        (ply, depth): (usize, i32),
        best: &Move,
        cont: Continuation,
        (quiets, tacticals): (&[Move], &[Move]),
    ) {
        let ply = ply.min(MAX_PLY + 1);
        if self.killers[ply][0] != Some(*best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(*best);
        }
        let bonus = bonus(depth);
        self.update(color, best, cont, bonus);
        for m in quiets.iter().filter(|&m| m != best) {
            self.update(color, m, cont, -bonus);
        }
        self.punish_captures(color, depth, tacticals);
    }

    /// A tactical move caused a beta cutoff at `depth`: reward it in the capture
    /// history and penalise the tactical moves tried before it.
    pub(crate) fn reward_capture(
        &mut self,
        color: Color,
        depth: i32,
        best: &Move,
        tacticals: &[Move],
    ) {
        gravity(self.capture_entry(color, best), bonus(depth));
        self.punish_captures(color, depth, tacticals);
    }

    /// Tactical moves tried before a cutoff by another move.
    fn punish_captures(&mut self, color: Color, depth: i32, tacticals: &[Move]) {
        let malus = -bonus(depth);
        for m in tacticals {
            gravity(self.capture_entry(color, m), malus);
        }
    }

    #[inline]
    fn capture_entry(&mut self, color: Color, m: &Move) -> &mut i32 {
        let (role, to) = role_to(m);
        &mut self.captures[piece_row(color, role)][to as usize][victim_index(m)]
    }

    #[inline]
    fn update(&mut self, color: Color, m: &Move, cont: Continuation, bonus: i32) {
        let (role, square) = role_to(m);
        gravity(
            &mut self.table[piece_row(color, role)][square as usize],
            bonus,
        );
        let to = PieceTo::of(color, m).index();
        for prev in cont.0.iter().flatten() {
            let entry = &mut self.continuation[prev.index()][to];
            let mut wide = i32::from(*entry);
            gravity(&mut wide, bonus);
            *entry = narrow(wide);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;
    use shakmaty::Position;

    #[test]
    fn role_to_is_the_moves_role_and_destination() {
        let mut kinds = [0; 4];
        for fen in [
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            for m in position(fen).legal_moves() {
                assert_eq!(role_to(&m), (m.role(), m.to()), "{fen}: {m}");
                kinds[usize::from(m.is_capture())
                    + 2 * usize::from(m.is_castle() || m.is_en_passant())] += 1;
            }
        }
        // Quiet, capture, castling and en passant all met.
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    }

    fn quiet(role: Role, from: Square, to: Square) -> Move {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn a_cutoff_raises_the_continuation_score_after_the_same_move_only() {
        let mut h = History::default();
        let reply = quiet(Role::Knight, Square::G8, Square::F6);
        let tried = quiet(Role::Pawn, Square::H7, Square::H6);
        let e4 = PieceTo::of(Color::White, &quiet(Role::Pawn, Square::E2, Square::E4));
        let d4 = PieceTo::of(Color::White, &quiet(Role::Pawn, Square::D2, Square::D4));
        let after_e4 = Continuation([Some(e4), None]);
        h.reward(Color::Black, (1, 6), &reply, after_e4, (&[tried], &[]));
        let after_d4 = Continuation([Some(d4), None]);
        assert!(h.score(Color::Black, &reply, after_e4) > h.score(Color::Black, &reply, after_d4));
        assert!(h.score(Color::Black, &tried, after_e4) < 0);
        assert_eq!(h.killers(1)[0], Some(reply));
    }
}

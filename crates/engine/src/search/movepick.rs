//! Move ordering: the order in which a node tries its moves decides how much alpha-beta
//! can cut. Best first: the transposition-table move, then captures and promotions by
//! most valuable victim / least valuable attacker and capture history, then the
//! killers, then quiet moves by history and continuation histories, then the captures
//! that lose material. Scores are computed once per node (in the main search the quiet
//! moves' only when the picker reaches them: a staged picker); moves are then picked one
//! at a time (selection), since most nodes cut off after the first few.

use arrayvec::ArrayVec;
use shakmaty::{Board, Chess, Color, Move, MoveList, Position};

use super::history::{Continuation, History};
use super::params::{piece_rank, CAPTURE_HISTORY_DIVISOR, MVV_WEIGHT};
use super::see::see_ge;
use super::tt::encode_move;

/// Capacity of shakmaty's `MoveList`.
const MAX_MOVES: usize = 270;
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER_1: i32 = 1 << 22;
const KILLER_2: i32 = KILLER_1 - 1;
/// A quiet move not scored yet (staged picker): below the killers, above every
/// history score, so it is reached right after them and scored then.
const QUIET_PENDING: i32 = KILLER_2 - 1;
/// Captures that lose material in the exchange go after the quiet moves' best.
const BAD_CAPTURE: i32 = -(1 << 20);
/// A tactical move scored at least this was found by SEE not to lose material
/// (`CAPTURE` less an attacker rank); below it, to lose (`BAD_CAPTURE` plus
/// victim ranks, far below zero).
const SEE_KEEPS_FLOOR: i32 = CAPTURE / 2;

/// Captures, en passant and promotions: the moves quiescence search looks at.
#[inline]
pub(crate) fn is_tactical(m: &Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// The ordering score of a capture or promotion: by SEE good or bad, then most
/// valuable victim, least valuable attacker and the capture history.
#[inline]
fn tactical_score(board: &Board, color: Color, m: &Move, history: &History) -> i32 {
    let victim = m.capture().map_or(0, piece_rank);
    let promo = m.promotion().map_or(0, piece_rank);
    let base = if see_ge(board, color, m, 0) {
        CAPTURE
    } else {
        BAD_CAPTURE
    };
    base + MVV_WEIGHT * (victim + promo) - piece_rank(m.role())
        + history.capture_score(color, m) / CAPTURE_HISTORY_DIVISOR
}

/// A node's moves with their ordering scores.
pub(crate) struct MovePicker {
    moves: MoveList,
    /// Filled to the length of `moves` only (no per-node clearing of 270 slots).
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    /// Quiet moves still carry [`QUIET_PENDING`] (see [`MovePicker::refill_staged`]).
    pending_quiets: bool,
    /// The side to move and the moves before the node, to score the quiet moves later.
    color: Color,
    cont: Continuation,
}

impl MovePicker {
    /// A picker with no moves: the per-ply pickers of a thread start so, and are
    /// refilled in place by [`MovePicker::refill`].
    pub(crate) fn empty() -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            pending_quiets: false,
            color: Color::White,
            cont: Continuation::default(),
        }
    }

    /// A picker of its own (the root's ordering); the search refills per-ply pickers
    /// with [`MovePicker::refill`] instead, since a picker is 3 KiB and moving one by
    /// value per node was a large share of quiescence.
    pub(crate) fn new(
        fill: impl FnOnce(&mut MoveList),
        tt_move: u16,
        (history, cont): (&History, Continuation),
        pos: &Chess,
        ply: usize,
    ) -> MovePicker {
        let mut picker = MovePicker::empty();
        picker.refill(fill, tt_move, (history, cont), pos, ply);
        picker
    }

    /// Replaces the moves with those `fill` writes straight into the list, scored
    /// for this node. `tt_move` is the table's move code (0 for none); `cont` the
    /// moves that led to the node.
    #[inline]
    pub(crate) fn refill(
        &mut self,
        fill: impl FnOnce(&mut MoveList),
        tt_move: u16,
        (history, cont): (&History, Continuation),
        pos: &Chess,
        ply: usize,
    ) {
        self.refill_staged(fill, tt_move, (history, cont), pos, ply);
        self.score_quiets(history);
    }

    /// As [`MovePicker::refill`], but the quiet moves (killers aside) are scored
    /// only when the picker reaches them ([`MovePicker::next_move_staged`]): most
    /// nodes cut on the table move, a capture or a killer, and never need their
    /// histories; those that get there score them with the histories as the
    /// earlier moves' subtrees left them.
    #[inline]
    pub(crate) fn refill_staged(
        &mut self,
        fill: impl FnOnce(&mut MoveList),
        tt_move: u16,
        (history, cont): (&History, Continuation),
        pos: &Chess,
        ply: usize,
    ) {
        let (board, color) = (pos.board(), pos.turn());
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.color = color;
        self.cont = cont;
        fill(&mut self.moves);
        let killers = history.killers(ply);
        let MovePicker { moves, scores, .. } = self;
        let mut pending = false;
        for m in moves.iter() {
            scores.push(if tt_move != 0 && encode_move(m) == tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                tactical_score(board, color, m, history)
            } else if killers[0] == Some(*m) {
                KILLER_1
            } else if killers[1] == Some(*m) {
                KILLER_2
            } else {
                pending = true;
                QUIET_PENDING
            });
        }
        self.pending_quiets = pending;
    }

    /// Gives the quiet moves still pending their history scores.
    fn score_quiets(&mut self, history: &History) {
        if !self.pending_quiets {
            return;
        }
        let quiet = history.quiet_scorer(self.color, self.cont);
        let pairs = self.moves.iter().zip(self.scores.iter_mut());
        for (m, score) in pairs.skip(self.next) {
            if *score == QUIET_PENDING {
                *score = quiet.score(m);
            }
        }
        self.pending_quiets = false;
    }

    /// The best remaining move of a picker filled by [`MovePicker::refill_staged`]:
    /// on reaching the quiet moves, scores them with `history` first.
    #[inline]
    pub(crate) fn next_move_staged(&mut self, history: &History) -> Option<Move> {
        let m = self.next_move()?;
        if self.pending_quiets && self.scores[self.next - 1] == QUIET_PENDING {
            self.next -= 1;
            self.score_quiets(history);
            return self.next_move();
        }
        Some(m)
    }

    /// The table move and the tactical moves SEE found not to lose material: in
    /// quiescence (not in check), the only ones searched unless delta pruning drops them.
    pub(crate) fn keeping_material(&self) -> impl Iterator<Item = &Move> {
        self.moves
            .iter()
            .zip(&self.scores)
            .filter(|&(_, &score)| score >= SEE_KEEPS_FLOOR)
            .map(|(m, _)| m)
    }

    /// Number of moves.
    pub(crate) fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the node has no legal move.
    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move.
    #[inline]
    pub(crate) fn next_move(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores, the best kept in registers.
        let (mut best, mut top) = (self.next, self.scores[self.next]);
        for (i, &s) in self.scores[..n].iter().enumerate().skip(self.next + 1) {
            if s > top {
                (best, top) = (i, s);
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.moves[self.next];
        self.next += 1;
        Some(m)
    }

    /// For the tactical move [`MovePicker::next_move`] returned last: whether it
    /// keeps material in the exchange (`see_ge(board, color, m, 0)`), as found
    /// when the picker scored it, so quiescence does not compute it twice. `None`
    /// for the table move, which is scored without SEE.
    #[inline]
    pub(crate) fn last_keeps_material(&self) -> Option<bool> {
        let score = *self.scores.get(self.next.checked_sub(1)?)?;
        (score != TT_MOVE).then_some(score >= SEE_KEEPS_FLOOR)
    }
}

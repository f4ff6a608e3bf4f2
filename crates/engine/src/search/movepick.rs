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
use super::params::{piece_rank, CAPTURE_HISTORY_DIVISOR, HISTORY_MAX, MVV_WEIGHT};
use super::see::see_ge;
use super::tt::encode_move;

/// Capacity of shakmaty's `MoveList`.
const MAX_MOVES: usize = 270;
/// Scores [`first_max`] compares at a time (one SSE2 register): a scan carrying
/// the best index from score to score was a tenth of the search's time (the
/// picker runs once per move).
const LANES: usize = 4;
/// Scores [`first_max`] compares at a time with AVX2 (one 256-bit register);
/// the scanned scores are whole blocks of this many (a multiple of [`LANES`]).
const BLOCK: usize = 2 * LANES;
/// Behind the last move's score: no move scores this low, so the blocks of
/// [`first_max`] may run past the last move.
const PAST_THE_END: i32 = i32::MIN;
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER_1: i32 = 1 << 22;
const KILLER_2: i32 = KILLER_1 - 1;
/// A quiet move not scored yet (staged picker): below the killers, above every
/// history score, so it is reached right after them and scored then.
const QUIET_PENDING: i32 = KILLER_2 - 1;
/// Captures that lose material in the exchange go after the quiet moves' best.
const BAD_CAPTURE: i32 = -(1 << 20);
/// Every quiet move scores above this (a history score is at least three times
/// `-HISTORY_MAX`), every capture that loses material below it.
const BELOW_QUIETS: i32 = BAD_CAPTURE / 2;
const _: () = assert!(-3 * HISTORY_MAX > BELOW_QUIETS);
/// A tactical move scored at least this was found by SEE not to lose material
/// (`CAPTURE` less an attacker rank); below it, to lose (`BAD_CAPTURE` plus
/// victim ranks, far below zero).
const SEE_KEEPS_FLOOR: i32 = CAPTURE / 2;

/// Writes the legal moves of `pos` into `list`, copying only the moves: assigning
/// shakmaty's returned list (`*list = pos.legal_moves()`) copied all 256 slots,
/// a visible share of every node's time.
#[inline]
pub(crate) fn fill_legal(list: &mut MoveList, pos: &Chess) {
    let moves = pos.legal_moves();
    list.clear();
    // (Cannot fail: both lists have the same capacity.)
    let _ = list.try_extend_from_slice(&moves);
}

/// Captures, en passant and promotions: the moves quiescence search looks at.
/// (One match on the kind of move: `is_capture() || is_promotion()` matched twice.)
#[inline]
pub(crate) fn is_tactical(m: &Move) -> bool {
    match *m {
        Move::Normal {
            capture, promotion, ..
        } => capture.is_some() || promotion.is_some(),
        Move::EnPassant { .. } => true,
        Move::Castle { .. } | Move::Put { .. } => false,
    }
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

/// A plain quiet move (a normal move that neither captures nor promotes) as
/// one number, its piece, origin and destination: two such moves are equal
/// exactly when their keys are. 0 for every other move (captures, promotions,
/// castling, en passant), which the picker compares as moves. Comparing a
/// move with the killers as moves took a branch per field.
#[inline]
fn quiet_key(m: &Move) -> u32 {
    match *m {
        Move::Normal {
            role,
            from,
            to,
            capture: None,
            promotion: None,
        } => role as u32 | u32::from(from) << 8 | u32::from(to) << 16,
        _ => 0,
    }
}

/// The index of the first of the highest scores in `scores`, whole blocks of
/// [`LANES`] scores, in one pass: every lane keeps its highest score and the
/// index of its first occurrence (a later block replaces them only when
/// strictly higher), then the lanes holding the highest give the least index.
/// SSE2 (which every x86-64 has) compares four scores per instruction, and no
/// branch depends on the scores (a second pass looking for the block that holds
/// the maximum ended at a data-dependent block, a mispredicted branch per pick).
/// With AVX2 (detected at run time: a cached flag) eight scores per compare,
/// half the steps of the scan, each of which waits on the one before.
#[cfg(target_arch = "x86_64")]
#[inline]
fn first_max(scores: &[i32]) -> usize {
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (just detected).
        unsafe { first_max_avx2(scores) }
    } else {
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 CPU has it.
        unsafe { first_max_sse2(scores) }
    }
}

/// [`first_max`] in AVX2 instructions, over whole blocks of [`BLOCK`] scores.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn first_max_avx2(scores: &[i32]) -> usize {
    use std::arch::x86_64::{
        _mm256_add_epi32, _mm256_blendv_epi8, _mm256_castsi256_si128, _mm256_cmpeq_epi32,
        _mm256_cmpgt_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_max_epi32,
        _mm256_set1_epi32, _mm256_setr_epi32, _mm_cvtsi128_si32, _mm_max_epi32, _mm_min_epi32,
        _mm_shuffle_epi32,
    };
    let mut best = _mm256_set1_epi32(i32::MIN);
    let mut first = _mm256_set1_epi32(0);
    let mut index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let step = _mm256_set1_epi32(BLOCK as i32);
    for block in scores.chunks_exact(BLOCK) {
        // SAFETY: the block holds BLOCK (eight) i32s: 32 readable bytes.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        let higher = _mm256_cmpgt_epi32(v, best);
        best = _mm256_max_epi32(v, best);
        first = _mm256_blendv_epi8(first, index, higher);
        index = _mm256_add_epi32(index, step);
    }
    let halves = |v| (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let (low, high) = halves(best);
    let mut top = _mm_max_epi32(low, high);
    top = _mm_max_epi32(top, _mm_shuffle_epi32::<0b01_00_11_10>(top));
    top = _mm_max_epi32(top, _mm_shuffle_epi32::<0b10_11_00_01>(top));
    // The lanes that do not hold the highest score offer no index.
    let top = _mm256_set1_epi32(_mm_cvtsi128_si32(top));
    let none = _mm256_set1_epi32(i32::MAX);
    let offered = _mm256_blendv_epi8(none, first, _mm256_cmpeq_epi32(best, top));
    let (low, high) = halves(offered);
    let mut least = _mm_min_epi32(low, high);
    least = _mm_min_epi32(least, _mm_shuffle_epi32::<0b01_00_11_10>(least));
    least = _mm_min_epi32(least, _mm_shuffle_epi32::<0b10_11_00_01>(least));
    _mm_cvtsi128_si32(least) as usize
}

/// [`first_max`] in SSE2 instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn first_max_sse2(scores: &[i32]) -> usize {
    use std::arch::x86_64::{
        _mm_add_epi32, _mm_cmpeq_epi32, _mm_cmpgt_epi32, _mm_cvtsi128_si32, _mm_set1_epi32,
        _mm_set_epi32, _mm_shuffle_epi32,
    };
    let mut best = _mm_set1_epi32(i32::MIN);
    let mut first = _mm_set1_epi32(0);
    let mut index = _mm_set_epi32(3, 2, 1, 0);
    let step = _mm_set1_epi32(LANES as i32);
    for block in scores.chunks_exact(LANES) {
        let v = load4(block);
        let higher = _mm_cmpgt_epi32(v, best);
        best = select(higher, v, best);
        first = select(higher, index, first);
        index = _mm_add_epi32(index, step);
    }
    let mut top = max4(best, _mm_shuffle_epi32::<0b01_00_11_10>(best));
    top = max4(top, _mm_shuffle_epi32::<0b10_11_00_01>(top));
    // The lanes that do not hold the highest score offer no index.
    let offered = select(_mm_cmpeq_epi32(best, top), first, _mm_set1_epi32(i32::MAX));
    let mut least = min4(offered, _mm_shuffle_epi32::<0b01_00_11_10>(offered));
    least = min4(least, _mm_shuffle_epi32::<0b10_11_00_01>(least));
    _mm_cvtsi128_si32(least) as usize
}

/// Lane by lane, `a` where `mask` is set, else `b`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn select(
    mask: std::arch::x86_64::__m128i,
    a: std::arch::x86_64::__m128i,
    b: std::arch::x86_64::__m128i,
) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::{_mm_and_si128, _mm_andnot_si128, _mm_or_si128};
    _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b))
}

/// The lane-wise minimum (as [`max4`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn min4(
    a: std::arch::x86_64::__m128i,
    b: std::arch::x86_64::__m128i,
) -> std::arch::x86_64::__m128i {
    select(std::arch::x86_64::_mm_cmpgt_epi32(b, a), a, b)
}

/// The first four scores of `block` in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn load4(block: &[i32]) -> std::arch::x86_64::__m128i {
    std::arch::x86_64::_mm_set_epi32(block[3], block[2], block[1], block[0])
}

/// The lane-wise maximum (SSE2 has no signed 32-bit maximum instruction: the
/// lanes are selected by a comparison's mask).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn max4(
    a: std::arch::x86_64::__m128i,
    b: std::arch::x86_64::__m128i,
) -> std::arch::x86_64::__m128i {
    select(std::arch::x86_64::_mm_cmpgt_epi32(a, b), a, b)
}

/// [`first_max`] without SSE2: the first score above every score before it.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn first_max(scores: &[i32]) -> usize {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    best
}

/// A node's moves with their ordering scores.
pub(crate) struct MovePicker {
    moves: MoveList,
    /// Filled to the length of `moves` (no per-node clearing of 270 slots), then
    /// [`BLOCK`] times [`PAST_THE_END`].
    scores: ArrayVec<i32, { MAX_MOVES + BLOCK }>,
    next: usize,
    /// Quiet moves still carry [`QUIET_PENDING`] (see [`MovePicker::refill_staged`]).
    pending_quiets: bool,
    /// The side to move and the moves before the node, to score the quiet moves later.
    color: Color,
    cont: Continuation,
    /// The next pick found ahead by [`MovePicker::peek`]: the value of `next`
    /// it was found at and the slot. Forgotten when scores change.
    ahead: Option<(usize, usize)>,
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
            ahead: None,
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
        // History scores stay below the table move's: its pick found ahead holds.
        let first = self.ahead;
        self.score_quiets(history);
        self.ahead = first;
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
        self.fill(fill);
        self.score_staged(tt_move, (history, cont), pos, ply);
    }

    /// Replaces the moves with those `fill` writes straight into the list, to be
    /// scored by [`MovePicker::score`]: a node can look at its moves (prefetch
    /// its children's table buckets) before it spends time scoring them.
    #[inline]
    pub(crate) fn fill(&mut self, fill: impl FnOnce(&mut MoveList)) {
        self.moves.clear();
        fill(&mut self.moves);
    }

    /// The moves as [`MovePicker::fill`] left them.
    pub(crate) fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Scores the moves [`MovePicker::fill`] wrote as [`MovePicker::refill`] does.
    #[inline]
    pub(crate) fn score(
        &mut self,
        tt_move: u16,
        (history, cont): (&History, Continuation),
        pos: &Chess,
        ply: usize,
    ) {
        self.score_staged(tt_move, (history, cont), pos, ply);
        // History scores stay below the table move's: its pick found ahead holds.
        let first = self.ahead;
        self.score_quiets(history);
        self.ahead = first;
    }

    /// Scores the moves [`MovePicker::fill`] wrote as [`MovePicker::refill_staged`] does.
    #[inline]
    fn score_staged(
        &mut self,
        tt_move: u16,
        (history, cont): (&History, Continuation),
        pos: &Chess,
        ply: usize,
    ) {
        let (board, color) = (pos.board(), pos.turn());
        self.scores.clear();
        self.next = 0;
        self.color = color;
        self.cont = cont;
        let killers = history.killers(ply);
        let keys = killers.map(|k| k.map_or(0, |k| quiet_key(&k)));
        let MovePicker { moves, scores, .. } = self;
        let mut pending = false;
        let mut tt_slot = None;
        for (i, m) in moves.iter().enumerate() {
            let tt = tt_move != 0 && tt_slot.is_none() && encode_move(m) == tt_move;
            let key = quiet_key(m);
            scores.push(if tt {
                tt_slot = Some(i);
                TT_MOVE
            } else if key != 0 {
                // A plain quiet move: the killers' keys decide as the moves would.
                if key == keys[0] {
                    KILLER_1
                } else if key == keys[1] {
                    KILLER_2
                } else {
                    pending = true;
                    QUIET_PENDING
                }
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
        self.end_scores();
        self.tt_first(tt_slot);
    }

    /// The table move, where the list holds it, is the first pick: its score
    /// is above every other, so the scan for the highest would find it. It is
    /// kept as the first pick found ahead, so that pick costs no scan (most
    /// nodes with a table move cut on it).
    #[inline]
    fn tt_first(&mut self, tt_slot: Option<usize>) {
        if let Some(slot) = tt_slot {
            debug_assert_eq!(self.next, 0);
            debug_assert_eq!(self.best_remaining(), slot);
            self.ahead = Some((0, slot));
        }
    }

    /// Puts [`BLOCK`] times [`PAST_THE_END`] behind the moves' scores.
    #[inline]
    fn end_scores(&mut self) {
        self.ahead = None;
        self.scores.truncate(self.moves.len());
        for _ in 0..BLOCK {
            self.scores.push(PAST_THE_END);
        }
    }

    /// Gives the quiet moves still pending their history scores.
    fn score_quiets(&mut self, history: &History) {
        if !self.pending_quiets {
            return;
        }
        let quiet = history.quiet_scorer(self.color, self.cont);
        self.ahead = None;
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

    /// Drops the quiet moves not picked yet, after move-count pruning cut the
    /// node's quiet moves off (every later quiet move is pruned unsearched, so
    /// picking them one by one, each a scan of the rest, was wasted). Returns how
    /// many were dropped, `excluded` (a move code the caller skips uncounted)
    /// aside, for the caller's move count. Only captures that lose material (or
    /// nothing) remain behind the quiet moves, and they are picked afterwards as
    /// before: by score alone when their scores differ; when two tie, picking
    /// resolves the tie by their places, which the quiet moves' picks shuffle,
    /// so then the quiet moves are picked through as before (without the search
    /// of each).
    pub(crate) fn drop_quiets(&mut self, history: &History, excluded: u16) -> usize {
        self.ahead = None;
        let rest = self.next..self.moves.len();
        // Told apart by score (cheaper than by move): the last pick was quiet, so
        // what is left scores at most as a killer, below every capture that
        // keeps material; the others score below every quiet move.
        let losing = |i: usize| {
            let below = self.scores[i] < BELOW_QUIETS;
            debug_assert_eq!(below, is_tactical(&self.moves[i]));
            below
        };
        let mut scores: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        let mut distinct = true;
        for i in rest.clone().filter(|&i| losing(i)) {
            distinct &= !scores.contains(&self.scores[i]);
            scores.push(self.scores[i]);
        }
        let skipped = excluded != 0
            && rest
                .clone()
                .any(|i| !losing(i) && encode_move(&self.moves[i]) == excluded);
        let dropped = rest.len() - scores.len() - usize::from(skipped);
        if distinct {
            let mut keep = self.next;
            for i in rest {
                if self.scores[i] < BELOW_QUIETS {
                    self.moves.swap(keep, i);
                    self.scores.swap(keep, i);
                    keep += 1;
                }
            }
            self.moves.truncate(keep);
            self.pending_quiets = false;
            self.end_scores();
        } else {
            while self.pick_quiet(history) {}
        }
        dropped
    }

    /// Picks the next move as [`MovePicker::next_move_staged`] does and says
    /// whether it was quiet; a tactical move is put back first of the rest, where
    /// the next pick finds it again (the first of the highest scores).
    fn pick_quiet(&mut self, history: &History) -> bool {
        match self.next_move_staged(history) {
            Some(m) if !is_tactical(&m) => true,
            Some(_) => {
                self.next -= 1;
                false
            }
            None => false,
        }
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
        if self.next >= self.moves.len() {
            return None;
        }
        let best = match self.ahead.take() {
            Some((at, best)) if at == self.next => best,
            _ => self.best_remaining(),
        };
        // The pick is read before the swap writes it: read back right after
        // the swap's narrower stores, a move (five bytes) missed the store
        // forwarding and waited for the stores, about a fifth of the picker's time.
        let m = self.moves[best];
        self.moves[best] = self.moves[self.next];
        self.moves[self.next] = m;
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(m)
    }

    /// The move [`MovePicker::next_move`] would pick now (for a prefetch: a
    /// quiet move not scored yet stands for the first of them). The slot is
    /// kept for that pick, so looking ahead costs no second scan.
    #[inline]
    pub(crate) fn peek(&mut self) -> Option<Move> {
        if self.next >= self.moves.len() {
            return None;
        }
        let best = self.best_remaining();
        self.ahead = Some((self.next, best));
        Some(self.moves[best])
    }

    /// The index of the highest score from `next` on (some move remains), found
    /// over whole blocks of [`BLOCK`], the last one running past the end.
    #[inline]
    fn best_remaining(&self) -> usize {
        let end = self.next + (self.moves.len() - self.next).div_ceil(BLOCK) * BLOCK;
        self.next + first_max(&self.scores[self.next..end])
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

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;

    /// A picker of `fen`'s moves with empty histories (so that many captures that
    /// lose material tie) advanced to its first quiet move.
    fn at_first_quiet(fen: &str, history: &History) -> MovePicker {
        let pos = position(fen);
        let fill = |list: &mut MoveList| *list = pos.legal_moves();
        let mut picker = MovePicker::empty();
        picker.refill_staged(fill, 0, (history, Continuation::default()), &pos, 1);
        while let Some(m) = picker.next_move_staged(history) {
            if !is_tactical(&m) {
                break;
            }
        }
        picker
    }

    #[test]
    fn first_max_is_the_first_of_the_highest_scores() {
        // Few distinct values, so that ties within and across blocks are common.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for len in 1..=5 * BLOCK {
            for _ in 0..100 {
                let mut scores: Vec<i32> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state % 4) as i32 - 2
                    })
                    .collect();
                // The scan it replaces: the first index of a score above all before.
                let mut expected = 0;
                for (i, &s) in scores.iter().enumerate() {
                    if s > scores[expected] {
                        expected = i;
                    }
                }
                scores.resize(len.div_ceil(BLOCK) * BLOCK, PAST_THE_END);
                assert_eq!(first_max(&scores), expected, "{scores:?}");
                #[cfg(target_arch = "x86_64")]
                {
                    // Both instruction sets, whichever the CPU picks above.
                    // SAFETY: SSE2 is part of the x86-64 baseline.
                    assert_eq!(unsafe { first_max_sse2(&scores) }, expected);
                    if std::is_x86_feature_detected!("avx2") {
                        // SAFETY: the CPU has AVX2 (just detected).
                        assert_eq!(unsafe { first_max_avx2(&scores) }, expected);
                    }
                }
            }
        }
    }

    #[test]
    fn looking_ahead_leaves_the_picks_as_they_were() {
        let history = History::default();
        let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let fill = |list: &mut MoveList| *list = pos.legal_moves();
        let mut plain = MovePicker::empty();
        let mut ahead = MovePicker::empty();
        plain.refill_staged(fill, 0, (&history, Continuation::default()), &pos, 1);
        ahead.refill_staged(fill, 0, (&history, Continuation::default()), &pos, 1);
        let expected: Vec<Move> = std::iter::from_fn(|| plain.next_move_staged(&history)).collect();
        let mut picked = Vec::new();
        let mut foreseen = 0;
        while let Some(seen) = ahead.peek() {
            let m = ahead.next_move_staged(&history).unwrap();
            foreseen += usize::from(m == seen);
            picked.push(m);
        }
        assert_eq!(picked, expected);
        // Every pick: the first quiet move is scored only when reached, but
        // with empty histories all quiet moves score alike, so the first one
        // pending is also the first picked.
        assert_eq!(foreseen, expected.len());
    }

    #[test]
    fn quiet_keys_are_equal_exactly_when_the_moves_are_and_tactical_moves_capture_or_promote() {
        // Moves of positions with castling, en passant and promotions, and
        // the same squares reached by different pieces across positions.
        let mut moves = Vec::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/R2QK2R w KQ - 0 1",
            "4k3/8/8/8/8/8/8/R2BK2R w KQ - 0 1",
        ] {
            moves.extend(position(fen).legal_moves());
        }
        let mut plain = 0;
        for a in &moves {
            assert_eq!(is_tactical(a), a.is_capture() || a.is_promotion(), "{a}");
            let key = quiet_key(a);
            assert_eq!(
                key == 0,
                is_tactical(a) || !matches!(a, Move::Normal { .. }),
                "{a}"
            );
            plain += usize::from(key != 0);
            for b in &moves {
                if key != 0 {
                    assert_eq!(key == quiet_key(b), a == b, "{a} {b}");
                }
            }
        }
        assert!(plain > 100, "{plain}");
    }

    #[test]
    fn the_table_move_found_while_scoring_is_the_first_pick_of_the_scan() {
        let history = History::default();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos = position(fen);
            let fill = |list: &mut MoveList| *list = pos.legal_moves();
            // Every move as the table move, and a code no move has.
            let moves = pos.legal_moves();
            for code in moves.iter().map(encode_move).chain([0xFFF]) {
                let mut kept = MovePicker::empty();
                let mut scanned = MovePicker::empty();
                kept.refill(fill, code, (&history, Continuation::default()), &pos, 1);
                scanned.refill(fill, code, (&history, Continuation::default()), &pos, 1);
                assert_eq!(kept.ahead.is_some(), code != 0xFFF, "{fen}");
                // The picks of the scan from the first: what the kept slot stands for.
                scanned.ahead = None;
                let picks = |p: &mut MovePicker| -> Vec<Move> {
                    std::iter::from_fn(|| p.next_move_staged(&history)).collect()
                };
                let (kept, scanned) = (picks(&mut kept), picks(&mut scanned));
                assert_eq!(kept, scanned, "{fen}");
                if code != 0xFFF {
                    assert_eq!(encode_move(&kept[0]), code, "{fen}");
                }
            }
        }
    }

    #[test]
    fn dropping_the_quiet_moves_leaves_the_later_picks_as_they_were() {
        let history = History::default();
        // Each position with whether its losing captures' scores all differ (the
        // quiet moves are then dropped; else picked through), the quiet moves left
        // after the first and the losing captures.
        for (fen, distinct, quiets_left, losing) in [
            // Two losing captures, Qxf6 and Bxf7+, of different scores.
            (
                "r1bqkb1r/pp3ppp/2np1n2/4p3/2B1P3/2N2Q2/PPPP1PPP/R1B1K1NR w KQkq - 0 6",
                true,
                39,
                2,
            ),
            // Five, among them a tie: Nxd7 and Nxf7, a knight taking a defended pawn.
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
                39,
                5,
            ),
            // One, Qxd5 (exd5 keeps material).
            ("4k3/8/2p5/3p4/4P3/8/8/3QK3 w - - 0 1", true, 17, 1),
            // No capture at all.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, 14, 0),
        ] {
            let mut dropped = at_first_quiet(fen, &history);
            let rest = dropped.next..dropped.len();
            let scores: Vec<i32> = rest
                .filter(|&i| is_tactical(&dropped.moves[i]))
                .map(|i| dropped.scores[i])
                .collect();
            let differ = scores
                .iter()
                .all(|s| scores.iter().filter(|&t| t == s).count() == 1);
            assert_eq!(differ, distinct, "{fen}");
            let mut picked = at_first_quiet(fen, &history);
            let count = dropped.drop_quiets(&history, 0);
            let mut quiets = 0;
            let mut expected = Vec::new();
            while let Some(m) = picked.next_move_staged(&history) {
                if is_tactical(&m) {
                    expected.push(m);
                } else {
                    assert!(expected.is_empty(), "{fen}: a quiet move after {m}");
                    quiets += 1;
                }
            }
            let rest: Vec<Move> =
                std::iter::from_fn(|| dropped.next_move_staged(&history)).collect();
            assert_eq!(rest, expected, "{fen}");
            assert_eq!(count, quiets, "{fen}");
            assert_eq!((count, expected.len()), (quiets_left, losing), "{fen}");
        }
    }
}

//! Quiescence search, in named phases: terminal checks and the table probe, stand
//! pat (or all evasions when in check), the capture loop with delta and SEE
//! pruning, and the table store.
//!
//! Only captures and queen promotions are searched (all evasions in check), so the
//! static evaluation is only trusted in quiet positions. Past [`RECAPTURES_FROM`]
//! plies inside quiescence only recaptures are tried, so that nets that do not
//! (yet) value material cannot make it explode on positions full of even trades.

use shakmaty::{Chess, Move, Position, Square};

use super::captures::legal_captures;
use super::correction::pawn_key;
use super::history::PieceTo;
use super::movepick::{fill_legal, is_tactical};
use super::params::{piece_value, DELTA_MARGIN, QS_QUIET_EVASIONS, RECAPTURES_FROM};
use super::score::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::see::see_ge;
use super::worker::{tt_cutoff, Worker};

/// How a quiescence node starts: decided at once, or its moves are in the ply's
/// picker (`ThreadData::pickers`) with the stand-pat value (`-INFINITE` in check).
enum Start {
    /// The value is decided without searching moves.
    Done(i32),
    /// Search the moves of the ply's picker.
    Search(i32),
}

impl Worker<'_, '_> {
    /// Quiescence search at `ply`, `qply` plies into quiescence; `last_to` is the
    /// previous move's destination (for the recapture-only phase). `in_check`:
    /// whether the side to move is in check when the caller knows it (a main
    /// search node at depth 0, told by its parent), else `None` and tested here.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn qsearch(
        &mut self,
        pos: &Chess,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        last_to: Option<Square>,
        in_check: Option<bool>,
    ) -> i32 {
        self.td.pv_len[ply.min(MAX_PLY)] = ply.min(MAX_PLY);
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_insufficient_material() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let key = self.current_key();
        let tt = self.shared.tt.probe(key);
        if let Some(v) = tt.and_then(|e| tt_cutoff(&e, ply, alpha, beta)) {
            return v;
        }
        let in_check = in_check.unwrap_or_else(|| pos.is_check());
        let tt_move = tt.map_or(0, |e| e.mv);
        let tt_eval = tt.map(|e| e.eval).filter(|e| e.abs() < MATE_BOUND);
        let raw_eval = (!in_check).then(|| tt_eval.unwrap_or_else(|| self.evaluate(pos)));
        let eval = raw_eval.map(|v| self.corrected(pos, v));
        let stand_pat = match self.q_start(pos, tt_move, eval, beta, ply, qply, last_to) {
            Start::Done(v) => return v,
            Start::Search(stand_pat) => stand_pat,
        };
        let mut best = stand_pat;
        let mut best_move = None;
        let mut a = alpha.max(stand_pat);
        let mut quiet_evasions = 0;
        while let Some(m) = self.td.pickers[ply].next_move() {
            let keeps = self.td.pickers[ply].last_keeps_material();
            if self.q_skip(
                pos,
                &m,
                (in_check, quiet_evasions),
                (stand_pat, a, best),
                keeps,
            ) {
                continue;
            }
            quiet_evasions += u32::from(in_check && !is_tactical(&m));
            self.td.stack[ply].moved = Some(PieceTo::of(pos.turn(), &m));
            let child = self.make(pos, m);
            let v = -self.qsearch(&child, -beta, -a, ply + 1, qply + 1, Some(m.to()), None);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > a {
                    a = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let stored_eval = raw_eval.unwrap_or(0);
        self.store(key, best, (alpha, beta), best_move, stored_eval, 0, ply);
        best
    }

    /// The static evaluation `raw` of `pos` corrected by its pawn structure's
    /// correction history (`correction.rs`), kept out of the mate range.
    #[inline]
    fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        let key = pawn_key(pos.board());
        self.td
            .correction
            .apply(pos.turn(), key, raw)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// In check (no static evaluation): all evasions (mate if none). Otherwise
    /// stand pat on the static evaluation `eval`, cutting at once when it
    /// reaches beta, then the captures (recaptures only when deep).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn q_start(
        &mut self,
        pos: &Chess,
        tt_move: u16,
        eval: Option<i32>,
        beta: i32,
        ply: usize,
        qply: u32,
        last_to: Option<Square>,
    ) -> Start {
        let cont = self.continuation(ply);
        let Some(stand_pat) = eval else {
            let fill = |list: &mut shakmaty::MoveList| fill_legal(list, pos);
            self.td.pickers[ply].fill(fill);
            if self.td.pickers[ply].is_empty() {
                return Start::Done(-MATE + ply as i32);
            }
            // As for the captures below: the evasions' buckets load while
            // they are scored.
            self.prefetch_children(pos, ply);
            self.td.pickers[ply].score(tt_move, (&self.td.history, cont), pos, ply);
            return Start::Search(-INFINITE);
        };
        if stand_pat >= beta {
            return Start::Done(stand_pat);
        }
        let fill = |list: &mut shakmaty::MoveList| {
            legal_captures(pos, list);
            if qply >= RECAPTURES_FROM {
                list.retain(|m| m.is_capture() && Some(m.to()) == last_to);
            }
        };
        // The children's buckets are prefetched before the captures are scored
        // (SEE), so that the loads overlap the scoring.
        self.td.pickers[ply].fill(fill);
        self.prefetch_children(pos, ply);
        self.td.pickers[ply].score(tt_move, (&self.td.history, cont), pos, ply);
        Start::Search(stand_pat)
    }

    /// Moves not worth searching: in check, quiet evasions after the first
    /// [`QS_QUIET_EVASIONS`] once one evasion escaped mate (all of them, chained
    /// with checking captures, blow up the tree; none at all misses the king step
    /// that holds where every capture loses); otherwise captures
    /// that cannot reach alpha even winning the victim for free (delta pruning) or
    /// that lose material (SEE).
    /// `keeps` is the picker's SEE verdict on `m` when it has one.
    fn q_skip(
        &self,
        pos: &Chess,
        m: &Move,
        (in_check, quiet_evasions): (bool, u32),
        (stand_pat, alpha, best): (i32, i32, i32),
        keeps: Option<bool>,
    ) -> bool {
        if in_check {
            return best > -MATE_BOUND && !is_tactical(m) && quiet_evasions >= QS_QUIET_EVASIONS;
        }
        if m.promotion().is_some() {
            return false;
        }
        let gain = m.capture().map_or(0, piece_value);
        stand_pat + gain + DELTA_MARGIN <= alpha
            || !keeps.unwrap_or_else(|| see_ge(pos.board(), pos.turn(), m, 0))
    }
}

//! Principal variation search of the nodes below the root, in named phases:
//! draws and terminal checks, mate-distance pruning, the table probe, the static
//! evaluation (refined by the table's value), pruning before any move is searched
//! (reverse futility, null move), internal iterative reduction, the
//! singular-extension test of the table move, then the move loop (move-count, SEE
//! and futility pruning, late-move reductions, PVS re-searches, histories on
//! cutoffs), and the table store.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, Position};

use super::check::gives_check;
use super::correction::pawn_key;
use super::history::{Continuation, PieceTo};
use super::movepick::{fill_legal, is_tactical};
use super::params::*;
use super::score::{from_tt, Bound, DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::see::{attacked, see_ge};
use super::tt::{decode_quiet, encode_move, TtEntry};
use super::worker::{lmr, null_key, tt_cutoff, Worker};

/// The fifty-move rule: a game is drawn after this many plies without a capture
/// or a pawn move (unless the last of them mated).
const FIFTY_MOVE_PLIES: u32 = 100;

/// A node's window and circumstances, fixed before its moves are searched.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub pv_node: bool,
    /// A null-window node expected to fail high (Stockfish's cut node): the
    /// first move of its parent's all node, a reduced late move, a null move's
    /// reply to an all node. Its late moves are expected to fail low, so they
    /// are reduced more.
    pub cut_node: bool,
    pub in_check: bool,
    /// The static evaluation corrected by the correction history (`-INFINITE` in
    /// check).
    pub static_eval: i32,
    /// The evaluation as the net gives it (0 in check): what the table stores.
    pub raw_eval: i32,
    /// The pawn structure's key in the correction history.
    pub pawns: u64,
    /// The static evaluation refined by the table's value where its bound allows:
    /// what pruning before the moves compares with beta.
    pub eval: i32,
    /// The static evaluation rose since two plies before: prune and reduce less.
    pub improving: bool,
    pub us: Color,
    /// The moves that led here, for continuation histories.
    pub cont: Continuation,
    /// The table move's code (0 for none) and the extension singular search gave it.
    pub tt_move: u16,
    pub singular: i32,
    /// The move a singular-extension search leaves out (0: none).
    pub excluded: u16,
    /// The table move is a capture or promotion: quiet moves are unlikely to do
    /// better, so they are reduced more (set in the move loop, once it is known).
    pub tt_tactical: bool,
}

/// What the singular-extension test decided for the table move.
enum Singular {
    /// Search it this many plies deeper (-1: shallower, 2: a double extension).
    Extend(i32),
    /// Several moves beat beta: the node fails high with this value.
    Cutoff(i32),
}

impl Worker<'_, '_> {
    /// Principal variation search of a non-root node. `in_check` says whether the
    /// side to move in `pos` is in check: the parent knows it already (whether
    /// its move gave check), so the node does not test the board again, once per
    /// search of the same child (reduced search and re-searches).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        pos: &Chess,
        in_check: bool,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        null_ok: bool,
    ) -> i32 {
        debug_assert_eq!(in_check, pos.is_check());
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, None, Some(in_check));
        }
        self.enter(ply);
        if self.stopped {
            return 0;
        }
        if let Some(v) = self.draw_or_horizon(pos, in_check, ply) {
            return v;
        }
        // Mate distance pruning: no line here can beat a shorter mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // A singular-extension search of this node (one move left out) must not
        // take or leave the table's verdict on the whole node.
        let excluded = self.td.stack[ply].excluded;
        let tt = if excluded == 0 {
            self.shared.tt.probe(self.current_key())
        } else {
            None
        };
        if let Some(v) = tt.and_then(|e| self.tt_cut(pos, &e, depth, (alpha, beta), ply, pv_node)) {
            return v;
        }
        let mut node = self.node(
            pos,
            tt,
            depth,
            (alpha, beta),
            ply,
            (pv_node, cut_node, in_check),
        );
        if !pv_node && !in_check && excluded == 0 {
            if let Some(v) = self.prune_before_moves(pos, &node, null_ok) {
                // Kept as the lower bound it is, with the static evaluation the
                // node computed, so that a later visit need not evaluate again.
                if !self.stopped {
                    let key = self.current_key();
                    self.store(key, v, (alpha, beta), None, node.raw_eval, depth, ply);
                }
                return v;
            }
        }
        // Internal iterative reduction: without a table move this node was not
        // searched before; search it shallower first.
        if node.tt_move == 0 && excluded == 0 && depth >= IIR_MIN_DEPTH {
            node.depth -= 1;
        }
        if let Some(e) = tt {
            match self.singular(pos, &node, &e) {
                Singular::Extend(plies) => node.singular = plies,
                Singular::Cutoff(v) => return v,
            }
        }
        let (best, best_move) = match self.search_moves(pos, node) {
            Ok(result) => result,
            Err(terminal) => return terminal,
        };
        if self.stopped || excluded != 0 {
            return if self.stopped { 0 } else { best };
        }
        self.finish(&node, best, best_move);
        best
    }

    /// The table's verdict on the node when its depth and bound decide the window
    /// (never at PV nodes). A quiet table move that beat beta is rewarded in the
    /// histories as if it had cut here, so that the ordering learns from the
    /// table's cutoffs too.
    fn tt_cut(
        &mut self,
        pos: &Chess,
        e: &TtEntry,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        pv_node: bool,
    ) -> Option<i32> {
        if pv_node || e.depth < depth {
            return None;
        }
        let v = tt_cutoff(e, ply, alpha, beta)?;
        if v >= beta {
            if let Some(m) = decode_quiet(pos, e.mv) {
                let cont = self.continuation(ply);
                self.td
                    .history
                    .reward(pos.turn(), (ply, depth), &m, cont, (&[], &[]));
            }
        }
        Some(v)
    }

    /// The node's circumstances: its static evaluation (from the table when it
    /// has one, corrected by the pawn structure's correction history) and what
    /// follows from it.
    fn node(
        &mut self,
        pos: &Chess,
        tt: Option<TtEntry>,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        (pv_node, cut_node, in_check): (bool, bool, bool),
    ) -> Node {
        let raw_eval = (!in_check).then(|| match tt {
            Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
            _ => self.evaluate(pos),
        });
        let pawns = pawn_key(pos.board());
        let static_eval = raw_eval.map(|v| {
            self.td
                .correction
                .apply(pos.turn(), pawns, v)
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        });
        self.td.stack[ply].static_eval = static_eval;
        Node {
            depth,
            alpha,
            beta,
            ply,
            pv_node,
            cut_node,
            in_check,
            static_eval: static_eval.unwrap_or(-INFINITE),
            raw_eval: raw_eval.unwrap_or(0),
            pawns,
            eval: static_eval.map_or(-INFINITE, |v| refined_eval(v, tt, ply)),
            improving: self.improving(ply, static_eval),
            us: pos.turn(),
            cont: self.continuation(ply),
            tt_move: tt.map_or(0, |e| e.mv),
            singular: 0,
            excluded: self.td.stack[ply].excluded,
            tt_tactical: false,
        }
    }

    /// Stores the node's result in the table and, where the result says more than
    /// its bound allows about the static evaluation's error (a quiet best move or
    /// none, not in check), teaches the correction history.
    fn finish(&mut self, node: &Node, best: i32, best_move: Option<Move>) {
        let (alpha, beta) = (node.alpha, node.beta);
        // A bound says something about the error only on its open side: a fail
        // high that the static value already reached, or a fail low it was already
        // below, teaches nothing.
        let telling = if best >= beta {
            best > node.static_eval
        } else if best <= alpha {
            best < node.static_eval
        } else {
            true
        };
        let quiet = best_move.as_ref().is_none_or(|m| !is_tactical(m));
        if telling && quiet && !node.in_check && best.abs() < MATE_BOUND {
            let diff = best - node.raw_eval;
            self.td
                .correction
                .update(node.us, node.pawns, node.depth, diff);
        }
        let key = self.current_key();
        let depth = node.depth;
        self.store(
            key,
            best,
            (alpha, beta),
            best_move,
            node.raw_eval,
            depth,
            node.ply,
        );
    }

    /// Whether the static evaluation `eval` at `ply` is higher than two plies
    /// before (or four, when the side was in check then; true when neither is known).
    fn improving(&self, ply: usize, eval: Option<i32>) -> bool {
        let Some(eval) = eval else {
            return false;
        };
        let earlier = |n: usize| {
            ply.checked_sub(n)
                .and_then(|p| self.td.stack[p].static_eval)
        };
        earlier(2).or_else(|| earlier(4)).is_none_or(|e| eval > e)
    }

    /// Singular extension: when the table says its move beats a value at nearly
    /// this depth, search the node without that move at half the depth against a
    /// margin below that value. If nothing else comes close, the move is singular
    /// and searched a ply deeper; if the others beat beta too (multi-cut), the node
    /// fails high at once.
    #[inline(never)]
    fn singular(&mut self, pos: &Chess, node: &Node, e: &TtEntry) -> Singular {
        let (depth, ply) = (node.depth, node.ply);
        let tt_value = from_tt(e.value, ply);
        let candidate = e.mv != 0
            && depth >= SE_MIN_DEPTH
            && e.depth >= depth - SE_TT_DEPTH_MARGIN
            && e.bound != Bound::Upper
            && tt_value.abs() < MATE_BOUND
            && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth;
        if !candidate {
            return Singular::Extend(0);
        }
        let singular_beta = tt_value - SE_BETA_MARGIN * depth;
        self.td.stack[ply].excluded = e.mv;
        let v = self.search(
            pos,
            node.in_check,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
            node.cut_node,
            false,
        );
        self.td.stack[ply].excluded = 0;
        let doubles = self.td.stack[ply].double_extensions;
        if v < singular_beta - SE_DOUBLE_MARGIN && !node.pv_node && doubles < SE_DOUBLE_MAX {
            Singular::Extend(2)
        } else if v < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= node.beta {
            Singular::Cutoff(singular_beta)
        } else if tt_value >= node.beta {
            // Another move nearly as good, and the table move is expected to beat
            // beta anyway: it needs less depth to show it (negative extension).
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Counts the node and clears its line.
    #[inline]
    fn enter(&mut self, ply: usize) {
        self.td.pv_len[ply] = ply;
        self.tick();
        self.seldepth = self.seldepth.max(ply);
    }

    /// Draw by repetition, material or fifty moves (unless this move mated), or the
    /// static value at the maximum ply.
    fn draw_or_horizon(&mut self, pos: &Chess, in_check: bool, ply: usize) -> Option<i32> {
        if self.is_repetition(pos.halfmoves()) || pos.is_insufficient_material() {
            return Some(DRAW);
        }
        if pos.halfmoves() >= FIFTY_MOVE_PLIES && (!in_check || !pos.legal_moves().is_empty()) {
            return Some(DRAW);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos));
        }
        None
    }

    /// Reverse futility and null-move pruning (non-PV nodes not in check).
    fn prune_before_moves(&mut self, pos: &Chess, node: &Node, null_ok: bool) -> Option<i32> {
        let (depth, beta, eval) = (node.depth, node.beta, node.eval);
        // Reverse futility: far above beta at low depth, assume it holds (with a
        // smaller margin while the evaluation is improving).
        let margin = RFP_MARGIN * (depth - i32::from(node.improving));
        if depth <= RFP_MAX_DEPTH && eval - margin >= beta && eval < MATE_BOUND {
            return Some(eval);
        }
        // Null move: if passing still beats beta, a real move will too (not with
        // only pawns left, where zugzwang is common).
        if null_ok && depth >= NMP_MIN_DEPTH && eval >= beta && has_pieces(pos, node.us) {
            return self.null_move(pos, node);
        }
        None
    }

    #[inline(never)]
    fn null_move(&mut self, pos: &Chess, node: &Node) -> Option<i32> {
        let null_pos = pos.clone().swap_turn().ok()?;
        let beta = node.beta;
        let r = NMP_BASE
            + node.depth / NMP_DEPTH_DIVISOR
            + ((node.eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
        self.td.stack[node.ply].moved = None;
        self.td.stack[node.ply + 1].double_extensions = self.td.stack[node.ply].double_extensions;
        self.td.evaluator.push_null();
        self.keys.push(null_key(pos, self.current_key()));
        let floor = std::mem::replace(&mut self.rep_floor, self.keys.len());
        // Not in check: the side to move now is the one that was not to move
        // before the pass, whose king a legal position leaves unattacked.
        let v = -self.search(
            &null_pos,
            false,
            node.depth - 1 - r,
            -beta,
            -beta + 1,
            node.ply + 1,
            false,
            !node.cut_node,
            false,
        );
        self.rep_floor = floor;
        self.keys.pop();
        self.td.evaluator.pop();
        if self.stopped {
            return Some(0);
        }
        (v >= beta).then_some(if v >= MATE_BOUND { beta } else { v })
    }

    /// The move loop. `Err` carries the value of a node without legal moves (mate
    /// or stalemate); `Ok` the best value and move (none if all failed low).
    fn search_moves(&mut self, pos: &Chess, mut node: Node) -> Result<(i32, Option<Move>), i32> {
        let ply = node.ply;
        self.td.history.clear_killers(ply + 1);
        self.td.pickers[ply].refill_staged(
            |list| fill_legal(list, pos),
            node.tt_move,
            (&self.td.history, node.cont),
            pos,
            ply,
        );
        if self.td.pickers[ply].is_empty() {
            return Err(no_moves_value(node.in_check, ply));
        }
        let mut alpha = node.alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        // The moves tried before a cutoff, whose histories it lowers (on the
        // stack: a cutoff is frequent enough that a heap list per cutoff showed).
        let mut quiets: ArrayVec<Move, QUIETS_REMEMBERED> = ArrayVec::new();
        let mut tacticals: ArrayVec<Move, TACTICALS_REMEMBERED> = ArrayVec::new();
        let mut index = 0usize;
        while let Some(m) = self.td.pickers[ply].next_move_staged(&self.td.history) {
            if node.excluded != 0 && encode_move(&m) == node.excluded {
                continue;
            }
            index += 1;
            let quiet = !is_tactical(&m);
            if index == 1 && node.tt_move != 0 && encode_move(&m) == node.tt_move {
                node.tt_tactical = !quiet;
            }
            // The depth the move would get after its late-move reduction: what
            // the pruning of quiet moves below looks at.
            if quiet && late_move(&node, index, best) {
                // So are the quiet moves after it: dropped at once.
                index += self.td.pickers[ply].drop_quiets(&self.td.history, node.excluded);
                continue;
            }
            let lmr_depth = (node.depth - 1 - lmr(self.lmr, node.depth, index)).max(0);
            if self.skip_before_make(pos, &node, &m, lmr_depth, best) {
                continue;
            }
            // Decided on the board: a futile move is never made.
            let gives_check = gives_check(pos, &m);
            if self.futile(&node, (quiet, gives_check), lmr_depth, alpha, best) {
                continue;
            }
            self.td.stack[ply].moved = Some(PieceTo::of(node.us, &m));
            self.look_ahead(pos, &node, index);
            let child = self.make(pos, m);
            let v = self.search_child(&child, &node, m, index, alpha, gives_check);
            self.unmake();
            if self.stopped {
                return Ok((0, None));
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    if node.pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= node.beta {
                        self.reward_cutoff(&node, &m, &quiets, &tacticals);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets.try_push(m);
            } else {
                let _ = tacticals.try_push(m);
            }
        }
        // Every move was pruned: fall back to a value below alpha.
        Ok((if best == -INFINITE { alpha } else { best }, best_move))
    }

    /// Once a move of the node failed to cut (or from the first move at a node
    /// expected to fail low, where every move is searched), prefetches the
    /// table bucket of the next pick's child ([`Worker::prefetch_next`]) before
    /// move number `index` is searched.
    #[inline]
    fn look_ahead(&mut self, pos: &Chess, node: &Node, index: usize) {
        if index > 1 || !(node.cut_node || node.pv_node) {
            self.prefetch_next(pos, node.ply);
        }
    }

    /// A move beat beta: reward it in its history (butterfly and continuation for a
    /// quiet move, capture history for a tactical one) and penalise those tried
    /// before it.
    fn reward_cutoff(&mut self, node: &Node, m: &Move, quiets: &[Move], tacticals: &[Move]) {
        let history = &mut self.td.history;
        if is_tactical(m) {
            history.reward_capture(node.us, node.depth, m, tacticals);
        } else {
            let at = (node.ply, node.depth);
            history.reward(node.us, at, m, node.cont, (quiets, tacticals));
        }
    }

    /// History pruning of quiet moves and SEE pruning of those that lose
    /// material (by the reduced depth `lmr_depth`), SEE pruning of losing
    /// captures. (Move-count pruning is [`late_move`].)
    fn skip_before_make(
        &self,
        pos: &Chess,
        node: &Node,
        m: &Move,
        lmr_depth: i32,
        best: i32,
    ) -> bool {
        if node.pv_node || node.in_check || best <= -MATE_BOUND {
            return false;
        }
        let depth = node.depth;
        if !is_tactical(m) {
            // (Move-count pruning came first: `late_move`.) The exchange last: it
            // costs the most.
            self.history_prunes(node, m) || {
                let board = pos.board();
                let margin = -QUIET_SEE_MARGIN * lmr_depth * lmr_depth;
                lmr_depth <= QUIET_SEE_MAX_DEPTH
                    && attacked(board, !node.us, m.to())
                    && !see_ge(board, node.us, m, margin)
            }
        } else {
            depth <= SEE_MAX_DEPTH && !see_ge(pos.board(), node.us, m, SEE_MARGIN * depth)
        }
    }

    /// History pruning: at low depth a quiet move whose histories (butterfly and
    /// both continuations) say it keeps failing here is not worth a search. Killers
    /// are kept: they refuted a sibling, whatever their history says.
    fn history_prunes(&self, node: &Node, m: &Move) -> bool {
        node.depth <= HISTORY_PRUNE_MAX_DEPTH
            && self.td.history.score(node.us, m, node.cont) < -HISTORY_PRUNE_MARGIN * node.depth
            && !self.td.history.killers(node.ply).contains(&Some(*m))
    }

    /// Futility: a quiet, non-checking move that cannot lift the static value to
    /// alpha within a margin for the depth it would be searched at after its
    /// reduction (`lmr_depth`).
    fn futile(
        &self,
        node: &Node,
        (quiet, gives_check): (bool, bool),
        lmr_depth: i32,
        alpha: i32,
        best: i32,
    ) -> bool {
        let prunable = !node.pv_node && !node.in_check && quiet && best > -MATE_BOUND;
        prunable
            && !gives_check
            && lmr_depth <= FUTILITY_MAX_DEPTH
            && node.static_eval + FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth <= alpha
    }

    /// Searches one child: the first move with the full window, later ones with a
    /// null window, reduced if late and quiet, re-searched when they beat alpha.
    /// Every search of the child is told whether it is in check (the move gave
    /// check), so it does not test its board again.
    fn search_child(
        &mut self,
        child: &Chess,
        node: &Node,
        m: Move,
        index: usize,
        alpha: i32,
        gives_check: bool,
    ) -> i32 {
        let (ply, beta, pv_node) = (node.ply, node.beta, node.pv_node);
        let check = i32::from(gives_check && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth);
        // (Encoded only when there is an extension to give: most nodes have none.)
        let singular = if node.singular != 0 && encode_move(&m) == node.tt_move {
            node.singular
        } else {
            0
        };
        let new_depth = node.depth - 1 + check + singular;
        let doubles = self.td.stack[ply].double_extensions + u8::from(singular == 2);
        self.td.stack[ply + 1].double_extensions = doubles;
        // Every search of the child differs only in depth, window and node kind.
        let reply = |s: &mut Self, depth: i32, window: (i32, i32), pv: bool, cut: bool| {
            -s.search(
                child,
                gives_check,
                depth,
                window.0,
                window.1,
                ply + 1,
                pv,
                cut,
                true,
            )
        };
        if index == 1 {
            return reply(
                self,
                new_depth,
                (-beta, -alpha),
                pv_node,
                !pv_node && !node.cut_node,
            );
        }
        let r = self.reduction(node, &m, index, gives_check, new_depth);
        let null_window = (-alpha - 1, -alpha);
        let mut v = reply(self, new_depth - r, null_window, false, true);
        if v > alpha && r > 0 {
            v = reply(self, new_depth, null_window, false, !node.cut_node);
        }
        if pv_node && v > alpha && v < beta {
            v = reply(self, new_depth, (-beta, -alpha), true, false);
        }
        v
    }

    /// Late-move reduction of a move after the first (two at PV nodes): by the
    /// table, less in PV nodes, in check, for checks, killers, moves with a good
    /// history and while improving; more at expected cut nodes and after a tactical
    /// table move. A late capture or promotion (the picker puts those that lose
    /// material after the quiet moves) is reduced a ply less than a quiet move.
    fn reduction(
        &self,
        node: &Node,
        m: &Move,
        index: usize,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        let depth = node.depth;
        if depth < LMR_MIN_DEPTH || index <= 1 + usize::from(node.pv_node) {
            return 0;
        }
        let mut r = lmr(self.lmr, depth, index);
        r -= i32::from(node.pv_node);
        r -= i32::from(node.in_check);
        r -= i32::from(gives_check);
        r += LMR_CUT_NODE * i32::from(node.cut_node);
        if is_tactical(m) {
            r -= LMR_TACTICAL_RELIEF;
        } else {
            r += i32::from(!node.improving);
            r += LMR_TT_TACTICAL * i32::from(node.tt_tactical);
            if self.td.history.killers(node.ply).contains(&Some(*m)) {
                r -= 1;
            }
            r -= self.td.history.score(node.us, m, node.cont) / LMR_HISTORY_DIVISOR;
        }
        r.clamp(0, new_depth - 1)
    }
}

/// The value of a node without legal moves: mated in check, else stalemate.
#[inline]
fn no_moves_value(in_check: bool, ply: usize) -> i32 {
    if in_check {
        -MATE + ply as i32
    } else {
        DRAW
    }
}

/// Move-count pruning: at low depth, a quiet move after the first few is not
/// searched (non-PV nodes not in check, once a move was searched). A later quiet
/// move is late as well, so the caller drops the rest of them at once.
#[inline]
fn late_move(node: &Node, index: usize, best: i32) -> bool {
    if node.pv_node || node.in_check || best <= -MATE_BOUND {
        return false;
    }
    let depth = node.depth;
    let factor = if node.improving {
        LMP_FACTOR_IMPROVING
    } else {
        LMP_FACTOR
    };
    depth <= LMP_MAX_DEPTH && index as i32 > LMP_BASE + factor * depth * depth
}

/// Whether `color` has a piece other than pawns and king (null move is unsafe in
/// pawn endings because of zugzwang).
#[inline]
fn has_pieces(pos: &Chess, color: Color) -> bool {
    let b = pos.board();
    (b.by_color(color) & !(b.pawns() | b.kings())).any()
}

/// The static evaluation `eval` replaced by the table's value when its bound says
/// the true value lies beyond it on that side (a searched value is the better guess).
#[inline]
fn refined_eval(eval: i32, tt: Option<TtEntry>, ply: usize) -> i32 {
    let Some(e) = tt else {
        return eval;
    };
    let v = from_tt(e.value, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v > eval,
        Bound::Upper => v < eval,
    };
    if beyond && v.abs() < MATE_BOUND {
        v
    } else {
        eval
    }
}

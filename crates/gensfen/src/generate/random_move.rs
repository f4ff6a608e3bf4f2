//! Random moves for diversity (formats.md 3.2): which plies get one, and which
//! move it is (uniform, Apery's king moves, or drawn from a MultiPV search).

use nnue_engine::search::{Limits, SearchContext, SearchControl, Searcher};
use shakmaty::{Chess, Move, Position, Role};

use super::options::GenConfig;
use crate::rng::GenRng;

/// Which plies of one game are played randomly.
pub struct RandomPlan {
    /// `flags[ply]`: a random move at 0-based `ply`.
    flags: Vec<bool>,
    /// `--random-move-minply -1`: the first `count` plies instead of `flags`.
    first_plies: bool,
    count: u32,
    /// Random moves played so far.
    played: u32,
}

impl RandomPlan {
    /// Draws `count` distinct plies among `max(minply - 1, 0) .. maxply` (0-based),
    /// as Stockfish's partial Fisher-Yates does.
    pub fn new(config: &GenConfig, rng: &mut GenRng) -> RandomPlan {
        let maxply = config.random_move_maxply as usize;
        let mut flags = vec![false; maxply + config.random_move_count as usize];
        let first = (config.random_move_minply - 1).max(0) as usize;
        let mut candidates: Vec<usize> = (first..maxply).collect();
        let picks = (config.random_move_count as usize).min(candidates.len());
        if config.random_move_minply != -1 {
            for i in 0..picks {
                let j = i + rng.below((candidates.len() - i) as u64) as usize;
                candidates.swap(i, j);
                flags[candidates[i]] = true;
            }
        }
        RandomPlan {
            flags,
            first_plies: config.random_move_minply == -1,
            count: config.random_move_count,
            played: 0,
        }
    }

    /// Whether 0-based `ply` gets a random move.
    fn due(&self, ply: usize) -> bool {
        if self.first_plies {
            self.played < self.count
        } else {
            self.flags.get(ply).copied().unwrap_or(false)
        }
    }

    /// Apery's scheme: the opponent's next ply is random too (inserted, so later
    /// planned plies move one further, as in Stockfish).
    fn insert_after(&mut self, ply: usize) {
        let at = (ply + 1).min(self.flags.len());
        self.flags.insert(at, true);
    }
}

/// Where a random move is chosen: the run's settings, the random stream, and the
/// searcher for `--random-multi-pv` with the run's stop flag.
pub struct Chooser<'a> {
    pub config: &'a GenConfig,
    pub rng: &'a mut GenRng,
    pub searcher: &'a mut Searcher,
    pub control: &'a SearchControl,
}

/// The random move for `ply`, if the plan has one there.
pub fn choose(plan: &mut RandomPlan, c: &mut Chooser, pos: &Chess, ply: usize) -> Option<Move> {
    let (config, rng) = (c.config, &mut *c.rng);
    if !plan.due(ply) {
        return None;
    }
    plan.played += 1;
    if config.random_multi_pv > 0 {
        return multipv_move(config, pos, rng, c.searcher, c.control);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let apery = config.random_move_like_apery;
    if apery > 0 && rng.below(apery) == 0 {
        let kings: Vec<&Move> = moves.iter().filter(|m| m.role() == Role::King).collect();
        if !kings.is_empty() {
            let m = *kings[rng.below(kings.len() as u64) as usize];
            if rng.below(2) == 0 {
                plan.insert_after(ply);
            }
            return Some(m);
        }
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// One of the MultiPV lines within `--random-multi-pv-diff` of the best, uniformly.
fn multipv_move(
    config: &GenConfig,
    pos: &Chess,
    rng: &mut GenRng,
    searcher: &mut Searcher,
    control: &SearchControl,
) -> Option<Move> {
    let limits = Limits {
        depth: Some(config.random_multi_pv_depth),
        nodes: config.random_multi_pv_nodes,
        multipv: Some(config.random_multi_pv),
        ..Limits::default()
    };
    let context = SearchContext {
        control: Some(control),
        ..SearchContext::default()
    };
    let result = searcher.search_with(pos, &limits, context);
    let lines = &result.lines;
    let best = lines.first()?.value;
    let within = lines
        .iter()
        .take_while(|l| best <= l.value + config.random_multi_pv_diff)
        .count();
    Some(lines[rng.below(within as u64) as usize].mv)
}

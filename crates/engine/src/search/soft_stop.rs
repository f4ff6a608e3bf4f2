//! Whether the main thread starts another iteration under a clock.
//!
//! The budget's optimum (`time.rs`) is what a move of average difficulty deserves.
//! After each iteration the optimum is scaled by three things the search has just
//! learnt, as modern engines do:
//! - how many iterations in a row kept the best move (a settled choice needs less);
//! - the share of the root's nodes spent on the best move (a best move that took
//!   most of the effort has been refuted by nothing; one that took little is
//!   contested and deserves more time);
//! - how far the score fell since the iterations before (a falling score means
//!   the engine is discovering a problem: think longer; a rising one, less).
//!
//! The product of the three is capped at [`SOFT_SCALE_MAX`] (1.3), the old time
//! manager's largest scale: uncapped it reached 4.8, the opening moves took
//! several optimums and long games were played on the increment. Capped, the
//! search kept about 0.4 s more after move 40 at 5+0.05 and rated +40 [−19, +99]
//! above the uncapped one against the same opponents in one strength report
//! (docs/RESULTS.md, issue 39).
//!
//! A new iteration starts while the elapsed time is below the scaled optimum. The
//! hard maximum still cuts an iteration short; since an interrupted iteration's best
//! move is kept (`searcher.rs`), starting one that cannot finish wastes nothing.
//! Under `go movetime` there is nothing to save for later moves: the whole time is
//! used and this rule does not apply.

use std::time::Duration;

use shakmaty::Move;

use super::params::{
    EVAL_FALL_MAX, EVAL_FALL_MIN, EVAL_FALL_PER_UNIT, NODE_SHARE_BASE, NODE_SHARE_SCALE,
    SOFT_SCALE_MAX, STABILITY_SCALE,
};
use super::score::MATE_BOUND;

/// What the main thread remembers from iteration to iteration.
#[derive(Default)]
pub(crate) struct SoftStop {
    last_best: Option<Move>,
    stable_iterations: usize,
    /// The score of the previous completed iteration.
    last_score: Option<i32>,
}

/// What one completed iteration tells the time manager.
pub(crate) struct Iteration {
    pub best: Move,
    pub score: i32,
    /// Nodes the main thread spent below the best root move, and below all of them,
    /// this search so far.
    pub best_nodes: u64,
    pub all_nodes: u64,
}

impl SoftStop {
    /// Records a completed iteration and says whether to stop before the next one,
    /// `elapsed` into a search whose optimum is `optimum`.
    pub(crate) fn after(&mut self, it: &Iteration, elapsed: Duration, optimum: Duration) -> bool {
        if self.last_best == Some(it.best) {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
        }
        self.last_best = Some(it.best);
        let scale = (self.stability() * node_share_scale(it) * self.eval_fall_scale(it.score))
            .min(SOFT_SCALE_MAX);
        self.last_score = Some(it.score);
        elapsed.as_secs_f64() > optimum.as_secs_f64() * scale
    }

    /// A stable best move needs less time; a changing one more.
    fn stability(&self) -> f64 {
        STABILITY_SCALE[self.stable_iterations.min(STABILITY_SCALE.len() - 1)]
    }

    /// More time when the score fell since the last iteration, less when it rose
    /// (mate scores say nothing about difficulty: no change).
    fn eval_fall_scale(&self, score: i32) -> f64 {
        match self.last_score {
            Some(last) if last.abs() < MATE_BOUND && score.abs() < MATE_BOUND => {
                let fall = f64::from(last - score);
                (1.0 + fall * EVAL_FALL_PER_UNIT).clamp(EVAL_FALL_MIN, EVAL_FALL_MAX)
            }
            _ => 1.0,
        }
    }
}

/// `(base - share) * scale` of the best move's share of the root's nodes: about 1
/// when the best move took two thirds of the effort.
fn node_share_scale(it: &Iteration) -> f64 {
    if it.all_nodes == 0 {
        return 1.0;
    }
    let share = it.best_nodes as f64 / it.all_nodes as f64;
    (NODE_SHARE_BASE - share) * NODE_SHARE_SCALE
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn mv(to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to,
            promotion: None,
        }
    }

    fn iteration(to: Square, score: i32, share: f64) -> Iteration {
        Iteration {
            best: mv(to),
            score,
            best_nodes: (share * 1000.0) as u64,
            all_nodes: 1000,
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_settled_move_stops_before_the_optimum_and_a_contested_one_after() {
        let mut settled = SoftStop::default();
        for _ in 0..5 {
            settled.after(&iteration(Square::F3, 50, 0.9), ms(10), ms(100));
        }
        assert!(settled.after(&iteration(Square::F3, 50, 0.9), ms(80), ms(100)));
        let mut contested = SoftStop::default();
        contested.after(&iteration(Square::F3, 50, 0.3), ms(10), ms(100));
        assert!(!contested.after(&iteration(Square::H3, 50, 0.3), ms(120), ms(100)));
    }

    #[test]
    fn no_move_gets_more_than_the_capped_scale() {
        // Every scale at its largest (a new best move, no node share, a falling
        // score) would allow 4.8 optimums; the cap stops just past 1.3.
        let mut s = SoftStop::default();
        s.after(&iteration(Square::F3, 300, 0.0), ms(1), ms(100));
        assert!(!s.after(&iteration(Square::H3, -300, 0.0), ms(129), ms(100)));
        let mut s = SoftStop::default();
        s.after(&iteration(Square::F3, 300, 0.0), ms(1), ms(100));
        assert!(s.after(&iteration(Square::H3, -300, 0.0), ms(131), ms(100)));
    }

    #[test]
    fn a_falling_score_buys_time_and_a_rising_one_saves_it() {
        let run = |second: i32, elapsed: u64| {
            let mut s = SoftStop::default();
            s.after(&iteration(Square::F3, 0, 0.6), ms(1), ms(100));
            s.after(&iteration(Square::F3, second, 0.6), ms(elapsed), ms(100))
        };
        // The same elapsed time: stops after a rise, goes on after a fall.
        assert!(run(300, 125));
        assert!(!run(-300, 125));
    }
}

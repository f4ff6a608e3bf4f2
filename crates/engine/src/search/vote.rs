//! Lazy SMP thread voting: which thread's best move the search plays.
//!
//! With several threads the helpers search the same root, often deeper than the
//! main thread by the time the search stops (they start at staggered depths and
//! share the table). Playing only the main thread's move throws their work away.
//! As in Stockfish, every thread's last completed iteration votes for its best
//! move with a weight that grows with the score above the worst thread's and with
//! the depth it completed; the move with the most votes wins, and among the threads
//! that chose it the one whose own line is played is the first to reach that tally.
//! A thread that found a mate is preferred outright (the shortest mate).

use super::params::VOTE_SCORE_BASE;
use super::score::MATE_BOUND;
use super::searcher::PvLine;

/// One thread's answer: the best line of its last completed iteration.
#[derive(Clone, Debug)]
pub(crate) struct Vote {
    /// The depth of that iteration (0: none completed; it then weighs nothing).
    pub depth: i32,
    pub line: PvLine,
}

/// The index in `votes` (the main thread first) of the thread whose line is played.
pub(crate) fn elect(votes: &[Vote]) -> usize {
    let Some(min) = votes.iter().map(|v| v.line.value).min() else {
        return 0;
    };
    let weight = |v: &Vote| i64::from(v.line.value - min + VOTE_SCORE_BASE) * i64::from(v.depth);
    let tally = |mv| -> i64 { votes.iter().filter(|v| v.line.mv == mv).map(weight).sum() };
    let mut best = 0;
    for (i, v) in votes.iter().enumerate().skip(1) {
        let chosen = &votes[best];
        let better = if chosen.line.value >= MATE_BOUND {
            v.line.value > chosen.line.value
        } else {
            v.line.value >= MATE_BOUND || tally(v.line.mv) > tally(chosen.line.mv)
        };
        if better && v.depth > 0 {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;
    use shakmaty::{Move, Role, Square};

    fn vote(to: Square, value: i32, depth: i32) -> Vote {
        let mv = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to,
            promotion: None,
        };
        Vote {
            depth,
            line: PvLine {
                mv,
                value,
                depth: depth as u32,
                pv: vec![mv],
            },
        }
    }

    #[test]
    fn the_main_thread_wins_alone_or_when_all_agree() {
        assert_eq!(elect(&[vote(Square::F3, 20, 10)]), 0);
        let same = [vote(Square::F3, 20, 10), vote(Square::F3, 30, 12)];
        assert_eq!(elect(&same), 0);
    }

    #[test]
    fn deeper_and_better_helpers_outvote_the_main_thread() {
        let votes = [
            vote(Square::F3, 10, 10),
            vote(Square::H3, 60, 12),
            vote(Square::H3, 55, 12),
        ];
        assert_eq!(elect(&votes), 1);
        // A shallow helper with a slightly better score does not.
        let votes = [vote(Square::F3, 10, 14), vote(Square::H3, 15, 6)];
        assert_eq!(elect(&votes), 0);
    }

    #[test]
    fn a_mate_wins_and_the_shorter_mate_over_a_longer_one() {
        let votes = [
            vote(Square::F3, 900, 20),
            vote(Square::H3, MATE - 9, 8),
            vote(Square::E2, MATE - 5, 7),
        ];
        assert_eq!(elect(&votes), 2);
    }

    #[test]
    fn a_thread_that_completed_nothing_is_never_chosen() {
        let votes = [vote(Square::F3, 10, 5), vote(Square::H3, MATE - 3, 0)];
        assert_eq!(elect(&votes), 0);
    }
}

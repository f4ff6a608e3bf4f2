//! Time management: from the clock, how long to think about this move.
//!
//! Two numbers come out: an optimum (iterations stop starting after it) and a hard
//! maximum (the search is cut off mid-iteration). The maximum never exceeds what is
//! left on the clock minus the move overhead and a safety margin, so the engine never
//! loses on time, even with `movestogo 1` or a nearly empty clock.

use std::time::Duration;

use shakmaty::Color;

use super::limits::Limits;

use super::params::{
    DEFAULT_MOVES_TO_GO, INCREMENT_SHARE, LAST_MOVE_MAXIMUM, LAST_MOVE_OPTIMUM, MAXIMUM_OPTIMUMS,
    MAXIMUM_SHARE, OPTIMUM_LEFT_DIVISOR, SAFETY_MS, SUDDEN_DEATH_MOVES_TO_GO,
};

/// Kept back on every move on top of the move overhead (process scheduling, pipes).
/// Without increment (sudden death) the budget assumes more moves to go, since
/// every move's GUI latency comes out of a clock that never grows back.
const SAFETY: Duration = Duration::from_millis(SAFETY_MS);

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeBudget {
    pub optimum: Duration,
    pub maximum: Duration,
    /// `go movetime`: the whole time is the move's, so iterations go on until the
    /// maximum instead of stopping near the optimum (nothing is saved for later).
    pub exact: bool,
}

/// The budget `limits` give the side `us`, or `None` when there is no clock
/// (depth, nodes, infinite). `movetime` is used exactly, less the overhead.
pub(crate) fn budget(limits: &Limits, us: Color, overhead: Duration) -> Option<TimeBudget> {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(TimeBudget {
            optimum: t,
            maximum: t,
            exact: true,
        });
    }
    let (time, inc) = match us {
        Color::White => (limits.wtime?, limits.winc.unwrap_or_default()),
        Color::Black => (limits.btime?, limits.binc.unwrap_or_default()),
    };
    let left = time.saturating_sub(overhead + SAFETY);
    let mtg = match limits.movestogo {
        Some(n) => n.clamp(1, DEFAULT_MOVES_TO_GO),
        None if inc.is_zero() => SUDDEN_DEATH_MOVES_TO_GO,
        None => DEFAULT_MOVES_TO_GO,
    };
    let (optimum, maximum) = if mtg == 1 {
        (
            share(left, LAST_MOVE_OPTIMUM),
            share(left, LAST_MOVE_MAXIMUM),
        )
    } else {
        let optimum = (left / mtg + share(inc, INCREMENT_SHARE)).min(left / OPTIMUM_LEFT_DIVISOR);
        let maximum = (optimum * MAXIMUM_OPTIMUMS)
            .min(share(left, MAXIMUM_SHARE))
            .max(optimum);
        (optimum, maximum)
    };
    // No floor: with an almost empty clock the search stops right after its first
    // iteration (which always completes, so there is always a legal move).
    Some(TimeBudget {
        optimum,
        maximum,
        exact: false,
    })
}

/// `d * numerator / denominator` (multiplied first, as the shares were tuned).
fn share(d: Duration, (numerator, denominator): (u32, u32)) -> Duration {
    d * numerator / denominator
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_more_than_the_clock() {
        for time in [0u64, 1, 5, 20, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 100, 2000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let limits = Limits {
                        wtime: Some(ms(time)),
                        winc: Some(ms(inc)),
                        movestogo: mtg,
                        ..Limits::default()
                    };
                    let b = budget(&limits, Color::White, ms(10)).unwrap();
                    assert!(b.optimum <= b.maximum);
                    assert!(
                        b.maximum <= ms(time.saturating_sub(15)).max(ms(1)),
                        "{time}+{inc} {mtg:?}: {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn typical_budgets() {
        let limits = Limits {
            btime: Some(ms(1000)),
            binc: Some(ms(100)),
            ..Limits::default()
        };
        let b = budget(&limits, Color::Black, ms(10)).unwrap();
        assert!(b.optimum > ms(80) && b.optimum < ms(150), "{b:?}");
        assert_eq!(budget(&limits, Color::White, ms(10)), None);
        let mt = Limits {
            movetime: Some(ms(500)),
            ..Limits::default()
        };
        assert_eq!(budget(&mt, Color::White, ms(10)).unwrap().maximum, ms(490));
    }
}

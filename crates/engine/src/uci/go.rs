//! `go ...` into search [`Limits`]. A `go` must always end in a `bestmove`, or the GUI
//! waits forever, so a bad token is reported as an error line and skipped rather than
//! refusing the whole command.

use std::time::Duration;

use shakmaty::{uci::UciMove, Chess};

use crate::search::Limits;

/// The limits, and an error message for each token that could not be used as sent.
pub fn parse_go(args: &[&str], pos: &Chess) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !is_keyword(args[i]) {
                    let text = args[i];
                    i += 1;
                    match text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(pos).ok())
                    {
                        Some(m) => limits.searchmoves.push(m),
                        None => problems.push(format!(
                            "searchmoves: '{text}' is not a legal move here, ignored"
                        )),
                    }
                }
            }
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
            | "mate" => {
                let Some(text) = args.get(i) else {
                    problems.push(format!("'{key}' needs a number, ignored"));
                    continue;
                };
                i += 1;
                let (value, problem) = number(key, text);
                problems.extend(problem);
                if let Some(n) = value {
                    set_limit(&mut limits, key, n);
                }
            }
            other => problems.push(format!("unknown token '{other}', ignored")),
        }
    }
    (limits, problems)
}

/// The value to use for `key` (`None`: ignore it) and the error to report, if
/// any. A negative number is an error; a time, depth, node or mate limit then
/// takes its smallest value (a GUI that sends `wtime -20` is late: the engine
/// must move at once, not search without a limit).
fn number(key: &str, text: &str) -> (Option<u64>, Option<String>) {
    match text.parse::<i64>() {
        Err(_) => (
            None,
            Some(format!("'{key} {text}': not an integer, ignored")),
        ),
        Ok(v) if v >= 0 => (Some(v as u64), None),
        Ok(_) if key == "movestogo" => (None, Some(format!("'{key} {text}' is negative, ignored"))),
        Ok(_) => (
            Some(0),
            Some(format!(
                "'{key} {text}' is negative, the smallest value is used"
            )),
        ),
    }
}

/// Stores limit `key` (a `go` keyword that takes a number).
fn set_limit(limits: &mut Limits, key: &str, n: u64) {
    let ms = Duration::from_millis(n);
    match key {
        "depth" => limits.depth = Some(n.clamp(1, 255) as u32),
        "nodes" => limits.nodes = Some(n.max(1)),
        "movetime" => limits.movetime = Some(ms),
        "wtime" => limits.wtime = Some(ms),
        "btime" => limits.btime = Some(ms),
        "winc" => limits.winc = Some(ms),
        "binc" => limits.binc = Some(ms),
        "movestogo" => limits.movestogo = Some(n.min(u64::from(u32::MAX)) as u32),
        _ => limits.mate = Some(n.clamp(1, 255) as u32),
    }
}

fn is_keyword(token: &str) -> bool {
    matches!(
        token,
        "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(s: &str) -> (Limits, Vec<String>) {
        let args: Vec<&str> = s.split_whitespace().collect();
        parse_go(&args, &Chess::default())
    }

    #[test]
    fn clock_and_limits() {
        let (l, w) = go("wtime 1000 btime 20 winc 100 binc 0 movestogo 5 depth 7 nodes 9");
        assert!(w.is_empty());
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::from_millis(20)));
        assert_eq!(l.winc, Some(Duration::from_millis(100)));
        assert_eq!(l.movestogo, Some(5));
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nodes, Some(9));
    }

    #[test]
    fn negative_limits_are_errors_and_take_the_smallest_value() {
        let (l, w) = go("wtime -20 btime 500 winc -1 depth -3 nodes -5 movestogo -2 mate -1");
        assert_eq!(
            w,
            [
                "'wtime -20' is negative, the smallest value is used",
                "'winc -1' is negative, the smallest value is used",
                "'depth -3' is negative, the smallest value is used",
                "'nodes -5' is negative, the smallest value is used",
                "'movestogo -2' is negative, ignored",
                "'mate -1' is negative, the smallest value is used",
            ]
        );
        assert_eq!(l.wtime, Some(Duration::ZERO));
        assert_eq!(l.winc, Some(Duration::ZERO));
        assert_eq!(l.btime, Some(Duration::from_millis(500)));
        assert_eq!((l.depth, l.nodes, l.mate), (Some(1), Some(1), Some(1)));
        assert_eq!(l.movestogo, None);
        let (l, w) = go("movetime -100");
        assert_eq!(w.len(), 1);
        assert_eq!(l.movetime, Some(Duration::ZERO));
    }

    #[test]
    fn searchmoves_until_next_keyword() {
        let (l, w) = go("searchmoves e2e4 d2d4 e2e5 infinite");
        assert_eq!(l.searchmoves.len(), 2);
        assert!(l.infinite);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("e2e5"));
    }

    #[test]
    fn bad_tokens_are_errors() {
        let (l, w) = go("depth x movetime");
        assert_eq!(l.depth, None);
        assert_eq!(
            w,
            [
                "'depth x': not an integer, ignored",
                "'movetime' needs a number, ignored"
            ]
        );
        let (_, w) = go("sideways");
        assert_eq!(w, ["unknown token 'sideways', ignored"]);
    }
}

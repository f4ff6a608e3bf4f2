//! `go ...` into search [`Limits`]. A `go` must always end in a `bestmove`, or the GUI
//! waits forever, so a bad token is reported and skipped rather than refusing the
//! whole command.

use std::time::Duration;

use shakmaty::{uci::UciMove, Chess};

use crate::search::Limits;

/// The limits, and a warning for each token that could not be used.
pub fn parse_go(args: &[&str], pos: &Chess) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
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
                        None => warnings.push(format!(
                            "searchmoves: '{text}' is not a legal move here, ignored"
                        )),
                    }
                }
            }
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
            | "mate" => {
                let Some(text) = args.get(i) else {
                    warnings.push(format!("'{key}' needs a number, ignored"));
                    continue;
                };
                i += 1;
                let Ok(value) = text.parse::<i64>() else {
                    warnings.push(format!("'{key} {text}': not an integer, ignored"));
                    continue;
                };
                // GUIs send negative clock times when the engine is already late:
                // that is "no time left", not an error.
                let n = value.max(0) as u64;
                let ms = Duration::from_millis(n);
                match key {
                    "depth" => limits.depth = Some(n.clamp(1, 255) as u32),
                    "nodes" => limits.nodes = Some(n.max(1)),
                    "movetime" => limits.movetime = Some(ms),
                    "wtime" => limits.wtime = Some(ms),
                    "btime" => limits.btime = Some(ms),
                    "winc" => limits.winc = Some(ms),
                    "binc" => limits.binc = Some(ms),
                    "movestogo" => limits.movestogo = Some(n.min(u32::MAX as u64) as u32),
                    _ => limits.mate = Some(n.clamp(1, 255) as u32),
                }
            }
            other => warnings.push(format!("unknown token '{other}', ignored")),
        }
    }
    (limits, warnings)
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
        let (l, w) = go("wtime 1000 btime -20 winc 100 binc 0 movestogo 5 depth 7 nodes 9");
        assert!(w.is_empty());
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.btime, Some(Duration::ZERO));
        assert_eq!(l.winc, Some(Duration::from_millis(100)));
        assert_eq!(l.movestogo, Some(5));
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nodes, Some(9));
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
    fn bad_tokens_are_warnings() {
        let (l, w) = go("depth x movetime");
        assert_eq!(l.depth, None);
        assert_eq!(w.len(), 2);
        let (_, w) = go("sideways");
        assert!(w[0].contains("unknown token 'sideways'"));
    }
}

//! `go ...` into search [`Limits`]. A number a GUI sends out of range (`wtime -20`
//! from a GUI that is late, `depth 0`) is an error line and the nearest value in
//! range is used, because a `go` from a GUI must end in a `bestmove`. A number
//! that is not a number at all (`go depth abc`) is refused with the whole command:
//! searching without the limit the user meant could run forever.

use std::time::Duration;

use shakmaty::{uci::UciMove, Chess};
use thiserror::Error;

use super::number::{ArgRange, Reading};
use crate::search::{Limits, MAX_DEPTH};

/// `depth`: plies, up to the deepest iteration the search runs.
pub const DEPTH_RANGE: ArgRange = ArgRange::new(1, MAX_DEPTH as u64);
/// `nodes`: at least one node is searched.
pub const NODES_RANGE: ArgRange = ArgRange::new(1, u64::MAX);
/// `movetime`, `wtime`, `btime`, `winc`, `binc`: milliseconds.
pub const TIME_RANGE: ArgRange = ArgRange::new(0, u64::MAX);
/// `movestogo`: moves to the next time control.
pub const MOVES_TO_GO_RANGE: ArgRange = ArgRange::new(1, u32::MAX as u64);
/// `mate`: mate in at most this many moves.
pub const MATE_RANGE: ArgRange = ArgRange::new(1, 255);

/// A `go` that cannot be run as written: no search is started.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum GoError {
    #[error("'{key} {text}' is not an integer in {range}; no search started")]
    NotAnInteger {
        key: &'static str,
        text: String,
        range: ArgRange,
    },
    #[error("'{key}' needs an integer in {range}; no search started")]
    MissingNumber { key: &'static str, range: ArgRange },
}

/// A token of a `go` that could not be used as sent; the search runs without it
/// (or with the nearest value in range), and the problem is reported.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum GoWarning {
    #[error("'{key} {text}' is negative, the smallest value is used")]
    NegativeSmallest { key: &'static str, text: String },
    #[error("'{key} {text}' is negative, ignored")]
    NegativeIgnored { key: &'static str, text: String },
    #[error("'{key} {text}' is outside {range}, the nearest value is used")]
    OutOfRange {
        key: &'static str,
        text: String,
        range: ArgRange,
    },
    #[error("searchmoves: '{0}' is not a legal move here, ignored")]
    IllegalSearchMove(String),
    #[error("unknown token '{0}', ignored")]
    UnknownToken(String),
}

/// The `go` keywords that take an integer, with the range of each.
const NUMERIC: [(&str, ArgRange); 9] = [
    ("depth", DEPTH_RANGE),
    ("nodes", NODES_RANGE),
    ("movetime", TIME_RANGE),
    ("wtime", TIME_RANGE),
    ("btime", TIME_RANGE),
    ("winc", TIME_RANGE),
    ("binc", TIME_RANGE),
    ("movestogo", MOVES_TO_GO_RANGE),
    ("mate", MATE_RANGE),
];

/// The limits and a warning for each token that could not be used as sent, or
/// the error that refuses the whole command.
pub fn parse_go(args: &[&str], pos: &Chess) -> Result<(Limits, Vec<GoWarning>), GoError> {
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        i += 1;
        if let Some(&(key, range)) = NUMERIC.iter().find(|(k, _)| *k == token) {
            let Some(text) = args.get(i) else {
                return Err(GoError::MissingNumber { key, range });
            };
            i += 1;
            let (value, warning) = number(key, text, range)?;
            warnings.extend(warning);
            if let Some(n) = value {
                set_limit(&mut limits, key, n);
            }
            continue;
        }
        match token {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !is_keyword(args[i]) {
                    match legal_move(args[i], pos) {
                        Some(m) => limits.searchmoves.push(m),
                        None => warnings.push(GoWarning::IllegalSearchMove(args[i].to_string())),
                    }
                    i += 1;
                }
            }
            other => warnings.push(GoWarning::UnknownToken(other.to_string())),
        }
    }
    Ok((limits, warnings))
}

/// `text` as a legal move in `pos`.
fn legal_move(text: &str, pos: &Chess) -> Option<shakmaty::Move> {
    text.parse::<UciMove>().ok()?.to_move(pos).ok()
}

/// The value to use for `key` (`None`: ignore it) and the warning to report, if
/// any. Out of range, the nearest value in range is used: a GUI that sends
/// `wtime -20` is late, and the engine must move at once, not search without a
/// limit. A negative `movestogo` is ignored (the clock alone decides).
fn number(
    key: &'static str,
    text: &str,
    range: ArgRange,
) -> Result<(Option<u64>, Option<GoWarning>), GoError> {
    let text_owned = || text.to_string();
    Ok(match range.read(text) {
        Reading::In(v) => (Some(v), None),
        Reading::Negative if key == "movestogo" => (
            None,
            Some(GoWarning::NegativeIgnored {
                key,
                text: text_owned(),
            }),
        ),
        Reading::Negative => (
            Some(range.lo),
            Some(GoWarning::NegativeSmallest {
                key,
                text: text_owned(),
            }),
        ),
        Reading::Below => (Some(range.lo), Some(out_of_range(key, text, range))),
        Reading::Above => (Some(range.hi), Some(out_of_range(key, text, range))),
        Reading::NotInteger => {
            return Err(GoError::NotAnInteger {
                key,
                text: text_owned(),
                range,
            })
        }
    })
}

fn out_of_range(key: &'static str, text: &str, range: ArgRange) -> GoWarning {
    GoWarning::OutOfRange {
        key,
        text: text.to_string(),
        range,
    }
}

/// Stores limit `key` (a `go` keyword that takes a number), `n` in its range.
fn set_limit(limits: &mut Limits, key: &str, n: u64) {
    let ms = Duration::from_millis(n);
    match key {
        "depth" => limits.depth = Some(n as u32),
        "nodes" => limits.nodes = Some(n),
        "movetime" => limits.movetime = Some(ms),
        "wtime" => limits.wtime = Some(ms),
        "btime" => limits.btime = Some(ms),
        "winc" => limits.winc = Some(ms),
        "binc" => limits.binc = Some(ms),
        "movestogo" => limits.movestogo = Some(n as u32),
        _ => limits.mate = Some(n as u32),
    }
}

fn is_keyword(token: &str) -> bool {
    NUMERIC.iter().any(|(k, _)| *k == token)
        || matches!(token, "infinite" | "ponder" | "searchmoves")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(s: &str) -> (Limits, Vec<String>) {
        let args: Vec<&str> = s.split_whitespace().collect();
        let (limits, warnings) = parse_go(&args, &Chess::default()).unwrap();
        (limits, warnings.iter().map(ToString::to_string).collect())
    }

    fn refused(s: &str) -> String {
        let args: Vec<&str> = s.split_whitespace().collect();
        parse_go(&args, &Chess::default()).unwrap_err().to_string()
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
    fn out_of_range_limits_name_the_range_and_take_the_nearest_value() {
        let (l, w) = go("depth 0 nodes 0 mate 300 movestogo 0 depth 99999999999999999999999");
        assert_eq!(
            w,
            [
                "'depth 0' is outside 1..124, the nearest value is used",
                "'nodes 0' is outside 1..18446744073709551615, the nearest value is used",
                "'mate 300' is outside 1..255, the nearest value is used",
                "'movestogo 0' is outside 1..4294967295, the nearest value is used",
                "'depth 99999999999999999999999' is outside 1..124, the nearest value is used",
            ]
        );
        assert_eq!(
            (l.depth, l.nodes, l.mate, l.movestogo),
            (Some(124), Some(1), Some(255), Some(1))
        );
    }

    #[test]
    fn searchmoves_until_next_keyword() {
        let (l, w) = go("searchmoves e2e4 d2d4 e2e5 infinite");
        assert_eq!(l.searchmoves.len(), 2);
        assert!(l.infinite);
        assert_eq!(w, ["searchmoves: 'e2e5' is not a legal move here, ignored"]);
    }

    #[test]
    fn unknown_tokens_are_warnings() {
        let (_, w) = go("sideways");
        assert_eq!(w, ["unknown token 'sideways', ignored"]);
    }

    #[test]
    fn a_malformed_number_refuses_the_whole_command() {
        assert_eq!(
            refused("depth abc"),
            "'depth abc' is not an integer in 1..124; no search started"
        );
        assert_eq!(
            refused("wtime 1000 btime 1.5"),
            "'btime 1.5' is not an integer in 0..18446744073709551615; no search started"
        );
        assert_eq!(
            refused("infinite movetime"),
            "'movetime' needs an integer in 0..18446744073709551615; no search started"
        );
        for key in [
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "mate",
        ] {
            let message = refused(&format!("{key} x9"));
            assert!(
                message.starts_with(&format!("'{key} x9' is not an integer in ")),
                "{message}"
            );
        }
    }
}

//! The engine's UCI options: how they are announced after `uci` and how a
//! `setoption name <N> [value <V>]` line becomes a typed change. Ranges are checked
//! here so the search never sees an out-of-range value.

use super::error::UciError;
use super::number::{ArgRange, Reading};
use crate::default_net::DEFAULT_EVAL_FILE;

/// Hash table size limits in MiB.
pub const HASH_RANGE: ArgRange = ArgRange::new(1, 65536);
/// Default hash size in MiB (Stockfish's default too).
pub const HASH_DEFAULT: usize = 16;
/// Search threads.
pub const THREADS_RANGE: ArgRange = ArgRange::new(1, 256);
/// Principal variations reported.
pub const MULTIPV_RANGE: ArgRange = ArgRange::new(1, 256);
/// Time kept in reserve per move for GUI and pipe latency, in milliseconds.
pub const MOVE_OVERHEAD_RANGE: ArgRange = ArgRange::new(0, 5000);
/// Default move overhead in milliseconds.
pub const MOVE_OVERHEAD_DEFAULT: u64 = 10;

/// One validated `setoption`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionChange {
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    EvalFile(String),
    UseNnue(bool),
    ClearHash,
    MoveOverhead(u64),
    Ponder(bool),
}

/// The `option ...` lines printed after `id` in reply to `uci`.
pub fn announce() -> Vec<String> {
    vec![
        format!(
            "option name Hash type spin default {HASH_DEFAULT} min {} max {}",
            HASH_RANGE.lo, HASH_RANGE.hi
        ),
        format!(
            "option name Threads type spin default 1 min {} max {}",
            THREADS_RANGE.lo, THREADS_RANGE.hi
        ),
        format!(
            "option name MultiPV type spin default 1 min {} max {}",
            MULTIPV_RANGE.lo, MULTIPV_RANGE.hi
        ),
        format!("option name EvalFile type string default {DEFAULT_EVAL_FILE}"),
        "option name Use NNUE type check default true".to_string(),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Move Overhead type spin default {MOVE_OVERHEAD_DEFAULT} min {} max {}",
            MOVE_OVERHEAD_RANGE.lo, MOVE_OVERHEAD_RANGE.hi
        ),
        "option name Ponder type check default false".to_string(),
    ]
}

/// Parses the arguments after `setoption`. Option names are case-insensitive, as
/// the UCI protocol says.
pub fn parse_setoption(args: &[&str]) -> Result<OptionChange, UciError> {
    let err = |m: String| UciError::SetOptionArgument(m);
    if args.first() != Some(&"name") {
        return Err(err("expected 'name <option> [value <value>]'".to_string()));
    }
    let value_at = args.iter().position(|t| *t == "value");
    let (name_tokens, value) = match value_at {
        Some(i) => (&args[1..i], Some(args[i + 1..].join(" "))),
        None => (&args[1..], None),
    };
    let name = name_tokens.join(" ");
    let need = |v: &Option<String>| -> Result<String, UciError> {
        match v {
            Some(v) if !v.is_empty() => Ok(v.clone()),
            _ => Err(err(format!("option '{name}' needs a value"))),
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "hash" => spin(&name, &need(&value)?, HASH_RANGE).map(|v| OptionChange::Hash(v as usize)),
        "threads" => {
            spin(&name, &need(&value)?, THREADS_RANGE).map(|v| OptionChange::Threads(v as usize))
        }
        "multipv" => {
            spin(&name, &need(&value)?, MULTIPV_RANGE).map(|v| OptionChange::MultiPv(v as usize))
        }
        "move overhead" => {
            spin(&name, &need(&value)?, MOVE_OVERHEAD_RANGE).map(OptionChange::MoveOverhead)
        }
        "evalfile" => Ok(OptionChange::EvalFile(need(&value)?)),
        "use nnue" => check(&name, &need(&value)?).map(OptionChange::UseNnue),
        "ponder" => check(&name, &need(&value)?).map(OptionChange::Ponder),
        "clear hash" => Ok(OptionChange::ClearHash),
        "" => Err(err("missing option name".to_string())),
        _ => Err(err(format!("no such option '{name}'"))),
    }
}

/// A spin option's value in `range`; the error names the option, the value and
/// the range.
fn spin(name: &str, value: &str, range: ArgRange) -> Result<u64, UciError> {
    let value = value.trim();
    match range.read(value) {
        Reading::In(v) => Ok(v),
        Reading::NotInteger => Err(UciError::SetOptionArgument(format!(
            "option '{name}' wants an integer in {range}, got '{value}'"
        ))),
        Reading::Negative | Reading::Below | Reading::Above => Err(UciError::SetOptionArgument(
            format!("option '{name}' value {value} is outside {range}"),
        )),
    }
}

fn check(name: &str, value: &str) -> Result<bool, UciError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(UciError::SetOptionArgument(format!(
            "option '{name}' wants true or false, got '{value}'"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Result<OptionChange, UciError> {
        let args: Vec<&str> = s.split_whitespace().collect();
        parse_setoption(&args)
    }

    #[test]
    fn typed_changes() {
        assert_eq!(set("name Hash value 64"), Ok(OptionChange::Hash(64)));
        assert_eq!(set("name threads value 2"), Ok(OptionChange::Threads(2)));
        assert_eq!(
            set("name Use NNUE value false"),
            Ok(OptionChange::UseNnue(false))
        );
        assert_eq!(set("name Clear Hash"), Ok(OptionChange::ClearHash));
        assert_eq!(
            set("name Move Overhead value 100"),
            Ok(OptionChange::MoveOverhead(100))
        );
        assert_eq!(
            set("name EvalFile value my nets/a b.nnue"),
            Ok(OptionChange::EvalFile("my nets/a b.nnue".to_string()))
        );
    }

    #[test]
    fn out_of_range_and_garbage_are_errors() {
        for bad in [
            "name Hash value 0",
            "name Hash value 99999999999999999999999",
            "name Threads value 257",
            "name MultiPV value -1",
            "name Hash value lots",
            "name Hash",
            "name Use NNUE value maybe",
            "name Nonsense value 1",
            "value 3",
            "",
        ] {
            assert!(set(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn range_errors_name_the_option_the_value_and_the_range() {
        let message = |s: &str| set(s).unwrap_err().to_string();
        assert_eq!(
            message("name Hash value 0"),
            "setoption: option 'Hash' value 0 is outside 1..65536"
        );
        assert_eq!(
            message("name Threads value 99999999999999999999999"),
            "setoption: option 'Threads' value 99999999999999999999999 is outside 1..256"
        );
        assert_eq!(
            message("name Move Overhead value -5"),
            "setoption: option 'Move Overhead' value -5 is outside 0..5000"
        );
        assert_eq!(
            message("name MultiPV value many"),
            "setoption: option 'MultiPV' wants an integer in 1..256, got 'many'"
        );
    }
}

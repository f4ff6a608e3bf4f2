//! How the programs word numbers in their messages: a count with its noun in the
//! right number ("1 thread", "2 threads"), and a range as a person writes it
//! ("1 to 100", "at least 1"), never as Rust writes it (`1..=100`, or
//! `1..9223372036854775807` for an option without an upper bound).

/// An upper bound at or above this is no bound to a user: it is a type's
/// maximum, which is what clap prints for a range open at the top (`1..`).
const UNBOUNDED: i128 = i32::MAX as i128;

/// `n` and `noun`, with an `s` unless `n` is 1.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The integers `low..=high` in words: "1 to 100", or "at least 1" when `high`
/// is no real bound.
pub fn range_words(low: i128, high: i128) -> String {
    if high >= UNBOUNDED {
        format!("at least {low}")
    } else {
        format!("{low} to {high}")
    }
}

/// A Rust range of integers as clap prints it (`1..=100`, `0..9223372036854775807`)
/// in words; `None` for anything else.
fn rust_range_words(text: &str) -> Option<String> {
    if let Some((low, high)) = text.split_once("..=") {
        return Some(range_words(low.parse().ok()?, high.parse().ok()?));
    }
    let (low, end) = text.split_once("..")?;
    let end: i128 = end.parse().ok()?;
    Some(range_words(low.parse().ok()?, end - 1))
}

/// `text` with clap's "V is not in A..=B" rewritten as "V is out of range (A to
/// B)" (or "(at least A)"): what a value out of an option's range prints.
pub fn humanize_ranges(text: &str) -> String {
    const CLAP: &str = " is not in ";
    let Some(at) = text.find(CLAP) else {
        return text.to_owned();
    };
    let rest = &text[at + CLAP.len()..];
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    match rust_range_words(&rest[..end]) {
        Some(words) => format!("{} is out of range ({words}){}", &text[..at], &rest[end..]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(0, "thread"), "0 threads");
        assert_eq!(count(1, "thread"), "1 thread");
        assert_eq!(count(2, "thread"), "2 threads");
    }

    #[test]
    fn ranges_are_written_in_words() {
        let cases = [
            ("-1 is not in 1..=100", "-1 is out of range (1 to 100)"),
            (
                "0 is not in 1..9223372036854775807",
                "0 is out of range (at least 1)",
            ),
            (
                "-5 is not in 0..9223372036854775807",
                "-5 is out of range (at least 0)",
            ),
            (
                "-5 is not in 1..=2147483647",
                "-5 is out of range (at least 1)",
            ),
            (
                "-2 is not in -1..=65535",
                "-2 is out of range (-1 to 65535)",
            ),
            ("7 is not in 1..8 tail", "7 is out of range (1 to 7) tail"),
            ("x is not in [0, 1)", "x is not in [0, 1)"),
            ("no range here", "no range here"),
        ];
        for (clap, words) in cases {
            assert_eq!(humanize_ranges(clap), words, "{clap}");
        }
    }
}

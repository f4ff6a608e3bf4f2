//! Text read from a file, as an error line quotes it. Every error is one line
//! ([`super::Program`]), but a damaged or hostile file can hold any text: a line
//! break inside a quoted value would split the error, and a value is as long as
//! its file allows. [`one_line`] escapes the one and cuts the other.

/// `text` with control characters and every whitespace but the space escaped
/// as Rust writes them (`\r`, `\t`, `\u{2028}`), cut after `max_chars`
/// characters (`...` then marks the cut).
pub fn one_line(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push_str("...");
            break;
        }
        if c.is_control() || (c.is_whitespace() && c != ' ') {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_are_escaped_and_long_text_cut() {
        assert_eq!(one_line("a b", 10), "a b");
        assert_eq!(
            one_line("a\r\nb\tc\u{85}\u{2028}", 20),
            "a\\r\\nb\\tc\\u{85}\\u{2028}"
        );
        assert_eq!(one_line("abcdef", 3), "abc...");
        assert_eq!(one_line("abc", 3), "abc");
        assert_eq!(one_line("é\u{1}", 1), "é...");
    }
}

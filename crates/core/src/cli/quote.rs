//! Text read from a file, as an error line quotes it. Every error is one line
//! ([`super::Program`]), but a damaged or hostile file can hold any text: a line
//! break inside a quoted value would split the error, and a value is as long as
//! its file allows. [`one_line`] escapes the one and cuts the other.

/// `text` with control characters and every whitespace but the space escaped
/// as Rust writes them (`\r`, `\t`, `\u{2028}`), cut to at most `max_chars`
/// characters of the escaped text (`...` then marks the cut).
pub fn one_line(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for c in text.chars() {
        let escape = c.is_control() || (c.is_whitespace() && c != ' ');
        let shown: String = if escape {
            c.escape_debug().collect()
        } else {
            c.to_string()
        };
        len += shown.chars().count();
        if len > max_chars {
            out.push_str("...");
            break;
        }
        out.push_str(&shown);
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
            one_line("a\r\nb\tc\u{85}\u{2028}", 23),
            "a\\r\\nb\\tc\\u{85}\\u{2028}"
        );
        assert_eq!(one_line("a\r\nb", 4), "a\\r...");
        assert_eq!(one_line("abcdef", 3), "abc...");
        assert_eq!(one_line("abc", 3), "abc");
        assert_eq!(one_line("é\u{1}", 4), "é...");
    }
}

//! Property tests of the opening book reader (`generate --book`), which CI runs
//! in place of the fuzz target `fuzz/fuzz_targets/load_book.rs`: books of real
//! EPD lines (`data/openings.epd`), damaged ones, arbitrary text with every kind
//! of whitespace, bytes that are not UTF-8 and very long lines must load or
//! give one error line naming the file and the line, never panic; a book that
//! loads holds one legal position per position line, each of which plays.

use std::path::Path;
use std::sync::OnceLock;

use nnue_gensfen::generate::book::Book;
use nnue_test_support::damage::check_error_line;
use proptest::prelude::*;
use shakmaty::Position;

/// The name the reader is given.
const SOURCE: &str = "damaged-book.epd";
/// Longest error line accepted, in characters: a quoted line is cut to 100
/// characters once escaped.
const MAX_ERROR_LEN: usize = 400;

/// The lines of the repository's book of balanced openings.
fn real_lines() -> &'static Vec<String> {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/openings.epd");
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().take(200).map(str::to_string).collect()
    })
}

/// Lines that are position lines (not empty, not comments) once trimmed.
fn position_lines(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes)
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count()
}

/// Reads `bytes` as a book: one short error line naming the file, or one legal
/// position per position line, each with moves to play or a result.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Book::from_bytes(bytes, Path::new(SOURCE), 7) {
        Err(e) => {
            let text = e.to_string();
            check_error_line(&text, SOURCE)?;
            let chars = text.chars().count();
            prop_assert!(chars <= MAX_ERROR_LEN, "{chars} characters: {text}");
        }
        Ok(book) => {
            prop_assert_eq!(book.len(), position_lines(bytes));
            for n in 0..book.len() as u64 {
                let pos = book.get(n);
                prop_assert!(!pos.legal_moves().is_empty() || pos.is_game_over());
            }
        }
    }
    Ok(())
}

/// A line: a real one, a real one with a changed byte, or arbitrary text from
/// FEN characters, every whitespace Rust knows and a few others.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let n = real_lines().len();
    prop_oneof![
        (0..n).prop_map(|i| real_lines()[i].clone().into_bytes()),
        (0..n, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, at, b)| {
            let mut line = real_lines()[i].clone().into_bytes();
            let at = at.index(line.len());
            line[at] = b;
            line
        }),
        "[pnbrqkPNBRQK0-9/a-h \t\r\u{b}\u{c}\u{85}\u{2028}#;\"-]{0,90}"
            .prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 0..40),
    ]
}

#[test]
fn the_real_book_loads() {
    let bytes = real_lines().join("\n").into_bytes();
    let book = Book::from_bytes(&bytes, Path::new(SOURCE), 7).unwrap();
    assert_eq!(book.len(), 200);
}

/// Regression inputs: a lone carriage return inside a line was quoted as is
/// (splitting the error line), a long line in full; bytes that are not UTF-8
/// made the whole file unreadable without naming the line.
#[test]
fn bad_lines_are_named_on_one_short_line() {
    let cases: [(Vec<u8>, String); 4] = [
        // Found by the fuzz target: a control character escapes to up to ten
        // characters, so this 95-character line was quoted in 458 (the cut
        // now counts the escaped text).
        (
            [&b"p\0\0"[..], &[4; 90], b"\0a"].concat(),
            format!(
                "{SOURCE}:1: not a legal FEN/EPD position: 'p\\0\\0{}...' has 1 fields, \
                 expected at least 4",
                "\\u{4}".repeat(19)
            ),
        ),
        (
            b"8/8/8/8\rw -".to_vec(),
            format!(
                "{SOURCE}:1: not a legal FEN/EPD position: '8/8/8/8\\rw -' has 3 fields, \
                 expected at least 4"
            ),
        ),
        (
            format!("{}\n{} w", real_lines()[0], "k".repeat(5000)).into_bytes(),
            format!(
                "{SOURCE}:2: not a legal FEN/EPD position: '{}...' has 2 fields, expected at \
                 least 4",
                "k".repeat(100)
            ),
        ),
        (
            [real_lines()[0].as_bytes(), b"\n\n\xff\xfe w - -"].concat(),
            format!("{SOURCE}:3: not a legal FEN/EPD position: the line is not UTF-8 text"),
        ),
    ];
    for (bytes, expected) in cases {
        let error = Book::from_bytes(&bytes, Path::new(SOURCE), 7).unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
    let empty = Book::from_bytes(b"# nothing\n\n", Path::new(SOURCE), 7).unwrap_err();
    assert_eq!(
        empty.to_string(),
        format!("{SOURCE}: the book holds no position")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_books_load_or_give_one_error_line(
        lines in prop::collection::vec(line(), 1..12),
        crlf in any::<bool>(),
    ) {
        let end: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        check(&lines.join(end))?;
    }

    #[test]
    fn huge_lines_give_one_short_error_line(
        fill in "[pk1-8/ ]",
        repeat in 1000..20_000usize,
        prefix in 0..3usize,
    ) {
        let lines = [&real_lines()[..prefix], &[fill.repeat(repeat)]].concat();
        check(lines.join("\n").as_bytes())?;
    }
}

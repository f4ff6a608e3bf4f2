//! Any bytes given as an opening book (`generate --book`, `Book::from_bytes`)
//! must load or give one error line naming the file and the line, never panic;
//! every position of a book that loads has moves or a result. CI runs
//! `crates/gensfen/tests/book_proptest.rs` instead.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use nnue_gensfen::generate::book::Book;
use shakmaty::Position;

const SOURCE: &str = "fuzz-book.epd";
/// Longest error line, in characters: a quoted line is cut to 100 characters
/// once escaped.
const MAX_ERROR_LEN: usize = 400;

fuzz_target!(|data: &[u8]| {
    match Book::from_bytes(data, Path::new(SOURCE), 1) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains(SOURCE) && !text.contains(['\n', '\r']),
                "{text}"
            );
            assert!(text.chars().count() <= MAX_ERROR_LEN, "{text}");
        }
        Ok(book) => {
            for n in 0..book.len() as u64 {
                let pos = book.get(n);
                assert!(!pos.legal_moves().is_empty() || pos.is_game_over());
            }
        }
    }
});

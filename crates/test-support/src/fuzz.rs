//! The input convention of the cargo-fuzz targets of `fuzz/` that damage a
//! valid file, and the error check they share.

use crate::damage::{damaged, Damage};

/// The file a fuzz input spells, `None` for an empty input. The first byte:
/// even, the rest is the file; odd, the rest is a list of changes
/// ([`Damage::decode`]) to one of `valid`, picked by the byte's higher bits
/// (with two files, bit 1 picks the second).
pub fn fuzz_input(data: &[u8], valid: &[&[u8]]) -> Option<Vec<u8>> {
    let (&mode, rest) = data.split_first()?;
    Some(if mode % 2 == 1 {
        let file = valid[usize::from(mode / 2) % valid.len()];
        damaged(file, &Damage::decode(rest))
    } else {
        rest.to_vec()
    })
}

/// Panics unless a reader's error `text` names `source` on one line (no line
/// feed or carriage return).
pub fn assert_error_line(text: &str, source: &str) {
    assert!(
        text.contains(source) && !text.contains(['\n', '\r']),
        "{text}"
    );
}

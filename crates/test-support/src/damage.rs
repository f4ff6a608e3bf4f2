//! Damaged copies of a valid file, for the property tests that CI runs in place
//! of the cargo-fuzz targets of `fuzz/`: a reader given a real file with flipped
//! bytes, overwritten length fields, a cut or extra bytes must load it or refuse
//! it with one line naming the file, never panic or allocate without bound.
//! Mutating a real file reaches the code behind the headers, which random bytes
//! almost never do.

use std::ops::Range;

use proptest::prelude::*;

/// Values written over a field: zero, one, the extremes of 32 and 64 bits, and
/// values just past the limits a length field is checked against.
const FIELD_VALUES: [u64; 8] = [
    0,
    1,
    0xFF,
    0xFFFF,
    u32::MAX as u64,
    u32::MAX as u64 + 1,
    u64::MAX / 2,
    u64::MAX,
];
/// Characters that end a line somewhere (a terminal, an editor, Unicode).
const LINE_BREAKS: [char; 7] = [
    '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}',
];
/// Most bytes one [`Damage::Extend`] appends.
const MAX_TAIL: usize = 64;

/// One change to a file's bytes; positions wrap around the current length, so
/// every change applies to every file.
#[derive(Clone, Debug)]
pub enum Damage {
    /// `byte ^= mask` (a nonzero mask changes the byte).
    Xor { at: usize, mask: u8 },
    /// A little-endian 8-byte value written from `at` (cut at the file's end):
    /// a 32-bit field gets its low half, a 64-bit count the whole value.
    Field { at: usize, value: u64 },
    /// The file cut to `len` bytes (`len` taken modulo the length plus one).
    Truncate { len: usize },
    /// Bytes appended.
    Extend { tail: Vec<u8> },
}

impl Damage {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let wrap = |at: usize, n: usize| if n == 0 { 0 } else { at % n };
        match self {
            Damage::Xor { at, mask } => {
                let at = wrap(*at, bytes.len());
                if let Some(b) = bytes.get_mut(at) {
                    *b ^= mask;
                }
            }
            Damage::Field { at, value } => {
                let start = wrap(*at, bytes.len());
                let end = (start + 8).min(bytes.len());
                bytes[start..end].copy_from_slice(&value.to_le_bytes()[..end - start]);
            }
            Damage::Truncate { len } => {
                let len = wrap(*len, bytes.len() + 1);
                bytes.truncate(len);
            }
            Damage::Extend { tail } => bytes.extend_from_slice(tail),
        }
    }
}

/// Bytes of one change in a fuzz input: kind, 4-byte position, 4-byte argument.
const FUZZ_CHANGE_LEN: usize = 9;

impl Damage {
    /// The changes a fuzz input spells, [`FUZZ_CHANGE_LEN`] bytes each (a
    /// shorter rest is ignored), so the cargo-fuzz targets damage a valid file
    /// as the property tests do and their seeds stay a few bytes long.
    pub fn decode(data: &[u8]) -> Vec<Damage> {
        data.chunks_exact(FUZZ_CHANGE_LEN)
            .map(|c| {
                let at = u32::from_le_bytes([c[1], c[2], c[3], c[4]]) as usize;
                let arg = [c[5], c[6], c[7], c[8]];
                match c[0] % 4 {
                    0 => Damage::Xor {
                        at,
                        mask: arg[0].max(1),
                    },
                    1 => Damage::Field {
                        at,
                        value: FIELD_VALUES[usize::from(arg[0]) % FIELD_VALUES.len()],
                    },
                    2 => Damage::Truncate { len: at },
                    _ => Damage::Extend { tail: arg.to_vec() },
                }
            })
            .collect()
    }
}

/// `bytes` with `changes` applied in order.
pub fn damaged(bytes: &[u8], changes: &[Damage]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for change in changes {
        change.apply(&mut out);
    }
    out
}

/// A position, half the time inside one of the `hot` ranges (headers, length
/// fields, hashes: where a reader decides what follows), else anywhere below `len`.
fn position(len: usize, hot: Vec<Range<usize>>) -> BoxedStrategy<usize> {
    let anywhere = (0..len.max(1)).boxed();
    if hot.is_empty() {
        return anywhere;
    }
    let hot = prop::sample::select(hot)
        .prop_flat_map(|r| r.start..r.end.max(r.start + 1))
        .boxed();
    prop_oneof![anywhere, hot].boxed()
}

/// One to four changes to a file of `len` bytes, positions chosen by [`position`].
pub fn damage(len: usize, hot: Vec<Range<usize>>) -> impl Strategy<Value = Vec<Damage>> {
    let at = position(len, hot);
    let one = prop_oneof![
        4 => (at.clone(), 1..=255u8).prop_map(|(at, mask)| Damage::Xor { at, mask }),
        2 => (at, prop::sample::select(&FIELD_VALUES[..]))
            .prop_map(|(at, value)| Damage::Field { at, value }),
        1 => (0..=len).prop_map(|len| Damage::Truncate { len }),
        1 => prop::collection::vec(any::<u8>(), 1..MAX_TAIL)
            .prop_map(|tail| Damage::Extend { tail }),
    ];
    prop::collection::vec(one, 1..=4)
}

/// Checks a reader's error message: one line, naming `source`.
pub fn check_error_line(message: &str, source: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        message.contains(source),
        "the error does not name {source}: {message}"
    );
    prop_assert!(
        !message.contains(LINE_BREAKS),
        "the error is not one line: {message:?}"
    );
    Ok(())
}

//! Integer arguments of commands (`perft 5`, `bench 13`, `go depth 12`,
//! `setoption name Hash value 64`): each has a stated range, and a value is read
//! against it as in range, below, above or not an integer at all, so that every
//! command can say which value it refused and what it accepts.

use std::fmt;

/// The values an argument accepts, both ends included; printed `lo..hi`, the
/// notation of the engine's messages and of UCI's `min`/`max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgRange {
    pub lo: u64,
    pub hi: u64,
}

/// Where a text falls relative to an [`ArgRange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// An integer in the range.
    In(u64),
    /// A negative integer.
    Negative,
    /// A non-negative integer below the range.
    Below,
    /// An integer above the range (however many digits it has).
    Above,
    /// Not an integer (letters, a decimal point, nothing after the sign).
    NotInteger,
}

impl ArgRange {
    /// The range `lo..hi`.
    pub const fn new(lo: u64, hi: u64) -> ArgRange {
        ArgRange { lo, hi }
    }

    /// Reads `text` (an optional sign, then decimal digits) against the range.
    pub fn read(self, text: &str) -> Reading {
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Reading::NotInteger;
        }
        let zero = digits.bytes().all(|b| b == b'0');
        if negative && !zero {
            return Reading::Negative;
        }
        match digits.parse::<u64>() {
            Ok(v) if v < self.lo => Reading::Below,
            Ok(v) if v > self.hi => Reading::Above,
            Ok(v) => Reading::In(v),
            // Only digits, yet no u64: too many of them.
            Err(_) => Reading::Above,
        }
    }

    /// The value of `text` if it is an integer in the range.
    pub fn parse(self, text: &str) -> Option<u64> {
        match self.read(text) {
            Reading::In(v) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for ArgRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: ArgRange = ArgRange::new(1, 64);

    #[test]
    fn readings() {
        assert_eq!(R.read("1"), Reading::In(1));
        assert_eq!(R.read("+64"), Reading::In(64));
        assert_eq!(R.read("0"), Reading::Below);
        assert_eq!(R.read("-0"), Reading::Below);
        assert_eq!(R.read("-3"), Reading::Negative);
        assert_eq!(R.read("65"), Reading::Above);
        assert_eq!(R.read("99999999999999999999999"), Reading::Above);
        for bad in ["", "-", "x", "1.5", "1e3", " 1", "0x10", "abc"] {
            assert_eq!(R.read(bad), Reading::NotInteger, "{bad:?}");
        }
        assert_eq!(R.parse("7"), Some(7));
        assert_eq!(R.parse("0"), None);
        assert_eq!(R.to_string(), "1..64");
    }
}

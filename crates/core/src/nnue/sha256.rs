//! SHA-256 digests of nets (through the `sha2` crate), for Stockfish's naming
//! convention (`nn-` + first 12 hex digits of the file's SHA-256 + `.nnue`) and for
//! checking generated files against published digests.

use sha2::{Digest, Sha256};

/// How many hex digits of the digest a Stockfish net name carries.
pub const NAME_DIGITS: usize = 12;

/// The SHA-256 digest of `data` as 64 lowercase hex digits.
pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Stockfish's file name for a net: `nn-` + 12 hex digits of the SHA-256 + `.nnue`.
pub fn stockfish_name(file_bytes: &[u8]) -> String {
    format!("nn-{}.nnue", &sha256_hex(file_bytes)[..NAME_DIGITS])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_the_fips_examples() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(stockfish_name(b"abc"), "nn-ba7816bf8f01.nnue");
    }
}

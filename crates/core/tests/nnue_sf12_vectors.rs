//! Stockfish 12 exactness: our random HalfKP net is byte-identical to the one the
//! shared Python tool writes, and our raw evaluations equal Stockfish 12's.

use std::path::PathBuf;
use std::sync::Arc;

use nnue_core::nnue::{evaluate, random_network, AccumulatorStack, Architecture, Kernel, Network};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(path)
}

/// `(fen, white view, side-to-move view)` rows and the net's sha256 from the header.
fn vectors() -> (Vec<(String, i32, i32)>, String) {
    let path = shared("vectors/sf12_random_halfkp_evals.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("shared reference {} is missing: {e}", path.display()));
    let sha = text
        .lines()
        .find_map(|l| l.split("sha256 ").nth(1))
        .map(|s| s.trim_end_matches(')').trim().to_string())
        .expect("sha256 in the header");
    let rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad row {l:?}");
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect();
    (rows, sha)
}

fn sf12_net() -> Network {
    random_network(&Architecture::halfkp_256(), 20201002).unwrap()
}

#[test]
fn random_net_matches_python_tool_and_stockfish_12() {
    let (rows, sha) = vectors();
    assert_eq!(rows.len(), 10);
    let net = sf12_net();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 21_022_697);
    assert_eq!(
        sha256::hex(&bytes),
        sha,
        "our generator differs from make_random_halfkp.py"
    );

    let net = Arc::new(Network::from_bytes(&bytes, "random_halfkp.nnue").unwrap());
    for (fen, white, stm) in &rows {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let value = evaluate(&net, &pos);
        assert_eq!(value, *stm, "{fen}: side-to-move value");
        let white_view = if pos.turn() == Color::White {
            value
        } else {
            -value
        };
        assert_eq!(white_view, *white, "{fen}: white value");
        for kernel in Kernel::available() {
            assert_eq!(
                net.evaluate_board(kernel, pos.board(), pos.turn()),
                *stm,
                "{fen} {kernel:?}"
            );
            let mut stack = AccumulatorStack::with_kernel(Arc::clone(&net), kernel);
            stack.reset(&pos);
            assert_eq!(stack.evaluate(&pos), *stm, "{fen} stack {kernel:?}");
        }
    }
}

/// A dependency-free SHA-256 (FIPS 180-4) so the test needs nothing but std.
mod sha256 {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    pub fn hex(data: &[u8]) -> String {
        let mut h: [u32; 8] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
            0x5be0cd19,
        ];
        let mut msg = data.to_vec();
        let bit_len = (data.len() as u64) * 8;
        msg.push(0x80);
        while msg.len() % 64 != 56 {
            msg.push(0);
        }
        msg.extend_from_slice(&bit_len.to_be_bytes());
        for block in msg.chunks(64) {
            let mut w = [0u32; 64];
            for i in 0..16 {
                w[i] = u32::from_be_bytes([
                    block[4 * i],
                    block[4 * i + 1],
                    block[4 * i + 2],
                    block[4 * i + 3],
                ]);
            }
            for i in 16..64 {
                let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
                let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
                w[i] = w[i - 16]
                    .wrapping_add(s0)
                    .wrapping_add(w[i - 7])
                    .wrapping_add(s1);
            }
            let mut v = h;
            for i in 0..64 {
                let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
                let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
                let t1 = v[7]
                    .wrapping_add(s1)
                    .wrapping_add(ch)
                    .wrapping_add(K[i])
                    .wrapping_add(w[i]);
                let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
                let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
                let t2 = s0.wrapping_add(maj);
                v = [
                    t1.wrapping_add(t2),
                    v[0],
                    v[1],
                    v[2],
                    v[3].wrapping_add(t1),
                    v[4],
                    v[5],
                    v[6],
                ];
            }
            for (a, b) in h.iter_mut().zip(v) {
                *a = a.wrapping_add(b);
            }
        }
        h.iter().map(|x| format!("{x:08x}")).collect()
    }

    #[test]
    fn known_digest() {
        assert_eq!(
            hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

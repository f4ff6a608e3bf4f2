//! Shared helpers for the gensfen tests: reference data and temp dirs.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use nnue_core::packed::{GameResult, PackedSfen, PackedSfenValue, SfMove};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

pub fn shared_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    assert!(
        dir.join("vectors/packed_sfen.tsv").is_file(),
        "reference material missing: {} (tests need /work/shared)",
        dir.display()
    );
    dir
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// formats.md 1.6 worked records: (fen, move, score, ply, result, hex).
pub const WORKED: [(&str, &str, i16, u16, i8, &str); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e2e4",
        54,
        0,
        1,
        "08fece9aebbc31c618638c000000002184104208679454c6794000000000000036001c03000001ff",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "e7e5",
        -32,
        1,
        -1,
        "09fece9aebbc31c618638c000010001042084208679454c67940000000000000e0ff240d0100ffff",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "e1g1",
        0,
        20,
        0,
        "08fe820b000000000070c0794000000000000000000000000000000000000000000007c1140000ff",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 30",
        "e8c8",
        -15,
        59,
        0,
        "09fe820b000000000070c0498507000000000000000000000000000000000000f1ff38cf3b0000ff",
    ),
    (
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40",
        "e5d6",
        300,
        78,
        1,
        "081e0000801800000000802b80020000000000000000000000000000000000002c012b894e0001ff",
    ),
    (
        "4k3/1P6/8/8/8/8/6p1/4K3 b - - 99 300",
        "g2g1n",
        -1200,
        599,
        -1,
        "091e200000000000400400234b4000000000000000000000000000000000000050fb86435702ffff",
    ),
];

/// The 100 (fen, packed bytes) rows of shared/vectors/packed_sfen.tsv.
pub fn vectors() -> Vec<(String, [u8; 32])> {
    let text = std::fs::read_to_string(shared_dir().join("vectors/packed_sfen.tsv")).expect("tsv");
    let rows: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, h) = l.split_once('\t').expect("two columns");
            (
                fen.to_owned(),
                unhex(h.trim()).try_into().expect("32 bytes"),
            )
        })
        .collect();
    assert_eq!(rows.len(), 100);
    rows
}

/// A `.bin` image: the six worked records verbatim, then one record per
/// vector row with the Stockfish-packed bytes and a legal move. Padding of
/// the vector records is 0 (what gensfen writes), so tests see it change.
pub fn reference_bin() -> Vec<u8> {
    let mut out = Vec::new();
    for w in WORKED {
        out.extend_from_slice(&unhex(w.5));
    }
    for (i, (fen, bytes)) in vectors().into_iter().enumerate() {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let moves = pos.legal_moves();
        let m = moves[i % moves.len()];
        let rec = PackedSfenValue {
            sfen: PackedSfen(bytes),
            score: (i as i16) * 37 - 1500,
            mv: SfMove::from_move(&m),
            game_ply: 16 + i as u16,
            game_result: GameResult::from_i8((i % 3) as i8 - 1)
                .expect("result")
                .to_i8(),
            padding: 0,
        };
        out.extend_from_slice(&rec.to_bytes());
    }
    out
}

/// A fresh empty directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn temp_dir(tag: &str) -> TempDir {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "nnue-gensfen-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// Names of the files in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

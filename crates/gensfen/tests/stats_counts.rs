//! `stats` counters on the six worked records of formats.md 1.6.

mod common;

use common::{temp_dir, unhex, WORKED};
use nnue_gensfen::stats::stats;

#[test]
fn worked_records_statistics() {
    let dir = temp_dir("statscount");
    let path = dir.join("w.bin");
    let bytes: Vec<u8> = WORKED.iter().flat_map(|w| unhex(w.5)).collect();
    // Twice, so every position is a duplicate once.
    std::fs::write(&path, [bytes.clone(), bytes].concat()).expect("write");
    let s = stats(&[path], false).expect("stats");
    assert_eq!(s.records, 12);
    assert_eq!(s.invalid, 0);
    assert_eq!((s.wins, s.draws, s.losses), (4, 4, 4));
    assert_eq!(s.in_check, 0);
    assert_eq!(s.captures, 2, "e5d6 en passant, twice");
    assert_eq!(s.duplicates, 6);
    // plies 0, 1, 20 | 59 | 78 | 599
    let mut ply = [0u64; 17];
    ply[0] = 6;
    ply[2] = 2;
    ply[3] = 2;
    ply[16] = 2;
    assert_eq!(s.ply_histogram, ply);
    // scores 54, -32, 0, -15 | 300 | -1200
    let mut score = [0u64; 11];
    score[6] = 2; // 50..200: 54
    score[5] = 6; // -50..50: -32, 0, -15
    score[7] = 2; // 200..500
    score[1] = 2; // -3000..-1000
    assert_eq!(s.score_histogram, score);
}

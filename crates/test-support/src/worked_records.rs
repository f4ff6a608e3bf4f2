//! Six worked PackedSfenValue records: the bytes the binpack library of Stockfish's
//! `tools` branch (`convertPlainToBin`) writes for these `.plain` entries (section 1.6
//! of the team's format reference, checked against that packer). Shared by the
//! core and gensfen tests.

/// formats.md 1.6: (fen, uci move, score, ply, result, 40-byte hex).
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

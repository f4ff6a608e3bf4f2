//! The classical evaluation: tapered material and piece-square tables plus mobility,
//! pawn structure, bishop pair, rooks on open files and the king's pawn shield.
//!
//! It exists to bootstrap: the first training data is labelled by searches that use
//! it, so it has to know enough chess that those labels mean something (material,
//! development, passed pawns, king safety), and it has to be fast because the
//! generator calls it billions of times. All numbers are this project's own; the
//! tables are built from simple geometric rules (centralisation, advancement,
//! shelter) at compile time rather than typed in.
//!
//! Values are internal units (a pawn is about [`PAWN_VALUE_EG`](crate::value::PAWN_VALUE_EG)
//! in the endgame), from the side to move's point of view. The evaluation is colour
//! symmetric: a position and its colour-flipped mirror get the same value.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position, Role, Square};

/// Midgame and endgame value of each role (pawn, knight, bishop, rook, queen, king).
const MATERIAL_MG: [i32; 6] = [128, 780, 820, 1270, 2540, 0];
const MATERIAL_EG: [i32; 6] = [208, 850, 910, 1380, 2680, 0];
/// Contribution of each role to the game phase (24 = all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

/// Bonus for the side to move (it can improve its position first).
const TEMPO: i32 = 20;
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN_FILE: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (12, 6);
const DOUBLED_PAWN: (i32, i32) = (-10, -20);
const ISOLATED_PAWN: (i32, i32) = (-10, -12);
/// Passed pawn bonus by relative rank (0 = own back rank).
const PASSED_MG: [i32; 8] = [0, 2, 5, 10, 20, 35, 55, 0];
const PASSED_EG: [i32; 8] = [0, 5, 10, 20, 40, 70, 110, 0];
/// Own pawn directly in front of (or one further than) a king on its first two ranks.
const SHIELD_PAWN_MG: i32 = 12;
/// Per reachable square beyond a typical count (knight, bishop, rook, queen).
const MOBILITY_MG: [i32; 4] = [4, 5, 3, 2];
const MOBILITY_EG: [i32; 4] = [4, 5, 5, 4];
const MOBILITY_BASE: [i32; 4] = [4, 6, 7, 13];

/// The value of `pos` for the side to move, in internal units.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let (mut mg, mut eg) = (0, 0);
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let (m, e, p) = side_terms(board, color);
        mg += sign * m;
        eg += sign * e;
        phase += p;
    }
    let phase = phase.min(PHASE_MAX);
    let white = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let stm = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    stm + TEMPO * phase / PHASE_MAX
}

/// Midgame sum, endgame sum and phase contribution of one side's pieces.
fn side_terms(board: &Board, color: Color) -> (i32, i32, i32) {
    let us = board.by_color(color);
    let them = board.by_color(!color);
    let occupied = board.occupied();
    let our_pawns = board.pawns() & us;
    let their_pawns = board.pawns() & them;
    let their_pawn_attacks = pawn_attacks_of(their_pawns, !color);
    let (mut mg, mut eg, mut phase) = (0, 0, 0);

    for (ri, role) in Role::ALL.iter().enumerate() {
        let pieces = board.by_role(*role) & us;
        for sq in pieces {
            let rel = relative(sq, color);
            mg += MATERIAL_MG[ri] + PST_MG[ri][rel];
            eg += MATERIAL_EG[ri] + PST_EG[ri][rel];
            phase += PHASE[ri];
            let mobility_index = match role {
                Role::Knight => 0,
                Role::Bishop => 1,
                Role::Rook => 2,
                Role::Queen => 3,
                _ => continue,
            };
            let reach = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            };
            let count = (reach & !us & !their_pawn_attacks).count() as i32;
            let delta = count - MOBILITY_BASE[mobility_index];
            mg += delta * MOBILITY_MG[mobility_index];
            eg += delta * MOBILITY_EG[mobility_index];
            if *role == Role::Rook {
                let file = Bitboard::from_file(sq.file());
                if (file & our_pawns).is_empty() {
                    let (m, e) = if (file & their_pawns).is_empty() {
                        ROOK_OPEN_FILE
                    } else {
                        ROOK_HALF_OPEN_FILE
                    };
                    mg += m;
                    eg += e;
                }
            }
        }
    }

    if (board.bishops() & us).more_than_one() {
        mg += BISHOP_PAIR.0;
        eg += BISHOP_PAIR.1;
    }

    let (pm, pe) = pawn_structure(our_pawns, their_pawns, color);
    mg += pm;
    eg += pe;

    if let Some(king) = board.king_of(color) {
        mg += king_shield(king, our_pawns, color);
    }
    (mg, eg, phase)
}

/// Doubled, isolated and passed pawns.
fn pawn_structure(ours: Bitboard, theirs: Bitboard, color: Color) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for file in shakmaty::File::ALL {
        let on_file = (ours & Bitboard::from_file(file)).count() as i32;
        if on_file > 1 {
            mg += DOUBLED_PAWN.0 * (on_file - 1);
            eg += DOUBLED_PAWN.1 * (on_file - 1);
        }
    }
    for sq in ours {
        let f = sq.file() as usize;
        if (ours & Bitboard(ADJACENT_FILES[f])).is_empty() {
            mg += ISOLATED_PAWN.0;
            eg += ISOLATED_PAWN.1;
        }
        let front = Bitboard(PASSED_MASK[color as usize][sq as usize]);
        if (theirs & front).is_empty() {
            let r = relative(sq, color) / 8;
            mg += PASSED_MG[r];
            eg += PASSED_EG[r];
        }
    }
    (mg, eg)
}

/// Pawns shielding a king that still stands on its first two ranks.
fn king_shield(king: Square, ours: Bitboard, color: Color) -> i32 {
    let rel = relative(king, color);
    if rel / 8 > 1 {
        return 0;
    }
    let shield = Bitboard(SHIELD_MASK[color as usize][king as usize]);
    (ours & shield).count() as i32 * SHIELD_PAWN_MG
}

fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    let mut all = Bitboard::EMPTY;
    for sq in pawns {
        all |= attacks::pawn_attacks(color, sq);
    }
    all
}

/// The square index from `color`'s side of the board (White's squares as they are,
/// Black's flipped rank-wise), so one table serves both colours.
#[inline]
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

const fn abs(x: i32) -> i32 {
    if x < 0 {
        -x
    } else {
        x
    }
}

const fn max(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Distance ring from the centre: 0 for d4-e5, 3 for the edge.
const fn ring(f: i32, r: i32) -> i32 {
    (max(abs(2 * f - 7), abs(2 * r - 7)) - 1) / 2
}

/// Piece-square bonuses from the owner's side, built from rules:
/// pawns gain by advancing (more in the centre in the midgame), minor pieces and
/// the endgame queen and king by centralisation, rooks on the seventh, the midgame
/// king on its castled wing behind its pawns.
const fn pst(endgame: bool) -> [[i32; 64]; 6] {
    let mut t = [[0; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let c = 3 - ring(f, r); // 3 in the centre, 0 on the edge
        let central_file = f == 3 || f == 4;
        let near_central_file = f == 2 || f == 5;
        // Pawns.
        if r >= 1 && r <= 6 {
            t[0][sq] = if endgame {
                4 * (r - 1)
            } else {
                let centre = if central_file && r >= 2 && r <= 4 {
                    12
                } else if near_central_file && r >= 2 && r <= 4 {
                    5
                } else {
                    0
                };
                3 * (r - 1) + centre
            };
        }
        // Knights.
        t[1][sq] = if endgame {
            8 * c - 12
        } else {
            12 * c - 18 - if r == 0 { 8 } else { 0 }
        };
        // Bishops: centre and the long diagonals.
        let long_diagonal = f == r || f + r == 7;
        t[2][sq] = if endgame {
            5 * c - 7
        } else {
            5 * c - 6 + if long_diagonal { 8 } else { 0 } - if r == 0 { 6 } else { 0 }
        };
        // Rooks: the seventh rank, central files in the midgame.
        t[3][sq] = if r == 6 {
            if endgame {
                15
            } else {
                20
            }
        } else if !endgame && central_file {
            6
        } else {
            0
        };
        // Queens: stay back early, centralise late.
        t[4][sq] = if endgame {
            6 * c - 9
        } else {
            -4 * (3 - c) + if r == 0 { 2 } else { 0 }
        };
        // Kings.
        t[5][sq] = if endgame {
            14 * c - 20
        } else if r == 0 {
            [20, 30, 12, 0, 0, 12, 30, 20][f as usize]
        } else if r == 1 {
            [4, 8, -6, -16, -16, -6, 8, 4][f as usize]
        } else {
            -20 * r - 10
        };
        sq += 1;
    }
    t
}

const PST_MG: [[i32; 64]; 6] = pst(false);
const PST_EG: [[i32; 64]; 6] = pst(true);

/// Files next to each file.
const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let file = 0x0101_0101_0101_0101u64 << f;
        if f > 0 {
            t[f] |= file >> 1;
        }
        if f < 7 {
            t[f] |= file << 1;
        }
        f += 1;
    }
    t
};

/// Squares on the own and adjacent files from one to `reach` ranks in front of a
/// square, per colour (White = 1 in shakmaty's `Color as usize`, Black = 0).
const fn front_span(reach: i32) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut s = 0;
        while s < 64 {
            let (sf, sr) = (s % 8, s / 8);
            if abs(sf - f) <= 1 {
                if sr > r && sr - r <= reach {
                    t[Color::White as usize][sq] |= 1u64 << s;
                }
                if sr < r && r - sr <= reach {
                    t[Color::Black as usize][sq] |= 1u64 << s;
                }
            }
            s += 1;
        }
        sq += 1;
    }
    t
}

/// If no enemy pawn stands in this span, the pawn is passed.
const PASSED_MASK: [[u64; 64]; 2] = front_span(7);

/// The pawn shield of a king: the three squares in front of it and the three beyond.
const SHIELD_MASK: [[u64; 64]; 2] = front_span(2);

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn material_counts() {
        // White is a queen up: a large positive score for White to move, negative for Black.
        let w = evaluate(&position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
        let b = evaluate(&position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"));
        assert!(w > 2000, "{w}");
        assert!(b < -2000, "{b}");
    }

    #[test]
    fn passed_pawn_on_the_seventh_is_worth_more() {
        let far = evaluate(&position("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
        let near = evaluate(&position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(near > far + 80, "{near} vs {far}");
    }
}

//! viriformat's 16-bit move, against the toolkit's Stockfish move
//! ([`SfMove`]). Both put castling as the king taking its own rook and the
//! promotion piece minus a knight in bits 12..14; they differ in where the
//! squares and the flags go:
//!
//! | bits | viriformat | Stockfish |
//! |---|---|---|
//! | 0..6 | from | to |
//! | 6..12 | to | from |
//! | 12..14 | promotion piece − knight | the same |
//! | 14..16 | 0 normal, 1 en passant, 2 castling, 3 promotion | 0 normal, 1 promotion, 2 en passant, 3 castling |

use super::super::codec_error::CodecError;
use crate::packed::{MoveKind, SfMove};

const SQUARE_MASK: u16 = 0x3F;
const TO_SHIFT: u16 = 6;
const PROMO_MASK: u16 = 0x3000;
const FLAG_SHIFT: u16 = 14;
const FLAG_NORMAL: u16 = 0;
const FLAG_EN_PASSANT: u16 = 1;
const FLAG_CASTLING: u16 = 2;
const FLAG_PROMOTION: u16 = 3;

/// The viriformat encoding of a (well-formed, non-null) Stockfish move.
pub fn to_viri(mv: SfMove) -> u16 {
    let flag = match mv.kind() {
        MoveKind::Normal => FLAG_NORMAL,
        MoveKind::EnPassant => FLAG_EN_PASSANT,
        MoveKind::Castling => FLAG_CASTLING,
        MoveKind::Promotion => FLAG_PROMOTION,
    };
    let from = mv.from_sq() as u16;
    let to = mv.to_sq() as u16;
    (flag << FLAG_SHIFT) | (mv.raw() & PROMO_MASK) | (to << TO_SHIFT) | from
}

/// The Stockfish move of a viriformat encoding; promotion bits without the
/// promotion flag, or an origin equal to the destination, are malformed.
pub fn from_viri(raw: u16) -> Result<SfMove, CodecError> {
    let from = raw & SQUARE_MASK;
    let to = (raw >> TO_SHIFT) & SQUARE_MASK;
    let kind = match raw >> FLAG_SHIFT {
        FLAG_NORMAL => MoveKind::Normal,
        FLAG_EN_PASSANT => MoveKind::EnPassant,
        FLAG_CASTLING => MoveKind::Castling,
        _ => MoveKind::Promotion,
    };
    if from == to || (kind != MoveKind::Promotion && raw & PROMO_MASK != 0) {
        return Err(CodecError::MalformedMove(raw));
    }
    let kind_bits = kind as u16;
    Ok(SfMove(
        (kind_bits << FLAG_SHIFT) | (raw & PROMO_MASK) | (from << TO_SHIFT) | to,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    #[test]
    fn every_kind_round_trips_and_swaps_the_squares() {
        let cases = [
            SfMove::new(Square::E2, Square::E4, MoveKind::Normal, None),
            SfMove::new(Square::E5, Square::D6, MoveKind::EnPassant, None),
            SfMove::new(Square::E1, Square::H1, MoveKind::Castling, None),
            SfMove::new(
                Square::B7,
                Square::A8,
                MoveKind::Promotion,
                Some(Role::Knight),
            ),
            SfMove::new(
                Square::B7,
                Square::B8,
                MoveKind::Promotion,
                Some(Role::Queen),
            ),
        ];
        for mv in cases {
            let raw = to_viri(mv);
            assert_eq!(raw & SQUARE_MASK, mv.from_sq() as u16);
            assert_eq!(from_viri(raw), Ok(mv));
        }
        // e2e4 in viriformat: from 12, to 28 << 6.
        assert_eq!(to_viri(cases[0]), 12 | (28 << 6));
        // castling flag 0b10, promotion flag 0b11 with queen (3) in bits 12..14.
        assert_eq!(to_viri(cases[2]) >> 14, 2);
        assert_eq!(to_viri(cases[4]), (3 << 14) | (3 << 12) | (57 << 6) | 49);
    }

    #[test]
    fn malformed_moves_are_refused() {
        assert_eq!(from_viri(0), Err(CodecError::MalformedMove(0)));
        let promo_bits_on_normal = 12 | (28 << 6) | (1 << 12);
        assert_eq!(
            from_viri(promo_bits_on_normal),
            Err(CodecError::MalformedMove(promo_bits_on_normal))
        );
    }
}

//! Property tests: positions from random games round-trip through
//! PackedSfen; arbitrary bytes never panic the decoders.

use std::num::NonZeroU32;

use nnue_core::data::{decode_fast, decode_full, RecordPolicy};
use nnue_core::packed::{PackedSfen, PackedSfenValue, SfMove};
use proptest::prelude::*;
use shakmaty::{fen::Fen, CastlingMode, Chess, EnPassantMode, FromSetup, Position, PositionError};

/// Plays `choices` as indices into the legal move list; returns every
/// position reached (the start included).
fn random_game(choices: &[u16]) -> Vec<Chess> {
    let mut pos = Chess::default();
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer special moves now and then so castling, en passant and
        // promotions show up often.
        let special: Vec<_> = moves
            .iter()
            .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
            .copied()
            .collect();
        let m = if c % 4 == 0 && !special.is_empty() {
            special[usize::from(c / 4) % special.len()]
        } else {
            moves[usize::from(c) % moves.len()]
        };
        pos.play_unchecked(m);
        seen.push(pos.clone());
    }
    seen
}

fn with_counters(pos: &Chess, rule50: u32, fullmove: u32) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Always);
    setup.halfmoves = rule50;
    setup.fullmoves = NonZeroU32::new(fullmove).unwrap_or(NonZeroU32::MIN);
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .expect("same position with other counters")
}

fn shakmaty_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::PseudoLegal).to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_game_positions_round_trip(
        choices in prop::collection::vec(any::<u16>(), 0..160),
        rule50 in 0u32..128,
        fullmove in 1u32..65536,
    ) {
        for (i, pos) in random_game(&choices).iter().enumerate() {
            let pos = if i % 7 == 3 { with_counters(pos, rule50, fullmove) } else { pos.clone() };
            let packed = PackedSfen::from_position(&pos);
            let decoded = packed.decode().expect("own encoding decodes");
            prop_assert_eq!(decoded.fen(), shakmaty_fen(&pos));
            let back = decoded.to_chess().expect("legal");
            prop_assert_eq!(PackedSfen::from_position(&back), packed);
            for m in pos.legal_moves() {
                let sf = SfMove::from_move(&m);
                prop_assert_eq!(sf.to_move(&pos), Ok(m));
                prop_assert_eq!(sf.to_uci(), SfMove::uci_of(&m));
                prop_assert!(sf.is_plausible(&decoded));
            }
        }
    }

    #[test]
    fn any_32_bytes_decode_or_error(bytes in prop::array::uniform32(any::<u8>())) {
        let packed = PackedSfen(bytes);
        if let Ok(decoded) = packed.decode() {
            // Whatever decodes re-encodes to something that decodes the same.
            let again = PackedSfen::encode(&decoded).decode().expect("re-encoding decodes");
            prop_assert_eq!(&again, &decoded);
            // The fast checks are as strict as shakmaty's validation.
            prop_assert!(decoded.to_chess().is_ok());
            let _ = decoded.fen();
        }
    }

    #[test]
    fn any_40_bytes_decode_or_error(bytes in prop::collection::vec(any::<u8>(), 40)) {
        let value = PackedSfenValue::from_slice(&bytes).expect("40 bytes");
        prop_assert_eq!(value.to_bytes().to_vec(), bytes);
        let policy = RecordPolicy { allow_move_none: true };
        let _ = decode_fast(&value, policy);
        let _ = decode_full(&value, policy);
    }

    #[test]
    fn mostly_valid_sfens_with_flipped_bits_never_panic(
        choices in prop::collection::vec(any::<u16>(), 0..80),
        flips in prop::collection::vec((0usize..32, 0u8..8), 1..4),
    ) {
        let game = random_game(&choices);
        let pos = game.last().expect("at least the start");
        let mut bytes = PackedSfen::from_position(pos).0;
        for (byte, bit) in flips {
            bytes[byte] ^= 1 << bit;
        }
        if let Ok(decoded) = PackedSfen(bytes).decode() {
            let again = PackedSfen::encode(&decoded).decode().expect("re-encoding decodes");
            prop_assert_eq!(&again, &decoded);
            prop_assert!(decoded.to_chess().is_ok(), "{}", decoded.fen());
        }
    }
}

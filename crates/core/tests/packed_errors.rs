//! Every kind of corrupt PackedSfen is reported with its own error.

use nnue_core::packed::{CastlingFlags, DecodedSfen, PackedSfen, SfenError};
use shakmaty::{Board, Chess, Color, Piece, Role, Square};

fn with_pieces(pieces: &[(Square, Color, Role)], turn: Color) -> DecodedSfen {
    let mut board = Board::empty();
    for &(sq, color, role) in pieces {
        board.set_piece_at(sq, Piece { color, role });
    }
    DecodedSfen {
        board,
        turn,
        castling: CastlingFlags::NONE,
        ep_square: None,
        rule50: 0,
        fullmove: 1,
    }
}

fn kings(extra: &[(Square, Color, Role)]) -> Vec<(Square, Color, Role)> {
    let mut v = vec![
        (Square::E1, Color::White, Role::King),
        (Square::E8, Color::Black, Role::King),
    ];
    v.extend_from_slice(extra);
    v
}

fn decode(sfen: &DecodedSfen) -> Result<DecodedSfen, SfenError> {
    PackedSfen::encode(sfen).decode()
}

/// Writes `value` LSB first at stream bit `bit` (formats.md 1.1).
fn put(bytes: &mut [u8; 32], bit: usize, value: u32, width: usize) {
    for i in 0..width {
        if value >> i & 1 == 1 {
            bytes[(bit + i) / 8] |= 1 << ((bit + i) % 8);
        }
    }
}

#[test]
fn bad_piece_code() {
    // White to move, kings e1 (4) and e8 (60), then a8 coded 1,1,0,1 = type 5.
    let mut bytes = [0u8; 32];
    put(&mut bytes, 1, 4, 6);
    put(&mut bytes, 7, 60, 6);
    put(&mut bytes, 13, 0b1011, 4);
    assert_eq!(
        PackedSfen(bytes).decode(),
        Err(SfenError::BadPieceCode {
            square: Square::A8,
            code: 0b1011,
            bit: 13
        })
    );
}

#[test]
fn stream_past_256_bits() {
    let mut pieces = kings(&[]);
    for sq in Square::ALL {
        if sq != Square::E1 && sq != Square::E8 {
            pieces.push((sq, Color::White, Role::Queen));
        }
    }
    assert_eq!(
        decode(&with_pieces(&pieces, Color::White)),
        Err(SfenError::BitOverflow)
    );
}

#[test]
fn king_problems() {
    let mut bytes = [0u8; 32];
    put(&mut bytes, 1, 4, 6);
    put(&mut bytes, 7, 4, 6); // black king also e1
    assert_eq!(
        PackedSfen(bytes).decode(),
        Err(SfenError::KingsOnSameSquare(Square::E1))
    );

    let adjacent = with_pieces(
        &[
            (Square::E1, Color::White, Role::King),
            (Square::E2, Color::Black, Role::King),
        ],
        Color::White,
    );
    assert_eq!(
        decode(&adjacent),
        Err(SfenError::KingsAdjacent(Square::E1, Square::E2))
    );

    // White to move but the black king is attacked by the white rook.
    let opposite = with_pieces(
        &kings(&[(Square::E4, Color::White, Role::Rook)]),
        Color::White,
    );
    assert_eq!(
        decode(&opposite),
        Err(SfenError::OppositeCheck(Color::Black))
    );
    // The same with black to move is an ordinary check.
    let check = with_pieces(
        &kings(&[(Square::E4, Color::White, Role::Rook)]),
        Color::Black,
    );
    assert!(decode(&check).expect("legal").is_check());
}

#[test]
fn pawns_on_back_rank() {
    let s = with_pieces(
        &kings(&[(Square::A8, Color::White, Role::Pawn)]),
        Color::White,
    );
    assert_eq!(decode(&s), Err(SfenError::PawnOnBackRank(Square::A8)));
}

#[test]
fn impossible_castling_flags() {
    let mut s = with_pieces(
        &kings(&[(Square::H1, Color::White, Role::Rook)]),
        Color::White,
    );
    s.castling = CastlingFlags::from_bits(CastlingFlags::WHITE_OO);
    assert!(decode(&s).is_ok());
    s.castling = CastlingFlags::from_bits(CastlingFlags::WHITE_OOO);
    assert_eq!(decode(&s), Err(SfenError::ImpossibleCastling('Q')));
    s.castling = CastlingFlags::from_bits(CastlingFlags::BLACK_OO);
    assert_eq!(decode(&s), Err(SfenError::ImpossibleCastling('k')));
}

#[test]
fn en_passant_rules() {
    // Black just played d7d5; a white pawn on e5 attacks d6: kept.
    let mut s = with_pieces(
        &kings(&[
            (Square::D5, Color::Black, Role::Pawn),
            (Square::E5, Color::White, Role::Pawn),
        ]),
        Color::White,
    );
    s.ep_square = Some(Square::D6);
    assert_eq!(decode(&s).expect("ok").ep_square, Some(Square::D6));
    // Without an attacking white pawn Stockfish drops it.
    let mut quiet = with_pieces(
        &kings(&[(Square::D5, Color::Black, Role::Pawn)]),
        Color::White,
    );
    quiet.ep_square = Some(Square::D6);
    assert_eq!(decode(&quiet).expect("ok").ep_square, None);
    // Wrong rank, or no pawn in front: corrupt.
    s.ep_square = Some(Square::D3);
    assert_eq!(decode(&s), Err(SfenError::BadEpSquare(Square::D3)));
    let mut missing = with_pieces(
        &kings(&[(Square::E5, Color::White, Role::Pawn)]),
        Color::White,
    );
    missing.ep_square = Some(Square::D6);
    assert_eq!(decode(&missing), Err(SfenError::BadEpSquare(Square::D6)));
}

#[test]
fn too_many_pieces_and_material() {
    let mut pieces = kings(&[]);
    for sq in Square::ALL
        .iter()
        .copied()
        .filter(|s| (8..=23).contains(&u32::from(*s)) || u32::from(*s) == 24)
    {
        pieces.push((sq, Color::White, Role::Knight));
    }
    let s = with_pieces(&pieces, Color::Black);
    assert_eq!(decode(&s), Err(SfenError::TooManyPieces(Color::White, 18)));

    let mut pieces = kings(&[]);
    for f in 0..8u32 {
        pieces.push((Square::new(8 + f), Color::White, Role::Pawn));
    }
    pieces.push((Square::A3, Color::White, Role::Queen));
    pieces.push((Square::B3, Color::White, Role::Queen));
    let s = with_pieces(&pieces, Color::Black);
    assert_eq!(decode(&s), Err(SfenError::TooMuchMaterial));

    // Two bishops on light squares next to eight pawns: one must be promoted.
    let mut pieces = kings(&[]);
    for f in 0..8u32 {
        pieces.push((Square::new(8 + f), Color::White, Role::Pawn));
    }
    pieces.push((Square::B3, Color::White, Role::Bishop));
    pieces.push((Square::D3, Color::White, Role::Bishop));
    let s = with_pieces(&pieces, Color::Black);
    assert_eq!(decode(&s), Err(SfenError::TooMuchMaterial));
    pieces.pop();
    pieces.push((Square::C3, Color::White, Role::Bishop));
    assert!(decode(&with_pieces(&pieces, Color::Black)).is_ok());
}

#[test]
fn extension_bits_and_fullmove_zero() {
    let mut s = DecodedSfen::from_position(&Chess::default());
    s.rule50 = 99;
    s.fullmove = 300;
    let d = decode(&s).expect("ok");
    assert_eq!((d.rule50, d.fullmove), (99, 300));
    s.fullmove = 0;
    let d = decode(&s).expect("ok");
    assert_eq!(
        d.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99 1"
    );
    assert_eq!(d.game_ply(), 0);
}

//! PackedSfen: Stockfish's 256-bit position encoding (formats.md section 1).

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Rank, Role, Square};

use super::bits::{BitReader, BitWriter};
use super::castling::CastlingFlags;
use super::decoded::DecodedSfen;
use super::error::SfenError;
use super::unpack::{read_head, read_men, read_tail};

/// Size of a PackedSfen in bytes.
pub const PACKED_SFEN_SIZE: usize = 32;

/// The 32 bytes of a position as Stockfish packs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedSfen(pub [u8; PACKED_SFEN_SIZE]);

impl PackedSfen {
    /// Packs a legal position, bit-exact with Stockfish's packer (ep square
    /// stored only if a side-to-move pawn attacks it, rule50 and fullmove
    /// extension bits included).
    pub fn from_position(pos: &Chess) -> PackedSfen {
        Self::encode(&DecodedSfen::from_position(pos))
    }

    /// Packs already-unpacked fields. The caller is responsible for the fields
    /// describing a sensible position: kings missing from `board` are written
    /// as a1, and bits past 256 (impossible for a chess position, which needs
    /// at most about 229) are dropped, so such input decodes as an error.
    pub fn encode(sfen: &DecodedSfen) -> PackedSfen {
        let mut w = BitWriter::new();
        let wk = sfen.king(Color::White);
        let bk = sfen.king(Color::Black);
        w.write(u32::from(sfen.turn == Color::Black), 1);
        w.write(u32::from(wk), 6);
        w.write(u32::from(bk), 6);
        write_board(&mut w, &sfen.board, wk, bk);
        w.write(u32::from(sfen.castling.bits()), 4);
        match sfen.ep_square {
            Some(ep) => {
                w.write(1, 1);
                w.write(u32::from(ep), 6);
            }
            None => w.write(0, 1),
        }
        w.write(u32::from(sfen.rule50), 6);
        w.write(u32::from(sfen.fullmove), 8);
        w.write(u32::from(sfen.fullmove) >> 8, 8);
        w.write(u32::from(sfen.rule50) >> 6, 1);
        PackedSfen(w.into_bytes())
    }

    /// Unpacks and checks the record's structure: valid Huffman codes within
    /// 256 bits, two distinct non-adjacent kings, no pawn on rank 1/8, at
    /// most 16 men and chess-possible material per side, castling flags only
    /// with king and rook at home, an en-passant square with an enemy pawn in
    /// front and empty squares behind, and the side not to move not in check.
    ///
    /// This is the learner's fast path: no move generation. An en-passant
    /// square that no side-to-move pawn attacks is dropped, as Stockfish's
    /// unpacker does (no Stockfish writer stores one).
    pub fn decode(&self) -> Result<DecodedSfen, SfenError> {
        let mut r = BitReader::new(&self.0);
        let head = read_head(&mut r)?;
        let men = read_men(&mut r, &head)?;
        let tail = read_tail(&mut r)?;
        let board = men.board()?;

        let turn = head.turn;
        check_material(&board, &men.counts)?;
        check_castling(&board, tail.castling)?;
        let ep_square = match tail.ep_square {
            Some(ep) => check_ep(&board, turn, ep)?,
            None => None,
        };
        let their_king = match turn {
            Color::White => Square::new(head.black_king),
            Color::Black => Square::new(head.white_king),
        };
        if board.attacks_to(their_king, turn, board.occupied()).any() {
            return Err(SfenError::OppositeCheck(!turn));
        }

        Ok(DecodedSfen {
            board,
            turn,
            castling: tail.castling,
            ep_square,
            rule50: tail.rule50,
            fullmove: tail.fullmove,
        })
    }

    /// Unpacks and builds a full shakmaty position (see [`DecodedSfen::to_chess`]).
    pub fn to_chess(&self) -> Result<Chess, SfenError> {
        self.decode()?.to_chess()
    }

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; PACKED_SFEN_SIZE] {
        &self.0
    }
}

/// Writes the Huffman-coded board: squares a8..h8, a7..h7, …, a1..h1 with
/// the two king squares skipped, an empty square as one 0 bit, a man as 4
/// code bits and a colour bit. A third king cannot be expressed and is
/// written as empty.
///
/// The traversal index of square `sq` is `sq ^ 56`, so the byte-swapped
/// bitboards list the men in traversal order; empty squares are zero bits
/// the zeroed buffer already holds, so only the men are written, each at
/// `start + coded squares before it + 4 × men before it`.
fn write_board(w: &mut BitWriter, board: &Board, wk: Square, bk: Square) {
    let start = w.cursor();
    let (ka, kb) = (u32::from(wk) ^ 56, u32::from(bk) ^ 56);
    let kept = !((1u64 << u32::from(wk)) | (1u64 << u32::from(bk)));
    // 5-bit code (4 code bits, colour bit) of every man, by traversal index.
    let mut codes = [0u8; 64];
    let black = board.black().0;
    let mut men = 0u64;
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let bb = board.by_role(role).0 & kept;
        men |= bb;
        for sq in Bitboard(bb) {
            let sq = u32::from(sq);
            let color = (black >> sq) as u32 & 1;
            codes[(sq ^ 56) as usize] = (1 | (piece_type_value(role) << 1) | (color << 4)) as u8;
        }
    }
    let skipped_before = |t: u32| u32::from(ka < t) + u32::from(kb < t && kb != ka);
    let mut written = 0u32;
    for t in Bitboard(men.swap_bytes()) {
        let t = u32::from(t);
        w.set_cursor(start + t - skipped_before(t) + 4 * written);
        w.write(u32::from(codes[t as usize]), 5);
        written += 1;
    }
    let coded_squares = 64 - skipped_before(64);
    w.set_cursor(start + coded_squares + 4 * written);
}

/// Stockfish piece type minus one (the 3-bit value in the Huffman code).
const fn piece_type_value(role: Role) -> u32 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Pawns off the back ranks, at most 16 men per side, and no more pieces
/// than eight promotions could have produced (the same rule as shakmaty's,
/// bishops counted per square colour, so a position that passes here also
/// passes `Chess::from_setup`). `counts[color][type - 1]` holds the
/// non-king men.
fn check_material(board: &Board, counts: &[[u8; 8]; 2]) -> Result<(), SfenError> {
    if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
        return Err(SfenError::PawnOnBackRank(sq));
    }
    for (color, c) in Color::ALL.into_iter().zip(counts) {
        let [pawns, knights, bishops, rooks, queens, ..] = c.map(u32::from);
        let men = 1 + pawns + knights + bishops + rooks + queens;
        if men > 16 {
            return Err(SfenError::TooManyPieces(color, men));
        }
        // A second bishop on the same square colour must be promoted.
        let promoted_bishops = if bishops >= 2 {
            let ours = board.bishops() & board.by_color(color);
            [Bitboard::LIGHT_SQUARES, Bitboard::DARK_SQUARES]
                .iter()
                .map(|&shade| {
                    let on = ours & shade;
                    if on.more_than_one() {
                        on.count() as u32 - 1
                    } else {
                        0
                    }
                })
                .sum()
        } else {
            0
        };
        let promoted = knights.saturating_sub(2)
            + promoted_bishops
            + rooks.saturating_sub(2)
            + queens.saturating_sub(1);
        if pawns + promoted > 8 {
            return Err(SfenError::TooMuchMaterial);
        }
    }
    Ok(())
}

/// Every set flag needs the king on e1/e8 and the rook in its corner.
fn check_castling(board: &Board, castling: CastlingFlags) -> Result<(), SfenError> {
    for (color, side) in CastlingFlags::ORDER {
        if !castling.has(color, side) {
            continue;
        }
        let king_ok = board.piece_at(CastlingFlags::king_home(color)) == Some(Role::King.of(color));
        let rook_ok =
            board.piece_at(CastlingFlags::rook_home(color, side)) == Some(Role::Rook.of(color));
        if !(king_ok && rook_ok) {
            return Err(SfenError::ImpossibleCastling(CastlingFlags::letter(
                color, side,
            )));
        }
    }
    Ok(())
}

/// A stored ep square must be on the 6th rank of the side to move, with the
/// enemy pawn that just double-pushed in front of it and the two squares it
/// crossed empty; otherwise the record is corrupt. It is then kept only if a
/// side-to-move pawn attacks it, as Stockfish's unpacker does.
fn check_ep(board: &Board, turn: Color, ep: Square) -> Result<Option<Square>, SfenError> {
    let (pushed_to, pushed_from) = match turn {
        Color::White => (ep.offset(-8), ep.offset(8)),
        Color::Black => (ep.offset(8), ep.offset(-8)),
    };
    let (Some(pushed_to), Some(pushed_from)) = (pushed_to, pushed_from) else {
        return Err(SfenError::BadEpSquare(ep));
    };
    let structural = ep.rank() == turn.relative_rank(Rank::Sixth)
        && board.piece_at(pushed_to) == Some(Role::Pawn.of(!turn))
        && !board.occupied().contains(ep)
        && !board.occupied().contains(pushed_from);
    if !structural {
        return Err(SfenError::BadEpSquare(ep));
    }
    let attackers = attacks::pawn_attacks(!turn, ep) & board.by_piece(Role::Pawn.of(turn));
    Ok(attackers.any().then_some(ep))
}

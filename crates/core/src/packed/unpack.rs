//! The reading steps of [`super::PackedSfen::decode`], in stream order: the
//! side to move and the kings, the 62 Huffman-coded squares, then the tail
//! (castling, en passant, rule50, fullmove). Each step rejects what it can
//! see on its own; the checks that need the whole board stay in `sfen.rs`.

use shakmaty::{attacks, Bitboard, Board, ByColor, ByRole, Color, Role, Square};

use super::bits::{BitReader, STREAM_BITS};
use super::castling::CastlingFlags;
use super::error::SfenError;

/// Bits that always follow the board: 4 castling flags, the ep flag, 6 bits
/// of rule50, 16 of fullmove and the 7th rule50 bit.
pub(super) const TAIL_BITS: u32 = 4 + 1 + 6 + 8 + 8 + 1;

/// Squares the Huffman code covers: all but the two kings' squares.
const CODED_SQUARES: u32 = 62;

/// The side to move and the two king squares, the stream's first 13 bits.
pub(super) struct Head {
    pub(super) turn: Color,
    pub(super) white_king: u32,
    pub(super) black_king: u32,
}

/// Reads the side to move and the kings; two kings on one square or next to
/// each other are errors.
#[inline]
pub(super) fn read_head(r: &mut BitReader) -> Result<Head, SfenError> {
    let turn = if r.read(1) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let wk = r.read(6);
    let bk = r.read(6);
    if wk == bk {
        return Err(SfenError::KingsOnSameSquare(Square::new(wk)));
    }
    let (wk_sq, bk_sq) = (Square::new(wk), Square::new(bk));
    if attacks::king_attacks(wk_sq).contains(bk_sq) {
        return Err(SfenError::KingsAdjacent(wk_sq, bk_sq));
    }
    Ok(Head {
        turn,
        white_king: wk,
        black_king: bk,
    })
}

/// The men read from the coded squares, as raw bitboards plus counts.
pub(super) struct Men {
    /// Indexed by piece type value 0..=7 (5..=7 never set) so that the
    /// masked index needs no bounds check; slot 5 receives the kings.
    roles: [u64; 8],
    colors: [u64; 2],
    /// Men per colour and role (pawn..queen), counted while reading so the
    /// material check needs no popcounts (x86-64 baseline has no POPCNT).
    pub(super) counts: [[u8; 8]; 2],
}

/// Reads the 62 coded squares (every square but the kings'), then places the
/// kings; the stream must leave room for the tail.
///
/// The traversal index t runs over a8..h8, a7..h7, …, a1..h1, which is
/// exactly `square ^ 56`, kings skipped. Runs of empty squares are skipped
/// with one trailing-zeros count instead of a bit at a time.
#[inline]
pub(super) fn read_men(r: &mut BitReader, head: &Head) -> Result<Men, SfenError> {
    let (wk, bk) = (head.white_king, head.black_king);
    let (kt_lo, kt_hi) = {
        let a = wk ^ 56;
        let b = bk ^ 56;
        (a.min(b), a.max(b))
    };
    let mut men = Men {
        roles: [0; 8],
        colors: [0; 2],
        counts: [[0; 8]; 2],
    };
    // `u` counts the coded (non-king) squares; it maps to the traversal index
    // by stepping over the two king squares.
    let mut u: u32 = 0;
    while u < CODED_SQUARES {
        if r.cursor() > STREAM_BITS - TAIL_BITS {
            return Err(SfenError::BitOverflow);
        }
        // Each iteration consumes a run of empty squares (zero bits, counted
        // at once) and the piece that ends it.
        let mut window = r.window();
        let run = window.trailing_zeros();
        if run >= CODED_SQUARES - u {
            r.skip(CODED_SQUARES - u);
            break;
        }
        u += run;
        if run <= 59 {
            window >>= run;
            r.skip(run);
        } else {
            r.skip(run);
            window = r.window();
        }
        let mut t = u + u32::from(u >= kt_lo);
        t += u32::from(t >= kt_hi);
        let sq = t ^ 56;
        let code = ((window >> 1) & 7) as usize;
        if code > 4 {
            return Err(SfenError::BadPieceCode {
                square: Square::new(sq),
                code: (window & 15) as u8,
                bit: r.cursor(),
            });
        }
        let color = ((window >> 4) & 1) as usize;
        men.roles[code] |= 1u64 << sq;
        men.colors[color] |= 1u64 << sq;
        men.counts[color][code] += 1;
        r.skip(5);
        u += 1;
    }
    if r.cursor() > STREAM_BITS - TAIL_BITS {
        return Err(SfenError::BitOverflow);
    }
    men.roles[Role::King as usize - 1] = (1u64 << wk) | (1u64 << bk);
    men.colors[0] |= 1u64 << wk;
    men.colors[1] |= 1u64 << bk;
    Ok(men)
}

impl Men {
    /// The board of these men.
    ///
    /// The bitboards are consistent by construction: every coded square gets
    /// exactly one role and one colour, and the traversal steps over both king
    /// squares, which differ (checked by [`read_head`]). The only thing the
    /// call could reject is two pieces on one square, so that is the error it
    /// maps to.
    #[inline]
    pub(super) fn board(&self) -> Result<Board, SfenError> {
        let (roles, colors) = (&self.roles, &self.colors);
        Board::try_from_bitboards(
            ByRole {
                pawn: Bitboard(roles[0]),
                knight: Bitboard(roles[1]),
                bishop: Bitboard(roles[2]),
                rook: Bitboard(roles[3]),
                queen: Bitboard(roles[4]),
                king: Bitboard(roles[5]),
            },
            ByColor {
                white: Bitboard(colors[0]),
                black: Bitboard(colors[1]),
            },
        )
        .map_err(|_| SfenError::PiecesOverlap)
    }
}

/// The fields after the board, as stored (not yet checked against it).
pub(super) struct Tail {
    pub(super) castling: CastlingFlags,
    pub(super) ep_square: Option<Square>,
    pub(super) rule50: u8,
    pub(super) fullmove: u16,
}

/// Reads the tail; the stream must end within its 256 bits.
#[inline]
pub(super) fn read_tail(r: &mut BitReader) -> Result<Tail, SfenError> {
    let castling = CastlingFlags::from_bits(r.read(4) as u8);
    let ep_square = if r.read(1) == 1 {
        Some(Square::new(r.read(6)))
    } else {
        None
    };
    let rule50_low = r.read(6);
    let fm_low = r.read(8);
    let fm_high = r.read(8);
    let rule50_high = r.read(1);
    if r.cursor() > STREAM_BITS {
        return Err(SfenError::BitOverflow);
    }
    Ok(Tail {
        castling,
        ep_square,
        rule50: (rule50_low | (rule50_high << 6)) as u8,
        fullmove: (fm_low | (fm_high << 8)) as u16,
    })
}

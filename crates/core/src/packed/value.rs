//! PackedSfenValue: one 40-byte training record (formats.md 2.1).

use shakmaty::{Chess, Move};

use super::sf_move::SfMove;
use super::sfen::{PackedSfen, PACKED_SFEN_SIZE};

/// Size of one record in a `.bin` file.
pub const PACKED_SFEN_VALUE_SIZE: usize = 40;

/// Padding byte this crate writes: 0xFF, as the binpack library's `convert`
/// does "for consistency with the .bin format" (gensfen itself writes 0).
/// Readers ignore the byte, so either value interoperates.
pub const PADDING_BYTE: u8 = 0xFF;

/// Game outcome from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The side to move lost (−1).
    Loss = -1,
    /// Draw (0).
    Draw = 0,
    /// The side to move won (+1).
    Win = 1,
}

impl GameResult {
    /// From the stored byte; `None` outside −1..=1.
    pub const fn from_i8(v: i8) -> Option<GameResult> {
        match v {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }

    /// The stored byte.
    pub const fn to_i8(self) -> i8 {
        self as i8
    }

    /// The same result seen by the other side.
    pub const fn flip(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }
}

/// One training record, fields exactly as stored (nothing validated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedSfenValue {
    /// The position.
    pub sfen: PackedSfen,
    /// Evaluation from the side to move's view, Stockfish internal units.
    pub score: i16,
    /// Best move.
    pub mv: SfMove,
    /// The generator's ply counter for this position.
    pub game_ply: u16,
    /// −1, 0 or +1 from the side to move's view (raw byte; may be garbage in
    /// corrupt files, see [`GameResult::from_i8`]).
    pub game_result: i8,
    /// Meaningless byte; see [`PADDING_BYTE`].
    pub padding: u8,
}

impl PackedSfenValue {
    /// A record for a legal position and its best move, as the generator
    /// writes it. Padding is [`PADDING_BYTE`].
    pub fn new(
        pos: &Chess,
        score: i16,
        mv: &Move,
        game_ply: u16,
        result: GameResult,
    ) -> PackedSfenValue {
        PackedSfenValue {
            sfen: PackedSfen::from_position(pos),
            score,
            mv: SfMove::from_move(mv),
            game_ply,
            game_result: result.to_i8(),
            padding: PADDING_BYTE,
        }
    }

    /// Reads a record from its 40 bytes (little-endian fields).
    pub fn from_bytes(b: &[u8; PACKED_SFEN_VALUE_SIZE]) -> PackedSfenValue {
        let mut sfen = [0u8; PACKED_SFEN_SIZE];
        sfen.copy_from_slice(&b[..PACKED_SFEN_SIZE]);
        PackedSfenValue {
            sfen: PackedSfen(sfen),
            score: i16::from_le_bytes([b[32], b[33]]),
            mv: SfMove(u16::from_le_bytes([b[34], b[35]])),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: b[38] as i8,
            padding: b[39],
        }
    }

    /// Reads a record from a slice; `None` unless it is exactly 40 bytes.
    pub fn from_slice(b: &[u8]) -> Option<PackedSfenValue> {
        let arr: &[u8; PACKED_SFEN_VALUE_SIZE] = b.try_into().ok()?;
        Some(Self::from_bytes(arr))
    }

    /// The 40 bytes as written to a `.bin` file.
    pub fn to_bytes(&self) -> [u8; PACKED_SFEN_VALUE_SIZE] {
        let mut b = [0u8; PACKED_SFEN_VALUE_SIZE];
        b[..PACKED_SFEN_SIZE].copy_from_slice(&self.sfen.0);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.mv.0.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result as u8;
        b[39] = self.padding;
        b
    }
}

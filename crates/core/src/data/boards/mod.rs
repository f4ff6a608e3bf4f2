//! Files of fixed 32-byte position records, marlinformat (`.mf`) and
//! bulletformat (`.bf`): [`BoardKind`] picks the layout, a streaming reader
//! ([`BoardRecords`]) turns each record into a toolkit record and a
//! buffered writer ([`BoardWriter`]) turns toolkit records into them.
//! Neither format stores a move, so the records read have `MOVE_NONE`.

mod reader;
mod writer;

pub use reader::BoardRecords;
pub use writer::BoardWriter;

use super::bullet::{BulletBoard, BULLET_BOARD_SIZE};
use super::codec_error::CodecError;
use super::format::DataFormat;
use super::marlin::{MarlinBoard, MARLIN_BOARD_SIZE};
use super::perspective::{flip_score, stm_result, white_wdl};
use super::record::TrainingRecord;
use crate::packed::SfMove;

/// Both formats' record size.
pub const BOARD_RECORD_SIZE: usize = 32;
const _SAME_SIZE: () = assert!(MARLIN_BOARD_SIZE == BOARD_RECORD_SIZE);
const _SAME_SIZE_TOO: () = assert!(BULLET_BOARD_SIZE == BOARD_RECORD_SIZE);

/// Which 32-byte layout a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardKind {
    /// marlinformat `PackedBoard`.
    Marlin,
    /// bulletformat `ChessBoard`.
    Bullet,
}

impl BoardKind {
    /// The data format of this layout.
    pub const fn format(self) -> DataFormat {
        match self {
            BoardKind::Marlin => DataFormat::Marlin,
            BoardKind::Bullet => DataFormat::Bullet,
        }
    }

    /// The toolkit record of one 32-byte record.
    pub fn decode(self, bytes: &[u8; BOARD_RECORD_SIZE]) -> Result<TrainingRecord, CodecError> {
        match self {
            BoardKind::Marlin => {
                let board = MarlinBoard::from_bytes(bytes)?;
                let turn = board.position.turn;
                let ply = board.position.game_ply();
                Ok(TrainingRecord {
                    score: flip_score(turn, board.white_score)?,
                    mv: SfMove::NONE,
                    game_ply: u16::try_from(ply)
                        .map_err(|_| CodecError::FullmoveTooLarge(ply / 2 + 1))?,
                    result: stm_result(turn, board.white_wdl)?,
                    position: board.position,
                })
            }
            BoardKind::Bullet => {
                let board = BulletBoard::from_bytes(bytes)?;
                Ok(TrainingRecord {
                    position: board.position,
                    score: board.score,
                    mv: SfMove::NONE,
                    game_ply: 0,
                    result: board.result,
                })
            }
        }
    }

    /// The 32-byte record of a toolkit record.
    pub fn encode(self, record: &TrainingRecord) -> Result<[u8; BOARD_RECORD_SIZE], CodecError> {
        let turn = record.position.turn;
        Ok(match self {
            BoardKind::Marlin => MarlinBoard {
                position: record.position.clone(),
                white_score: flip_score(turn, record.score)?,
                white_wdl: white_wdl(turn, record.result),
            }
            .to_bytes(),
            BoardKind::Bullet => BulletBoard::encode(&record.position, record.score, record.result),
        })
    }
}

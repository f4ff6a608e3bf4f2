//! Files of fixed 32-byte position records, marlinformat (`.mf`) and
//! bulletformat (`.bf`): a streaming reader that turns each into a toolkit
//! record and a buffered writer that turns toolkit records into them.
//! Neither format stores a move, so the records read have `MOVE_NONE`.

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use super::bullet::{BulletBoard, BULLET_BOARD_SIZE};
use super::codec_error::CodecError;
use super::error::DataError;
use super::format::DataFormat;
use super::marlin::{MarlinBoard, MARLIN_BOARD_SIZE};
use super::perspective::{flip_score, stm_result, white_wdl};
use super::reader::DataLocation;
use super::record::{decode_fast, RecordPolicy, TrainingRecord};
use crate::packed::{PackedSfenValue, SfMove};

/// Both formats' record size.
pub const BOARD_RECORD_SIZE: usize = 32;
const _SAME_SIZE: () = assert!(MARLIN_BOARD_SIZE == BOARD_RECORD_SIZE);
const _SAME_SIZE_TOO: () = assert!(BULLET_BOARD_SIZE == BOARD_RECORD_SIZE);
/// Output buffer of the writer.
const BUFFER_BYTES: usize = 1 << 16;

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

/// The records of a 32-byte-record stream, in order. A record that does
/// not decode is a skippable error (the next one starts 32 bytes on); a
/// cut-off last record or an I/O error ends the iteration.
pub struct BoardRecords<R> {
    input: R,
    path: PathBuf,
    kind: BoardKind,
    index: u64,
    done: bool,
}

/// One step of [`BoardRecords`]: the outer `Err` may be skipped, the inner
/// one may not.
pub(crate) type BoardStep = Result<Result<(DataLocation, TrainingRecord), DataError>, DataError>;

impl<R: Read> BoardRecords<R> {
    /// Reads `input` as `kind` records, named `path` in errors.
    pub fn new(input: R, path: &Path, kind: BoardKind) -> BoardRecords<R> {
        BoardRecords {
            input,
            path: path.to_path_buf(),
            kind,
            index: 0,
            done: false,
        }
    }

    /// The next record, or `None` at the end of the file.
    pub(crate) fn step(&mut self) -> Option<BoardStep> {
        if self.done {
            return None;
        }
        let mut bytes = [0u8; BOARD_RECORD_SIZE];
        let mut got = 0;
        while got < BOARD_RECORD_SIZE {
            match self.input.read(&mut bytes[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    self.done = true;
                    let file = self.path.clone();
                    return Some(Ok(Err(DataError::Io { file, source })));
                }
            }
        }
        let location = DataLocation::Record(self.index);
        let error = |reason| DataError::BadCoded {
            file: self.path.clone(),
            location,
            reason,
        };
        if got < BOARD_RECORD_SIZE {
            self.done = true;
            let needed = BOARD_RECORD_SIZE as u64;
            let available = got as u64;
            return (got > 0).then(|| Ok(Err(error(CodecError::Truncated { needed, available }))));
        }
        self.index += 1;
        Some(match self.kind.decode(&bytes) {
            Ok(record) => Ok(Ok((location, record))),
            Err(reason) => Err(error(reason)),
        })
    }
}

/// Writes toolkit records as 32-byte records.
pub struct BoardWriter {
    out: BufWriter<File>,
    path: PathBuf,
    kind: BoardKind,
    records: u64,
}

impl BoardWriter {
    /// Writes `kind` records to `file` (created, appended to, or an atomic
    /// temporary), named `path` in errors.
    pub(crate) fn new(file: File, path: &Path, kind: BoardKind) -> BoardWriter {
        BoardWriter {
            out: BufWriter::with_capacity(BUFFER_BYTES, file),
            path: path.to_path_buf(),
            kind,
            records: 0,
        }
    }

    /// The layout written.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// Adds one record (any structurally sound record; the move is not
    /// stored). One the format cannot hold is an error naming its index.
    pub(crate) fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        let policy = RecordPolicy {
            allow_move_none: true,
        };
        let bytes = decode_fast(value, policy)
            .map_err(CodecError::from)
            .and_then(|record| self.kind.encode(&record))
            .map_err(|reason| DataError::CannotHold {
                file: self.path.clone(),
                index: self.records,
                format: self.kind.format(),
                reason,
            })?;
        self.out
            .write_all(&bytes)
            .map_err(|e| DataError::io(&self.path, e))?;
        self.records += 1;
        Ok(())
    }

    /// Flushes and syncs; gives the number of records written.
    pub(crate) fn finish(self) -> Result<u64, DataError> {
        let io = |e| DataError::io(&self.path, e);
        let mut out = self.out;
        out.flush().map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        Ok(self.records)
    }
}

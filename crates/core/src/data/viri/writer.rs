//! viriformat writer: consecutive records become one game while each
//! position is the one the record before it leads to by its stored move,
//! with the same result; any other record starts a new game. Reading the
//! file back replays the moves and so gives back every record's position,
//! move, score and result.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Position};

use super::super::codec_error::CodecError;
use super::super::error::DataError;
use super::super::format::DataFormat;
use super::super::marlin::MarlinBoard;
use super::super::perspective::{flip_score, white_wdl};
use super::super::record::{decode_full, RecordPolicy};
use super::moves::to_viri;
use super::TERMINATOR;
use crate::packed::{DecodedSfen, PackedSfenValue};

/// Output buffer of the writer.
const BUFFER_BYTES: usize = 1 << 16;
/// The largest halfmove clock a record holds (7 bits).
const MAX_RULE50: u32 = 127;

/// The game being collected: its bytes so far and the position its last
/// move leads to.
struct OpenGame {
    bytes: Vec<u8>,
    white_wdl: u8,
    next: Option<DecodedSfen>,
}

/// Writes records as viriformat games.
pub struct ViriWriter {
    out: BufWriter<File>,
    path: PathBuf,
    records: u64,
    games: u64,
    game: Option<OpenGame>,
}

impl ViriWriter {
    /// Writes to `file` (created, appended to, or an atomic temporary),
    /// named `path` in errors.
    pub(crate) fn new(file: File, path: &Path) -> ViriWriter {
        ViriWriter {
            out: BufWriter::with_capacity(BUFFER_BYTES, file),
            path: path.to_path_buf(),
            records: 0,
            games: 0,
            game: None,
        }
    }

    fn cannot_hold(&self, reason: CodecError) -> DataError {
        DataError::CannotHold {
            file: self.path.clone(),
            index: self.records,
            format: DataFormat::Viri,
            reason,
        }
    }

    /// Adds one record: a legal position with a legal best move (a record
    /// without one is an error naming it, as is a score of -32768 with Black
    /// to move, which has no White view).
    pub(crate) fn write(&mut self, value: &PackedSfenValue) -> Result<(), DataError> {
        let policy = RecordPolicy {
            allow_move_none: true,
        };
        let full = decode_full(value, policy).map_err(|e| self.cannot_hold(e.into()))?;
        let Some(best) = full.best_move else {
            return Err(self.cannot_hold(CodecError::NoMove));
        };
        let record = &full.record;
        let turn = record.position.turn;
        let score = flip_score(turn, record.score).map_err(|e| self.cannot_hold(e))?;
        let wdl = white_wdl(turn, record.result);
        let continues = self
            .game
            .as_ref()
            .is_some_and(|g| g.white_wdl == wdl && g.next.as_ref() == Some(&record.position));
        if !continues {
            self.close_game()?;
            let start = MarlinBoard {
                position: record.position.clone(),
                white_score: 0,
                white_wdl: wdl,
            };
            self.game = Some(OpenGame {
                bytes: start.to_bytes().to_vec(),
                white_wdl: wdl,
                next: None,
            });
        }
        let mut chess: Chess = full.chess;
        chess.play_unchecked(best);
        if let Some(game) = self.game.as_mut() {
            game.bytes
                .extend_from_slice(&to_viri(record.mv).to_le_bytes());
            game.bytes.extend_from_slice(&score.to_le_bytes());
            game.next =
                (chess.halfmoves() <= MAX_RULE50).then(|| DecodedSfen::from_position(&chess));
        }
        self.records += 1;
        Ok(())
    }

    /// Writes the open game with its terminator.
    fn close_game(&mut self) -> Result<(), DataError> {
        if let Some(mut game) = self.game.take() {
            game.bytes.extend_from_slice(&TERMINATOR);
            self.out
                .write_all(&game.bytes)
                .map_err(|e| DataError::io(&self.path, e))?;
            self.games += 1;
        }
        Ok(())
    }

    /// Games written so far (the open one not counted).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Writes the last game, flushes and syncs; gives the number of
    /// records written.
    pub(crate) fn finish(mut self) -> Result<u64, DataError> {
        self.close_game()?;
        let io = |e| DataError::io(&self.path, e);
        self.out.flush().map_err(io)?;
        let file = self.out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        Ok(self.records)
    }
}

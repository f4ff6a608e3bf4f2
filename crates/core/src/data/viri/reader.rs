//! Streaming viriformat reader: each game is replayed from its start board,
//! so every record it yields is a legal position with a legal best move.

use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Position};

use super::super::codec_error::CodecError;
use super::super::error::{DataError, RecordError};
use super::super::marlin::{MarlinBoard, MARLIN_BOARD_SIZE};
use super::super::perspective::{flip_score, stm_result};
use super::super::reader::DataLocation;
use super::super::record::TrainingRecord;
use super::moves::from_viri;
use super::{MOVE_ENTRY_SIZE, TERMINATOR};
use crate::packed::{DecodedSfen, SfMove};

/// The largest halfmove clock a record holds (7 bits).
const MAX_RULE50: u32 = 127;

/// The game being replayed.
struct OpenGame {
    chess: Chess,
    white_wdl: u8,
    moves: u64,
}

/// The records of a viriformat stream, in file order: one per stored move,
/// the position before it, its score and the game's result from the side to
/// move's view, and the ply from the fullmove number. The first problem is
/// an error naming the game, the move and the byte offset, and ends the
/// iteration.
pub struct ViriReader<R> {
    input: R,
    path: PathBuf,
    offset: u64,
    games: u64,
    records: u64,
    game: Option<OpenGame>,
    done: bool,
}

impl<R: Read> ViriReader<R> {
    /// Reads `input`, named `path` in errors.
    pub fn new(input: R, path: &Path) -> ViriReader<R> {
        ViriReader {
            input,
            path: path.to_path_buf(),
            offset: 0,
            games: 0,
            records: 0,
            game: None,
            done: false,
        }
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn error(&self, location: DataLocation, reason: CodecError) -> DataError {
        DataError::BadCoded {
            file: self.path.clone(),
            location,
            reason,
        }
    }

    /// Fills `buf`; `Ok(false)` at a clean end of file before its first byte.
    fn fill(&mut self, buf: &mut [u8]) -> Result<bool, FillError> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) => return Err(FillError::Short(got as u64)),
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(FillError::Io(e)),
            }
        }
        self.offset += buf.len() as u64;
        Ok(true)
    }

    /// Reads the next game's start board; `Ok(false)` at the end of the file.
    fn start_game(&mut self) -> Result<bool, DataError> {
        let location = DataLocation::Game {
            game: self.games,
            offset: self.offset,
        };
        let mut bytes = [0u8; MARLIN_BOARD_SIZE];
        match self.fill(&mut bytes) {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(e) => return Err(self.fill_error(e, location, MARLIN_BOARD_SIZE)),
        }
        let board = MarlinBoard::from_bytes(&bytes).map_err(|e| self.error(location, e))?;
        let chess = board
            .position
            .to_chess()
            .map_err(|e| self.error(location, CodecError::Record(RecordError::Sfen(e))))?;
        self.game = Some(OpenGame {
            chess,
            white_wdl: board.white_wdl,
            moves: 0,
        });
        Ok(true)
    }

    fn fill_error(&self, e: FillError, location: DataLocation, needed: usize) -> DataError {
        match e {
            FillError::Io(source) => DataError::Io {
                file: self.path.clone(),
                source,
            },
            FillError::Short(available) => self.error(
                location,
                CodecError::Truncated {
                    needed: needed as u64,
                    available,
                },
            ),
        }
    }

    /// The next record of the open game, `Ok(None)` at its terminator.
    fn next_move(&mut self) -> Result<Option<(DataLocation, TrainingRecord)>, DataError> {
        let game = self.game.as_ref().map_or(0, |g| g.moves);
        let location = DataLocation::GameMove {
            record: self.records,
            game: self.games,
            mv: game,
            offset: self.offset,
        };
        let mut entry = [0u8; MOVE_ENTRY_SIZE];
        match self.fill(&mut entry) {
            Ok(true) => {}
            Ok(false) => return Err(self.error(location, CodecError::UnterminatedGame)),
            Err(e) => return Err(self.fill_error(e, location, MOVE_ENTRY_SIZE)),
        }
        if entry == TERMINATOR {
            return Ok(None);
        }
        let raw = u16::from_le_bytes([entry[0], entry[1]]);
        let white_score = i16::from_le_bytes([entry[2], entry[3]]);
        let Some(open) = self.game.as_mut() else {
            return Ok(None);
        };
        let record = play(open, raw, white_score).map_err(|e| self.error(location, e))?;
        self.records += 1;
        Ok(Some((location, record)))
    }
}

/// The record of the open game's position with the move `raw` and its
/// White-view score, and the game advanced by the move.
fn play(game: &mut OpenGame, raw: u16, white_score: i16) -> Result<TrainingRecord, CodecError> {
    let chess = &game.chess;
    if chess.halfmoves() > MAX_RULE50 {
        return Err(CodecError::Rule50TooLarge(chess.halfmoves()));
    }
    let fullmove = chess.fullmoves().get();
    if fullmove > u32::from(u16::MAX) {
        return Err(CodecError::FullmoveTooLarge(fullmove));
    }
    let position = DecodedSfen::from_position(chess);
    let game_ply =
        u16::try_from(position.game_ply()).map_err(|_| CodecError::FullmoveTooLarge(fullmove))?;
    let mv = from_viri(raw)?;
    let legal = mv.to_move(chess).map_err(|_| CodecError::IllegalMove {
        raw,
        uci: mv.to_uci(),
    })?;
    let turn = position.turn;
    let record = TrainingRecord {
        score: flip_score(turn, white_score)?,
        mv: SfMove::from_move(&legal),
        game_ply,
        result: stm_result(turn, game.white_wdl)?,
        position,
    };
    game.chess.play_unchecked(legal);
    game.moves += 1;
    Ok(record)
}

enum FillError {
    Short(u64),
    Io(std::io::Error),
}

impl<R: Read> Iterator for ViriReader<R> {
    type Item = Result<(DataLocation, TrainingRecord), DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let step = if self.game.is_none() {
                self.start_game().map(|more| {
                    self.done = !more;
                    None
                })
            } else {
                self.next_move().inspect(|record| {
                    if record.is_none() {
                        self.game = None;
                        self.games += 1;
                    }
                })
            };
            match step {
                Ok(Some(record)) => return Some(Ok(record)),
                Ok(None) => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

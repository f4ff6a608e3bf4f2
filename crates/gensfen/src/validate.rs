//! `nnue-gen-sfen validate FILES... [--format NAME]`: every record checked
//! in full, the first bad one reported as one line naming its file, its
//! place and the problem, and the counts per result of a clean file.
//!
//! The checks are the readers' own at [`Validation::Full`]: one king of each
//! colour, no pawn on the first or last rank, the side not to move not in
//! check, castling rights whose king and rook stand on their home squares,
//! a possible en-passant square, material a game can reach, a result byte
//! in range and, where the format stores one, a legal best move.

use std::fmt;
use std::path::PathBuf;

use clap::Args;
use nnue_core::data::{DataError, DataFormat, ReaderOptions, RecordPolicy, Validation};
use nnue_core::packed::GameResult;
use shakmaty::Color;

use crate::error::Error;
use crate::source::for_each_record_as;

/// The arguments of `nnue-gen-sfen validate` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// Input files (.bin, .binpack, .plain, .vf, .mf or .bf).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Read every input as this format, whatever its extension: bin,
    /// binpack, plain, viriformat (vf), marlinformat (mf) or bulletformat (bf).
    #[arg(long, value_name = "NAME")]
    pub format: Option<DataFormat>,
    /// Accept records whose best move is MOVE_NONE (0 / "0000") in formats
    /// that store a move.
    #[arg(long)]
    pub allow_move_none: bool,
}

/// What the files hold, once every record passed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Validated {
    /// Records checked.
    pub records: u64,
    /// Results from White's view: White won, draw, Black won.
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl fmt::Display for Validated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "valid: {} records", self.records)?;
        writeln!(
            f,
            "results (White's view): 1-0 {}, 1/2-1/2 {}, 0-1 {}",
            self.white_wins, self.draws, self.black_wins
        )
    }
}

/// Runs `validate` and returns its report.
pub fn run(args: &ValidateArgs) -> Result<String, Error> {
    Ok(validate(args)?.to_string())
}

/// Checks every record of every file; the first bad one is the error.
/// Files without any record are an error too, as in every subcommand.
pub fn validate(args: &ValidateArgs) -> Result<Validated, Error> {
    let options = ReaderOptions {
        skip_invalid: false,
        policy: RecordPolicy {
            allow_move_none: args.allow_move_none,
        },
    };
    let mut counts = Validated::default();
    for path in &args.files {
        let source = (path.as_path(), args.format);
        for_each_record_as(source, options, Validation::Full, |_, record| {
            counts.records += 1;
            let white = match record.position.turn {
                Color::White => record.result,
                Color::Black => record.result.flip(),
            };
            match white {
                GameResult::Win => counts.white_wins += 1,
                GameResult::Draw => counts.draws += 1,
                GameResult::Loss => counts.black_wins += 1,
            }
            Ok(())
        })?;
    }
    if counts.records == 0 {
        return Err(DataError::no_records(&args.files, 0).into());
    }
    Ok(counts)
}

//! Opening book: a text file with one FEN or EPD position per line, shuffled by the
//! seed. Every worker walks the shuffled list with its own stride, so workers and
//! shards start from different openings and each stays reproducible.

use std::path::Path;

use nnue_core::cli::quote::one_line;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{CastlingMode, Chess, PositionError};
use thiserror::Error;

use crate::error::Error;
use crate::rng::{mix, GenRng};

/// Salt that separates the book's shuffle from the workers' streams.
const BOOK_SALT: u64 = 0xB00C_5A17;

/// The book's positions, in the seed's order.
#[derive(Clone, Debug)]
pub struct Book {
    positions: Vec<Chess>,
}

impl Book {
    /// Reads and checks every line of `path` (empty lines and `#` comments skipped).
    pub fn load(path: &Path, seed: u64) -> Result<Book, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            file: path.to_path_buf(),
            source,
        })?;
        Book::from_bytes(&bytes, path, seed)
    }

    /// [`Self::load`] of a book's bytes; `path` names it in errors (the fuzz
    /// target and the property tests read books without files). Each line must
    /// be UTF-8 on its own, so an error names the line.
    pub fn from_bytes(bytes: &[u8], path: &Path, seed: u64) -> Result<Book, Error> {
        let mut positions = Vec::new();
        let lines = bytes.split(|&b| b == b'\n');
        for (i, raw) in lines.enumerate() {
            let line_error = |problem| Error::BookLine {
                file: path.to_path_buf(),
                line: i + 1,
                problem,
            };
            let line = std::str::from_utf8(raw).map_err(|_| line_error(BookLineError::NotUtf8))?;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            positions.push(parse_line(line).map_err(line_error)?);
        }
        if positions.is_empty() {
            return Err(Error::EmptyBook(path.to_path_buf()));
        }
        GenRng::new(mix(seed ^ BOOK_SALT)).shuffle(&mut positions);
        Ok(Book { positions })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book is empty (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Position `n` of the cyclic order.
    pub fn get(&self, n: u64) -> &Chess {
        &self.positions[(n % self.positions.len() as u64) as usize]
    }
}

/// Most characters of a line an error quotes (a line is as long as the file
/// allows).
const SHOWN_CHARS: usize = 100;

/// A line or FEN as an error quotes it: on one line, cut.
fn shown(text: &str) -> String {
    one_line(text, SHOWN_CHARS)
}

/// Why a book line is not a position (the detail of [`Error::BookLine`]).
/// The line or FEN it quotes is escaped and cut ([`one_line`]).
#[derive(Debug, Error)]
pub enum BookLineError {
    /// Bytes that are not UTF-8 text.
    #[error("the line is not UTF-8 text")]
    NotUtf8,
    /// Fewer fields than an EPD's four.
    #[error("'{line}' has {fields} fields, expected at least 4")]
    TooFewFields { line: String, fields: usize },
    /// The fields do not parse as a FEN.
    #[error("'{fen}': {source}")]
    Fen {
        fen: String,
        #[source]
        source: ParseFenError,
    },
    /// The FEN parses but is not a legal chess position.
    #[error("'{fen}': {source}")]
    Illegal {
        fen: String,
        #[source]
        source: Box<PositionError<Chess>>,
    },
}

/// A FEN (6 fields) or EPD (4 fields, then optional operations) line.
fn parse_line(line: &str) -> Result<Chess, BookLineError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(BookLineError::TooFewFields {
            line: shown(line),
            fields: fields.len(),
        });
    }
    let counters_given =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let fen_text = if counters_given {
        fields[..6].join(" ")
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    let fen: Fen = match fen_text.parse() {
        Ok(fen) => fen,
        Err(source) => {
            return Err(BookLineError::Fen {
                fen: shown(&fen_text),
                source,
            })
        }
    };
    fen.into_position(CastlingMode::Standard)
        .map_err(|source| BookLineError::Illegal {
            fen: shown(&fen_text),
            source: Box::new(source),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn fen_and_epd_lines() {
        let fen = parse_line("4k3/8/8/8/8/8/8/4K2R w K - 3 20").unwrap();
        assert_eq!(fen.halfmoves(), 3);
        let epd = parse_line("4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id \"x\";").unwrap();
        assert_eq!(epd.halfmoves(), 0);
        assert_eq!(
            parse_line("4k3/8/8 w").unwrap_err().to_string(),
            "'4k3/8/8 w' has 2 fields, expected at least 4"
        );
        assert!(matches!(
            parse_line("4k3/8/8 w - -"),
            Err(BookLineError::Fen { .. })
        ));
        let illegal = parse_line("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(
            matches!(illegal, BookLineError::Illegal { .. }),
            "{illegal}"
        );
        assert!(illegal
            .to_string()
            .starts_with("'8/8/8/8/8/8/8/8 w - - 0 1': "));
    }
}

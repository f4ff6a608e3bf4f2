//! Which format a file's bytes look like, for the error of a file read as
//! the wrong one: a reader that fails names the format the first bytes fit
//! instead.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::boards::{BoardKind, BOARD_RECORD_SIZE};
use super::format::DataFormat;
use super::record::{decode_fast, RecordPolicy};
use super::viri::ViriReader;
use crate::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

/// Bytes read from the start of the file.
const SNIFF_BYTES: u64 = 1 << 16;
/// Fixed-size records that must all decode for the file to look like them.
const SNIFF_RECORDS: usize = 16;
/// Stockfish `.binpack` chunks start with this.
const BINPACK_MAGIC: &[u8] = b"BINP";
/// A `.plain` file starts with its first record's `fen` line.
const PLAIN_START: &[u8] = b"fen ";

/// The format other than `read_as` that `path`'s first bytes fit, if any.
pub fn looks_like(path: &Path, read_as: DataFormat) -> Option<DataFormat> {
    let file = File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut head = Vec::new();
    file.take(SNIFF_BYTES).read_to_end(&mut head).ok()?;
    if head.is_empty() {
        return None;
    }
    DataFormat::ALL
        .into_iter()
        .filter(|&f| f != read_as)
        .find(|&f| fits(f, &head, size, path))
}

fn fits(format: DataFormat, head: &[u8], size: u64, path: &Path) -> bool {
    match format {
        DataFormat::Binpack => head.starts_with(BINPACK_MAGIC),
        DataFormat::Plain => head.starts_with(PLAIN_START),
        DataFormat::Viri => fits_viri(head, path),
        DataFormat::Bin => fits_records(head, size, PACKED_SFEN_VALUE_SIZE, |r| {
            let policy = RecordPolicy {
                allow_move_none: true,
            };
            PackedSfenValue::from_slice(r).is_some_and(|v| decode_fast(&v, policy).is_ok())
        }),
        DataFormat::Marlin | DataFormat::Bullet => {
            let kind = match format {
                DataFormat::Marlin => BoardKind::Marlin,
                _ => BoardKind::Bullet,
            };
            fits_records(head, size, BOARD_RECORD_SIZE, |r| {
                r.try_into().is_ok_and(|b| kind.decode(b).is_ok())
            })
        }
    }
}

/// Whole records only, and the first few all decode.
fn fits_records(head: &[u8], size: u64, record: usize, ok: impl Fn(&[u8]) -> bool) -> bool {
    size.is_multiple_of(record as u64) && head.chunks_exact(record).take(SNIFF_RECORDS).all(ok)
}

/// The first game replays (as far as the head goes) with at least one move.
fn fits_viri(head: &[u8], path: &Path) -> bool {
    let mut records = ViriReader::new(head, path);
    let first_ok = matches!(records.next(), Some(Ok(_)));
    first_ok
        && records
            .take(SNIFF_RECORDS)
            .all(|r| r.is_ok() || records_cut_off(&r))
}

/// An error that only says the head ends (the file goes on).
fn records_cut_off<T>(r: &Result<T, super::error::DataError>) -> bool {
    matches!(
        r,
        Err(super::error::DataError::BadCoded {
            reason: super::codec_error::CodecError::Truncated { .. }
                | super::codec_error::CodecError::UnterminatedGame,
            ..
        })
    )
}

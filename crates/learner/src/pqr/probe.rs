//! Before a PQR run: do the files hold games? Shuffled data (or data whose
//! stored moves are not the moves played) has almost no record followed by
//! its successor, and would make every batch search the whole file in vain.

use crate::data::PositionSource;

use super::triplet::played_move;

/// Records examined at the start of the data.
pub const PROBE_RECORDS: u64 = 4096;

/// Fewest records of the probe with a successor for the data to count as games
/// (one in 16: self-play data has one per move, shuffled data about none).
pub const MIN_SUCCESSOR_SHARE: f64 = 1.0 / 16.0;

/// The data is not in game order.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{files}: --loss pqr needs positions in game order (each record's move leading to the \
     next record), but only {with_successor} of the first {examined} records have their \
     successor next (shuffled data?)"
)]
pub struct GameOrderError {
    pub files: String,
    pub examined: u64,
    pub with_successor: u64,
}

/// Counts, over the first [`PROBE_RECORDS`] records, those followed by their
/// successor; an error when fewer than [`MIN_SUCCESSOR_SHARE`] are. Records
/// that fail to decode count as without a successor (reading reports them).
pub fn probe_game_order(source: &dyn PositionSource) -> Result<u64, GameOrderError> {
    let examined = source.len().saturating_sub(1).min(PROBE_RECORDS);
    let mut with_successor = 0;
    for index in 0..examined {
        let (Ok(p), Ok(next)) = (source.record(index), source.record(index + 1)) else {
            continue;
        };
        if played_move(&p, &next).is_some() {
            with_successor += 1;
        }
    }
    if examined == 0 || (with_successor as f64) < examined as f64 * MIN_SUCCESSOR_SHARE {
        return Err(GameOrderError {
            files: source.describe(),
            examined,
            with_successor,
        });
    }
    Ok(with_successor)
}

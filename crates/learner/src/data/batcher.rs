//! Turns stream draws into [`SparseBatch`]es: records are decoded, filtered and
//! turned into feature rows in parallel (chunks in a fixed order, so the result
//! does not depend on the thread count), and accepted in stream order.

use rayon::prelude::*;

use super::batch::{target_of, SparseBatch};
use super::filter::Filter;
use super::mirror;
use super::source::PositionSource;
use super::stream::Stream;
use crate::error::LearnError;
use crate::model::Extractor;

/// Draws decoded by one rayon task.
const DECODE_CHUNK: usize = 256;

/// Reads batches for training.
pub struct Batcher<'a> {
    pub source: &'a dyn PositionSource,
    pub extractor: &'a Extractor,
    pub filter: Filter,
    /// Skip records that fail to decode (counted) instead of stopping.
    pub skip_invalid: bool,
    /// Mirror about half the positions left to right (`--mirror`, drawn from
    /// the filter's seed).
    pub mirror: bool,
    /// Records skipped as invalid so far.
    pub invalid: u64,
    /// Share of draws accepted so far, to size the next read.
    acceptance: f64,
}

/// One decode task's output: accepted draws as positions in the task's slice.
struct Decoded {
    batch: SparseBatch,
    accepted: Vec<usize>,
    invalid: u64,
}

impl<'a> Batcher<'a> {
    pub fn new(
        source: &'a dyn PositionSource,
        extractor: &'a Extractor,
        filter: Filter,
        skip_invalid: bool,
    ) -> Batcher<'a> {
        Batcher {
            source,
            extractor,
            filter,
            skip_invalid,
            mirror: false,
            invalid: 0,
            acceptance: 1.0,
        }
    }

    /// This batcher with `--mirror` on or off.
    pub fn with_mirror(self, mirror: bool) -> Batcher<'a> {
        Batcher { mirror, ..self }
    }

    /// Fills `out` with `n` accepted positions from `stream`.
    pub fn fill(
        &mut self,
        stream: &mut Stream,
        n: usize,
        out: &mut SparseBatch,
    ) -> Result<(), LearnError> {
        out.clear();
        let mut examined = 0u64;
        let limit = 2 * stream.total() + n as u64 + 1024;
        while out.len() < n {
            let need = n - out.len();
            let want = ((need as f64 * 1.1 / self.acceptance.max(0.01)) as usize + 16).max(need);
            let mut draws = stream.take_pending();
            while draws.len() < want {
                draws.push(stream.draw());
            }
            let decoded = self.decode(&draws)?;
            let mut used = draws.len();
            let mut accepted_now = 0usize;
            'merge: for (chunk, part) in decoded.iter().enumerate() {
                self.invalid += part.invalid;
                for (k, &at) in part.accepted.iter().enumerate() {
                    let (stm, nstm) = part.batch.rows(k);
                    out.push(stm, nstm, part.batch.targets[k]);
                    accepted_now += 1;
                    if out.len() == n {
                        used = chunk * DECODE_CHUNK + at + 1;
                        break 'merge;
                    }
                }
            }
            stream.unread(&draws[used..]);
            examined += used as u64;
            self.acceptance = (accepted_now.max(1) as f64 / used as f64).min(1.0);
            if out.is_empty() && examined > limit {
                return Err(LearnError::NoData(format!(
                    "{}: no position passes the filters (eval limit, draws, skipping)",
                    self.source.describe()
                )));
            }
        }
        Ok(())
    }

    /// Decodes `draws` in parallel chunks.
    fn decode(&self, draws: &[(u64, u64)]) -> Result<Vec<Decoded>, LearnError> {
        draws
            .par_chunks(DECODE_CHUNK)
            .map(|chunk| self.decode_chunk(chunk))
            .collect()
    }

    fn decode_chunk(&self, draws: &[(u64, u64)]) -> Result<Decoded, LearnError> {
        let cap = self.extractor.capacity();
        let (mut stm, mut nstm) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
        let mut out = Decoded {
            batch: SparseBatch::new(),
            accepted: Vec::with_capacity(draws.len()),
            invalid: 0,
        };
        for (at, &(index, draw)) in draws.iter().enumerate() {
            let record = match self.source.record(index) {
                Ok(r) => r,
                Err(_) if self.skip_invalid => {
                    out.invalid += 1;
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if !self.filter.accepts(&record, draw) {
                continue;
            }
            let pos = &record.position;
            let flip = self.mirror && mirror::mirrors(self.filter.seed, draw);
            let board = mirror::oriented(&pos.board, flip);
            self.extractor.rows(&board, pos.turn, &mut stm, &mut nstm);
            out.batch.push(&stm, &nstm, target_of(&record));
            out.accepted.push(at);
        }
        Ok(out)
    }
}

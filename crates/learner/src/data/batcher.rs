//! Turns stream draws into [`SparseBatch`]es: records are decoded, filtered and
//! turned into feature rows in parallel (chunks in a fixed order, so the result
//! does not depend on the thread count), and accepted in stream order.

use std::ops::Range;

use rayon::prelude::*;

use super::batch::{target_of, SparseBatch};
use super::filter::Filter;
use super::mirror;
use super::source::PositionSource;
use super::stream::Stream;
use crate::error::LearnError;
use crate::model::Extractor;
use crate::pqr;
use shakmaty::Position;

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
    /// Build PQR triplets (`--loss pqr`) with this seed: each accepted draw
    /// is a game position followed by its two successors ([`crate::pqr`]).
    pub pqr_seed: Option<u64>,
    /// The ranges a triplet's p and q must share (the stream's): the last
    /// training record of a file is not paired with the held-out record after it.
    pub pqr_ranges: Vec<Range<u64>>,
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
            pqr_seed: None,
            pqr_ranges: Vec::new(),
            invalid: 0,
            acceptance: 1.0,
        }
    }

    /// This batcher with `--mirror` on or off.
    pub fn with_mirror(self, mirror: bool) -> Batcher<'a> {
        Batcher { mirror, ..self }
    }

    /// This batcher building PQR triplets seeded `seed` whose p and q lie in
    /// one of `ranges`, or single positions (`None`).
    pub fn with_pqr(self, seed: Option<u64>, ranges: &[Range<u64>]) -> Batcher<'a> {
        Batcher {
            pqr_seed: seed,
            pqr_ranges: ranges.to_vec(),
            ..self
        }
    }

    /// Positions each accepted draw adds to a batch.
    pub fn per_draw(&self) -> usize {
        if self.pqr_seed.is_some() {
            pqr::TRIPLET_LEN
        } else {
            1
        }
    }

    /// Fills `out` with `n` accepted draws from `stream`: `n` positions, or `n`
    /// triplets (`3n` positions, p, q, r in turn) with [`Self::with_pqr`].
    pub fn fill(
        &mut self,
        stream: &mut Stream,
        n: usize,
        out: &mut SparseBatch,
    ) -> Result<(), LearnError> {
        out.clear();
        let per = self.per_draw();
        let mut examined = 0u64;
        let limit = 2 * stream.total() + n as u64 + 1024;
        while out.len() < n * per {
            let need = n - out.len() / per;
            let want = ((need as f64 * 1.1 / self.acceptance.max(0.01)) as usize + 16).max(need);
            let mut draws = stream.take_pending();
            while draws.len() < want {
                draws.push(stream.draw());
            }
            let decoded = self.decode(&draws)?;
            let mut used = draws.len();
            let mut accepted_now = 0usize;
            for (chunk, part) in decoded.iter().enumerate() {
                self.invalid += part.invalid;
                // The part's first accepted draws, as many as the batch has room for.
                let take = part.accepted.len().min(n - out.len() / per);
                out.extend_from(&part.batch, 0..take * per);
                accepted_now += take;
                if out.len() == n * per {
                    used = chunk * DECODE_CHUNK + part.accepted[take - 1] + 1;
                    break;
                }
            }
            stream.unread(&draws[used..]);
            examined += used as u64;
            self.acceptance = (accepted_now.max(1) as f64 / used as f64).min(1.0);
            if out.is_empty() && examined > limit {
                let what = if per > 1 {
                    "no position with a successor in its game passes the filters"
                } else {
                    "no position passes the filters"
                };
                return Err(LearnError::NoData(format!(
                    "{}: {what} (eval limit, draws, skipping)",
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
            let target = target_of(&record);
            let flip = self.mirror && mirror::mirrors(self.filter.seed, draw);
            if let Some(seed) = self.pqr_seed {
                let next_in_range = (self.pqr_ranges.iter())
                    .any(|r| r.contains(&index) && r.contains(&(index + 1)));
                if !next_in_range {
                    continue;
                }
                let next = self.source.record(index + 1);
                let next = match next {
                    Ok(r) => r,
                    Err(_) if self.skip_invalid => continue,
                    Err(e) => return Err(e.into()),
                };
                let Some(t) = pqr::triplet_of(record, &next, pqr::triplet::salt(seed, index, draw))
                else {
                    continue;
                };
                let p = &t.p.position;
                for (board, turn) in [
                    (&p.board, p.turn),
                    (t.q.board(), t.q.turn()),
                    (t.r.board(), t.r.turn()),
                ] {
                    let board = mirror::oriented(board, flip);
                    self.extractor.rows(&board, turn, &mut stm, &mut nstm);
                    let bucket = self.extractor.bucket(&board);
                    out.batch.push(&stm, &nstm, bucket, target);
                }
            } else {
                let pos = &record.position;
                let board = mirror::oriented(&pos.board, flip);
                self.extractor.rows(&board, pos.turn, &mut stm, &mut nstm);
                let bucket = self.extractor.bucket(&board);
                out.batch.push(&stm, &nstm, bucket, target);
            }
            out.accepted.push(at);
        }
        Ok(out)
    }
}

//! The training stream: record indices drawn from every file in turn (the next
//! file chosen at random, weighted by what it has left in the pass) through a
//! shuffle buffer. Only indices move through it, so its whole state is a few
//! numbers and the buffer, and a checkpoint can store it to resume exactly.

use std::ops::Range;

use nnue_core::nnue::random::splitmix64_finalize;

/// A saved stream position that does not fit the training files (other files,
/// or files of other lengths, or a damaged checkpoint): says which part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the data stream position does not fit these training files ({0})")]
pub struct StreamMismatch(pub &'static str);

/// SplitMix64 increment.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Everything needed to continue the stream where it was.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamState {
    /// Completed passes over the data.
    pub pass: u64,
    /// Positions drawn so far (numbers each draw for random skipping).
    pub drawn: u64,
    /// Random state.
    pub rng: u64,
    /// Next record of each range in this pass (relative to the range start).
    pub cursors: Vec<u64>,
    /// Indices waiting in the shuffle buffer.
    pub buffer: Vec<u64>,
    /// `(index, draw number)` drawn but not yet examined by the batcher, in order.
    pub pending: Vec<(u64, u64)>,
}

/// A shuffled, endless stream of record indices over `ranges`.
#[derive(Clone, Debug)]
pub struct Stream {
    ranges: Vec<Range<u64>>,
    capacity: usize,
    pub state: StreamState,
}

impl Stream {
    /// A stream over `ranges` (must hold at least one record) with a shuffle
    /// buffer of `capacity` indices.
    pub fn new(ranges: Vec<Range<u64>>, capacity: usize, seed: u64) -> Stream {
        let state = StreamState {
            rng: splitmix64_finalize(seed ^ 0x5EED_0F57_12EA_u64),
            cursors: vec![0; ranges.len()],
            ..StreamState::default()
        };
        let total: u64 = ranges.iter().map(|r| r.end - r.start).sum();
        Stream {
            ranges,
            capacity: capacity.clamp(1, total.max(1) as usize),
            state,
        }
    }

    /// Replaces the state (resume); it must fit the ranges: a cursor per range
    /// within it, and every waiting index one of the ranges' records (an index
    /// beyond them would fail a read mid-run, one in the held-out part would
    /// train on validation data).
    pub fn restore(&mut self, state: StreamState) -> Result<(), StreamMismatch> {
        if state.cursors.len() != self.ranges.len() {
            return Err(StreamMismatch("another number of files"));
        }
        let mut cursors = state.cursors.iter().zip(&self.ranges);
        if cursors.any(|(&c, r)| c > r.end - r.start) {
            return Err(StreamMismatch("a file position beyond its end"));
        }
        let mut waiting = (state.buffer.iter()).chain(state.pending.iter().map(|(i, _)| i));
        if waiting.any(|i| !self.ranges.iter().any(|r| r.contains(i))) {
            return Err(StreamMismatch(
                "a waiting record outside the training records",
            ));
        }
        self.state = state;
        Ok(())
    }

    fn random(&mut self) -> u64 {
        self.state.rng = self.state.rng.wrapping_add(GOLDEN);
        splitmix64_finalize(self.state.rng)
    }

    /// The index ranges the stream draws from.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// Total records in the ranges.
    pub fn total(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// The next index read from the files (no shuffling yet).
    fn read_next(&mut self) -> u64 {
        let left = |s: &Stream| -> u64 {
            s.ranges
                .iter()
                .zip(&s.state.cursors)
                .map(|(r, &c)| r.end - r.start - c)
                .sum()
        };
        if left(self) == 0 {
            self.state.pass += 1;
            self.state.cursors.iter_mut().for_each(|c| *c = 0);
        }
        let mut pick = self.random() % left(self);
        for (r, c) in self.ranges.iter().zip(self.state.cursors.iter_mut()) {
            let rest = r.end - r.start - *c;
            if pick < rest {
                let index = r.start + *c;
                *c += 1;
                return index;
            }
            pick -= rest;
        }
        unreachable!("a pick below the records left always falls in a range")
    }

    /// The draws returned by [`Self::unread`], oldest first; the caller examines
    /// them before drawing new ones.
    pub fn take_pending(&mut self) -> Vec<(u64, u64)> {
        std::mem::take(&mut self.state.pending)
    }

    /// The next new `(index, draw number)` from the shuffle buffer.
    pub fn draw(&mut self) -> (u64, u64) {
        while self.state.buffer.len() < self.capacity {
            let index = self.read_next();
            self.state.buffer.push(index);
        }
        let slot = (self.random() % self.state.buffer.len() as u64) as usize;
        let index = self.state.buffer.swap_remove(slot);
        let draw = self.state.drawn;
        self.state.drawn += 1;
        (index, draw)
    }

    /// Returns examined-too-early draws to the front, in order.
    pub fn unread(&mut self, draws: &[(u64, u64)]) {
        let mut pending = draws.to_vec();
        pending.append(&mut self.state.pending);
        self.state.pending = pending;
    }
}

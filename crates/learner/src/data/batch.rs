//! A batch of positions in sparse form: each sample's transformer rows for both
//! perspectives (side to move first) stored back to back, with offsets.

use std::ops::Range;

use nnue_core::data::TrainingRecord;
use nnue_core::packed::GameResult;

use crate::loss::Target;

/// Positions ready for the model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseBatch {
    /// Rows of the side to move, all samples concatenated.
    pub stm: Vec<u32>,
    /// Rows of the other side.
    pub nstm: Vec<u32>,
    /// `len + 1` offsets into `stm`.
    pub stm_offsets: Vec<u32>,
    /// `len + 1` offsets into `nstm`.
    pub nstm_offsets: Vec<u32>,
    /// Each sample's output bucket (0 for a net without buckets).
    pub buckets: Vec<u8>,
    pub targets: Vec<Target>,
}

impl SparseBatch {
    /// An empty batch.
    pub fn new() -> SparseBatch {
        SparseBatch {
            stm_offsets: vec![0],
            nstm_offsets: vec![0],
            ..SparseBatch::default()
        }
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Removes every sample, keeping the buffers.
    pub fn clear(&mut self) {
        self.stm.clear();
        self.nstm.clear();
        self.stm_offsets.clear();
        self.nstm_offsets.clear();
        self.stm_offsets.push(0);
        self.nstm_offsets.push(0);
        self.buckets.clear();
        self.targets.clear();
    }

    /// Appends a sample whose output bucket is `bucket`.
    pub fn push(&mut self, stm: &[u32], nstm: &[u32], bucket: u8, target: Target) {
        self.stm.extend_from_slice(stm);
        self.nstm.extend_from_slice(nstm);
        self.stm_offsets.push(self.stm.len() as u32);
        self.nstm_offsets.push(self.nstm.len() as u32);
        self.buckets.push(bucket);
        self.targets.push(target);
    }

    /// Appends samples `samples` of `other`, in one copy per field.
    pub fn extend_from(&mut self, other: &SparseBatch, samples: Range<usize>) {
        let (first, end) = (samples.start, samples.end);
        let stm = other.stm_offsets[first] as usize..other.stm_offsets[end] as usize;
        let nstm = other.nstm_offsets[first] as usize..other.nstm_offsets[end] as usize;
        // Offsets from `start` in `other` become offsets from `len` here.
        let rebase = |offsets: &mut Vec<u32>, from: &[u32], len: usize, start: usize| {
            offsets.extend(from.iter().map(|&o| o - start as u32 + len as u32));
        };
        let (stm_len, nstm_len) = (self.stm.len(), self.nstm.len());
        rebase(
            &mut self.stm_offsets,
            &other.stm_offsets[first + 1..=end],
            stm_len,
            stm.start,
        );
        rebase(
            &mut self.nstm_offsets,
            &other.nstm_offsets[first + 1..=end],
            nstm_len,
            nstm.start,
        );
        self.stm.extend_from_slice(&other.stm[stm]);
        self.nstm.extend_from_slice(&other.nstm[nstm]);
        self.buckets
            .extend_from_slice(&other.buckets[samples.clone()]);
        self.targets.extend_from_slice(&other.targets[samples]);
    }

    /// Sample `i`'s output bucket.
    #[inline]
    pub fn bucket(&self, i: usize) -> usize {
        usize::from(self.buckets[i])
    }

    /// Sample `i`'s rows, side to move first.
    #[inline]
    pub fn rows(&self, i: usize) -> (&[u32], &[u32]) {
        let s = self.stm_offsets[i] as usize..self.stm_offsets[i + 1] as usize;
        let n = self.nstm_offsets[i] as usize..self.nstm_offsets[i + 1] as usize;
        (&self.stm[s], &self.nstm[n])
    }
}

/// The target of a record: its score and the result as 0, ½ or 1.
pub fn target_of(record: &TrainingRecord) -> Target {
    let result = match record.result {
        GameResult::Loss => 0.0,
        GameResult::Draw => 0.5,
        GameResult::Win => 1.0,
    };
    Target {
        score: f32::from(record.score),
        result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(score: f32) -> Target {
        Target { score, result: 0.5 }
    }

    #[test]
    fn extend_from_equals_pushing_each_sample() {
        let mut other = SparseBatch::new();
        other.push(&[1, 2], &[3], 0, target(1.0));
        other.push(&[], &[4, 5, 6], 1, target(2.0));
        other.push(&[7], &[8], 2, target(3.0));
        other.push(&[9, 10, 11], &[], 3, target(4.0));
        let mut bulk = SparseBatch::new();
        bulk.push(&[20], &[21, 22], 5, target(9.0));
        let mut single = bulk.clone();
        bulk.extend_from(&other, 1..3);
        bulk.extend_from(&other, 3..3);
        for i in 1..3 {
            let (stm, nstm) = other.rows(i);
            single.push(stm, nstm, other.buckets[i], other.targets[i]);
        }
        assert_eq!(bulk, single);
    }
}

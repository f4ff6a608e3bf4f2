//! One training batch, with the next one read at the same time.
//!
//! While batch k trains, batch k + 1 is decoded on the same rayon pool
//! (`rayon::join`). The stream is then one batch ahead of the weights, so the
//! state after batch k is kept for checkpoints; a resumed run reads batch k + 1
//! again from that state and gets the same positions.

use super::setup::Run;
use super::step::{train_step, LossSetting, Workspace};
use crate::data::{Batcher, SparseBatch};
use crate::error::LearnError;
use crate::loss::Figures;
use crate::optim::Step;

impl Run<'_> {
    /// The size of the batch `ahead` batches after the next one (0 = the next),
    /// or `None` when the run ends before it.
    pub(super) fn next_batch_size(&self, ahead: u64) -> Option<usize> {
        let config = self.config;
        let batch = config.batch_size as u64;
        let mut epoch = self.state.schedule.epoch;
        let mut done = self.state.epoch_positions;
        for _ in 0..ahead {
            done += batch.min(config.epoch_size - done);
            if done >= config.epoch_size {
                epoch += 1;
                done = 0;
            }
        }
        (epoch < config.epochs).then(|| batch.min(config.epoch_size - done) as usize)
    }

    /// Reads a batch of `n` positions from the stream.
    fn read_batch(&mut self, n: usize) -> Result<SparseBatch, LearnError> {
        let mut batcher = Batcher::new(
            self.source.as_ref(),
            &self.extractor,
            self.config.filter.clone(),
            self.config.skip_invalid,
        )
        .with_mirror(self.config.mirror)
        .with_pqr(self.config.pqr_seed(), self.stream.ranges());
        let mut batch = SparseBatch::new();
        batcher.fill(&mut self.stream, n, &mut batch)?;
        self.invalid += batcher.invalid;
        Ok(batch)
    }

    /// The batch to train now: the prefetched one, or one read now.
    fn current_batch(&mut self, n: usize) -> Result<SparseBatch, LearnError> {
        match self.prefetched.take() {
            Some(batch) if batch.len() == n * self.config.positions_per_sample() => Ok(batch),
            other => {
                if other.is_some() {
                    // Not the size expected: read it again from where it began.
                    if let Some(state) = self.consumed.take() {
                        self.stream.state = state;
                    }
                }
                self.consumed = None;
                self.read_batch(n)
            }
        }
    }

    /// Trains one batch of `n` positions (reading the next one meanwhile);
    /// returns its summed figures.
    pub(super) fn train_batch(
        &mut self,
        ws: &mut Workspace,
        n: usize,
    ) -> Result<Figures, LearnError> {
        let batch = self.current_batch(n)?;
        let next_n = self.next_batch_size(1);
        self.consumed = next_n.map(|_| self.stream.state.clone());
        let config = self.config;
        let state = &mut self.state;
        // The batch's index in the run is the count of batches before it.
        let lr = config.next_rate(&state.schedule, state.steps);
        state.steps += 1;
        let loss = LossSetting {
            params: &config.loss,
            power_lambda: config.power_lambda(state.schedule.epoch),
            quantization_aware: config.quantization_aware,
        };
        let step = Step {
            lr: lr as f32,
            t: state.steps,
            limit: f32::MAX,
        };
        let weights = &mut state.current;
        let mut batcher = Batcher::new(
            self.source.as_ref(),
            &self.extractor,
            config.filter.clone(),
            config.skip_invalid,
        )
        .with_mirror(config.mirror)
        .with_pqr(config.pqr_seed(), self.stream.ranges());
        let stream = &mut self.stream;
        let (next, figures) = rayon::join(
            || {
                next_n
                    .map(|m| {
                        let mut next = SparseBatch::new();
                        batcher.fill(stream, m, &mut next).map(|()| next)
                    })
                    .transpose()
            },
            || {
                let (model, slots) = (&mut weights.model, &mut weights.slots);
                train_step(model, slots, &config.optimizer, loss, &batch, ws, step)
            },
        );
        self.invalid += batcher.invalid;
        self.prefetched = next?;
        state.epoch_positions += n as u64;
        state.positions += n as u64;
        state.epoch_learn.0.add(&figures);
        state.epoch_learn.1 += n as u64;
        Ok(figures)
    }
}

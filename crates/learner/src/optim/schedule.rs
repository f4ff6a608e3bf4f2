//! The learning rate over a run: a factor per epoch, drops at given epochs, and
//! nodchip's newbob (an epoch whose validation loss does not improve is rolled
//! back and the rate cut; after too many rejections in a row training stops).

/// Schedule settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Rate at the start.
    pub lr: f64,
    /// Multiplies the rate after every epoch.
    pub decay: f64,
    /// Epoch numbers (1-based) after which the rate is multiplied by `step_gamma`.
    pub steps: Vec<u64>,
    pub step_gamma: f64,
    /// newbob's factor; 1.0 switches newbob off.
    pub newbob_decay: f64,
    /// Consecutive rejected epochs after which training stops.
    pub max_rejections: u32,
}

/// Where a run is in its schedule (saved in checkpoints).
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleState {
    /// Completed epochs.
    pub epoch: u64,
    pub lr: f64,
    /// Best validation loss of an accepted epoch (newbob).
    pub best_loss: Option<f64>,
    /// Rejections in a row.
    pub rejections: u32,
}

/// What happens to the epoch that just ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep the weights.
    Accept,
    /// Restore the weights from before the epoch (newbob).
    Reject,
    /// Restore them and stop: too many rejections in a row.
    Stop,
}

impl Schedule {
    /// The state at the start of a run.
    pub fn start(&self) -> ScheduleState {
        ScheduleState {
            epoch: 0,
            lr: self.lr,
            best_loss: None,
            rejections: 0,
        }
    }

    /// Whether newbob is on.
    pub fn newbob(&self) -> bool {
        self.newbob_decay < 1.0
    }

    /// Ends an epoch with validation loss `loss`: decides on newbob and moves the
    /// rate on.
    pub fn end_epoch(&self, state: &mut ScheduleState, loss: f64) -> Verdict {
        state.epoch += 1;
        let mut verdict = Verdict::Accept;
        if self.newbob() {
            if state.best_loss.is_none_or(|best| loss < best) {
                state.best_loss = Some(loss);
                state.rejections = 0;
            } else {
                state.rejections += 1;
                state.lr *= self.newbob_decay;
                verdict = if state.rejections >= self.max_rejections {
                    Verdict::Stop
                } else {
                    Verdict::Reject
                };
            }
        }
        state.lr *= self.decay;
        if self.steps.contains(&state.epoch) {
            state.lr *= self.step_gamma;
        }
        verdict
    }
}

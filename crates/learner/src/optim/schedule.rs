//! The learning rate over a run: a factor per epoch, drops at given epochs, and
//! nodchip's newbob (an epoch whose validation loss does not improve is rolled
//! back and the rate cut; after too many rejections in a row training stops);
//! or, instead of those, a half cosine from `--lr` to `--lr-final` over the
//! run's batches (bullet's and nnue-pytorch's cosine annealing). Either may
//! start with a linear warm-up over the first `--lr-warmup-batches` batches.
//!
//! The rate of a batch is a pure function of the batch's index in the run and
//! the per-epoch state, both saved in checkpoints, so a resumed run follows the
//! same curve exactly.

use std::f64::consts::PI;

/// The rate `--lr-final` defaults to: a cosine run anneals to zero.
pub const DEFAULT_FINAL_LR: f64 = 0.0;

/// Which curve the rate follows (`--lr-schedule`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LrSchedule {
    /// Per-epoch factors: `--lr-decay`, `--lr-steps`, newbob (the default).
    #[default]
    Step,
    /// A half cosine from `--lr` to `--lr-final`, updated every batch.
    Cosine,
}

/// A schedule the run cannot follow, naming the option and its value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScheduleError {
    #[error("--lr-final {0} is not a rate of 0 or more")]
    NegativeFinal(f64),
    #[error("--lr-final {final_lr} is above --lr {lr}: the cosine would rise")]
    FinalAboveStart { final_lr: f64, lr: f64 },
    #[error("--lr-final {0} needs --lr-schedule cosine")]
    FinalWithoutCosine(f64),
    #[error("--lr-warmup-batches {warmup} is longer than the run ({total} batches)")]
    WarmupTooLong { warmup: u64, total: u64 },
    #[error("--lr-schedule cosine sets the rate of every batch; it cannot combine with {option} {value}")]
    CosineWith { option: &'static str, value: String },
}

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
    /// The curve the rate follows.
    pub curve: LrSchedule,
    /// The rate at the end of a cosine run; `None` is [`DEFAULT_FINAL_LR`].
    pub final_lr: Option<f64>,
    /// Batches over which the rate rises linearly to the schedule's (0 = none).
    pub warmup_batches: u64,
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
    /// A step schedule at `lr` with every factor off: no decay, no steps, no
    /// newbob, no warm-up (the trainer's defaults, which options then change).
    pub fn step(lr: f64) -> Schedule {
        Schedule {
            lr,
            decay: 1.0,
            steps: Vec::new(),
            step_gamma: 0.1,
            newbob_decay: 1.0,
            max_rejections: 4,
            curve: LrSchedule::Step,
            final_lr: None,
            warmup_batches: 0,
        }
    }

    /// The state at the start of a run.
    pub fn start(&self) -> ScheduleState {
        ScheduleState {
            epoch: 0,
            lr: self.lr,
            best_loss: None,
            rejections: 0,
        }
    }

    /// The rate of the batch with 0-based index `batch` of a run of
    /// `total_batches`: the curve's rate times the warm-up's factor. Without
    /// cosine or warm-up it is exactly the epoch's rate, as it always was.
    pub fn rate(&self, state: &ScheduleState, batch: u64, total_batches: u64) -> f64 {
        let base = match self.curve {
            LrSchedule::Step => state.lr,
            LrSchedule::Cosine => self.cosine_rate(batch, total_batches),
        };
        match self.warmup_factor(batch) {
            Some(factor) => base * factor,
            None => base,
        }
    }

    /// The rate a cosine run ends at.
    pub fn final_rate(&self) -> f64 {
        self.final_lr.unwrap_or(DEFAULT_FINAL_LR)
    }

    /// `lr * w + final * (1 - w)` with `w = (1 + cos(pi * batch / total)) / 2`:
    /// `--lr` at batch 0, the mean of the two half way, `--lr-final` after the
    /// last batch. Written as a blend so both ends are exact.
    fn cosine_rate(&self, batch: u64, total_batches: u64) -> f64 {
        let progress = (batch as f64 / total_batches.max(1) as f64).min(1.0);
        let w = 0.5 * (1.0 + (PI * progress).cos());
        self.lr * w + self.final_rate() * (1.0 - w)
    }

    /// `(batch + 1) / warmup` during the warm-up, so its last batch reaches the
    /// full rate and no batch trains at rate 0; `None` after it.
    fn warmup_factor(&self, batch: u64) -> Option<f64> {
        (batch < self.warmup_batches).then(|| (batch + 1) as f64 / self.warmup_batches as f64)
    }

    /// Refuses settings the run cannot follow; `total_batches` is the run's
    /// length (`--epochs` times the batches of an epoch).
    pub fn check(&self, total_batches: u64) -> Result<(), ScheduleError> {
        if let Some(end) = self.final_lr {
            if !(end >= 0.0 && end.is_finite()) {
                return Err(ScheduleError::NegativeFinal(end));
            }
            if self.curve != LrSchedule::Cosine {
                return Err(ScheduleError::FinalWithoutCosine(end));
            }
            if end > self.lr {
                return Err(ScheduleError::FinalAboveStart {
                    final_lr: end,
                    lr: self.lr,
                });
            }
        }
        if self.warmup_batches > total_batches {
            return Err(ScheduleError::WarmupTooLong {
                warmup: self.warmup_batches,
                total: total_batches,
            });
        }
        if self.curve == LrSchedule::Cosine {
            self.check_cosine_alone()?;
        }
        Ok(())
    }

    /// The per-epoch factors would fight the cosine's per-batch rate (and a
    /// newbob cut would be undone by the next batch), so they are refused.
    fn check_cosine_alone(&self) -> Result<(), ScheduleError> {
        let with = |option, value: String| Err(ScheduleError::CosineWith { option, value });
        if self.newbob() {
            return with("--newbob-decay", self.newbob_decay.to_string());
        }
        if self.decay != 1.0 {
            return with("--lr-decay", self.decay.to_string());
        }
        if !self.steps.is_empty() {
            let steps: Vec<String> = self.steps.iter().map(u64::to_string).collect();
            return with("--lr-steps", steps.join(","));
        }
        Ok(())
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
                // Saturating: a damaged checkpoint may hold any count.
                state.rejections = state.rejections.saturating_add(1);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(lr: f64, final_lr: f64) -> Schedule {
        Schedule {
            curve: LrSchedule::Cosine,
            final_lr: Some(final_lr),
            ..Schedule::step(lr)
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-15 * b.abs().max(1.0)
    }

    /// A damaged checkpoint's rejection count at its maximum: a worse epoch
    /// stops the run (the count once overflowed here).
    #[test]
    fn a_saturated_rejection_count_stops() {
        let s = Schedule {
            newbob_decay: 0.5,
            ..Schedule::step(0.01)
        };
        let mut state = s.start();
        state.best_loss = Some(1.0);
        state.rejections = u32::MAX;
        assert_eq!(s.end_epoch(&mut state, 2.0), Verdict::Stop);
        assert_eq!((state.rejections, state.lr), (u32::MAX, 0.005));
    }

    #[test]
    fn the_step_rate_is_the_epochs_rate_bit_for_bit() {
        let s = Schedule {
            decay: 0.9,
            ..Schedule::step(0.003)
        };
        let mut state = s.start();
        s.end_epoch(&mut state, 1.0);
        for batch in [0, 1, 17, 1_000_000] {
            assert_eq!(s.rate(&state, batch, 100).to_bits(), state.lr.to_bits());
        }
    }

    #[test]
    fn cosine_rate_at_start_middle_quarter_and_end() {
        let (lr, end, total) = (0.01, 0.001, 100);
        let s = cosine(lr, end);
        let state = s.start();
        assert_eq!(s.rate(&state, 0, total), lr);
        assert!(close(s.rate(&state, 50, total), (lr + end) / 2.0));
        let quarter = end + (lr - end) * 0.5 * (1.0 + (PI / 4.0).cos());
        assert!(close(s.rate(&state, 25, total), quarter));
        assert_eq!(s.rate(&state, total, total), end);
        // Past the end (a run continued for more epochs) it stays at the end.
        assert!(close(s.rate(&state, 2 * total, total), end));
        // The last batch trains a little above the final rate.
        assert!(s.rate(&state, total - 1, total) > end);
        // Unset, the final rate is 0.
        let zero = Schedule {
            final_lr: None,
            ..s
        };
        assert!(close(zero.rate(&state, total, total), DEFAULT_FINAL_LR));
    }

    #[test]
    fn warmup_rises_linearly_then_hands_over_to_the_schedule() {
        let warm = Schedule {
            warmup_batches: 10,
            ..Schedule::step(0.01)
        };
        let state = warm.start();
        assert!(close(warm.rate(&state, 0, 100), 0.001));
        assert!(close(warm.rate(&state, 4, 100), 0.005));
        // The warm-up's last batch reaches the full rate.
        assert_eq!(warm.rate(&state, 9, 100), 0.01);
        assert_eq!(warm.rate(&state, 10, 100), 0.01);
        // Over a cosine it scales the cosine's rate.
        let both = Schedule {
            warmup_batches: 10,
            ..cosine(0.01, 0.0)
        };
        let at5 = 0.01 * 0.5 * (1.0 + (PI * 5.0 / 100.0).cos());
        assert!(close(both.rate(&state, 5, 100), at5 * 0.6));
        let at10 = 0.01 * 0.5 * (1.0 + (PI * 10.0 / 100.0).cos());
        assert!(close(both.rate(&state, 10, 100), at10));
    }

    #[test]
    fn settings_the_run_cannot_follow_are_refused_by_name_and_value() {
        let refused = |s: Schedule, total: u64| s.check(total).unwrap_err().to_string();
        assert_eq!(
            refused(cosine(0.01, -0.5), 10),
            "--lr-final -0.5 is not a rate of 0 or more"
        );
        assert_eq!(
            refused(cosine(0.01, 0.02), 10),
            "--lr-final 0.02 is above --lr 0.01: the cosine would rise"
        );
        let final_on_step = Schedule {
            final_lr: Some(0.001),
            ..Schedule::step(0.01)
        };
        assert_eq!(
            refused(final_on_step, 10),
            "--lr-final 0.001 needs --lr-schedule cosine"
        );
        let long = Schedule {
            warmup_batches: 11,
            ..Schedule::step(0.01)
        };
        assert_eq!(
            refused(long.clone(), 10),
            "--lr-warmup-batches 11 is longer than the run (10 batches)"
        );
        assert_eq!(long.check(11), Ok(()));
        let newbob = Schedule {
            newbob_decay: 0.5,
            ..cosine(0.01, 0.0)
        };
        assert!(refused(newbob, 10).ends_with("cannot combine with --newbob-decay 0.5"));
        let decay = Schedule {
            decay: 0.9,
            ..cosine(0.01, 0.0)
        };
        assert!(refused(decay, 10).ends_with("cannot combine with --lr-decay 0.9"));
        let steps = Schedule {
            steps: vec![2, 5],
            ..cosine(0.01, 0.0)
        };
        assert!(refused(steps, 10).ends_with("cannot combine with --lr-steps 2,5"));
        assert_eq!(cosine(0.01, 0.01).check(10), Ok(()));
        let warm_newbob = Schedule {
            newbob_decay: 0.5,
            warmup_batches: 3,
            ..Schedule::step(0.01)
        };
        assert_eq!(warm_newbob.check(10), Ok(()));
    }
}

//! Stopping a run that has diverged, before it writes a useless net over a good
//! one: a training or validation loss that is not a finite number, or a
//! validation loss more than [`MARGIN`] above the run's starting value for
//! `--divergence-patience` reports in a row. The starting value is the initial
//! validation loss (for a resumed run, that of the resumed weights). The margin
//! keeps fine-tuning apart from divergence: a run from `--init-net` starts from
//! a trained net, and new data can raise its validation loss a little for a
//! while; a diverged run's loss is many times its start (`--lr 1e9`: 20 times). Newbob already rolls back single
//! bad epochs; this catches the run that never recovers, as a learning rate
//! orders of magnitude too high does. While the validation loss is above the
//! start the periodic saves are skipped, so the files a diverged run leaves
//! are those of its last good epoch.

/// Reports in a row above the starting validation loss that stop a run
/// (`--divergence-patience`'s default).
pub const DEFAULT_PATIENCE: u32 = 3;

/// How far above the starting validation loss, relatively, a report counts as
/// diverging (0.25: more than 25 % above).
pub const MARGIN: f64 = 0.25;

/// Why a run was judged diverged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DivergenceError {
    /// A training batch's loss is not a finite number.
    #[error("training loss {loss} after {positions} positions")]
    TrainingLoss { loss: f64, positions: u64 },
    /// A validation loss is not a finite number.
    #[error("validation loss {loss} {when}")]
    ValidationLoss { loss: f64, when: String },
    /// The validation loss stayed above the start (plus the margin) for
    /// `patience` reports.
    #[error("validation loss {loss:.6} {when} is more than {}% above the starting {start:.6} for {reports} reports in a row (--divergence-patience {patience})", MARGIN * 100.0)]
    Above {
        loss: f64,
        when: String,
        start: f64,
        reports: u32,
        patience: u32,
    },
}

/// The divergence test of one run.
#[derive(Clone, Debug)]
pub struct Divergence {
    patience: u32,
    start: f64,
    above: u32,
}

impl Divergence {
    /// A test against the starting validation loss `start`.
    pub fn new(patience: u32, start: f64) -> Divergence {
        Divergence {
            patience,
            start,
            above: 0,
        }
    }

    /// Whether the last validation loss was above the start by more than the
    /// margin (such weights are not saved by the periodic saves, so the last
    /// saved net stays a good one).
    pub fn is_above(&self) -> bool {
        self.above > 0
    }

    /// Checks the loss of one training batch.
    pub fn check_training(&self, loss: f64, positions: u64) -> Result<(), DivergenceError> {
        if loss.is_finite() {
            return Ok(());
        }
        Err(DivergenceError::TrainingLoss { loss, positions })
    }

    /// Checks a validation loss; `when` says where in the run it was measured.
    pub fn check_validation(&mut self, loss: f64, when: &str) -> Result<(), DivergenceError> {
        let when = when.to_string();
        if !loss.is_finite() {
            return Err(DivergenceError::ValidationLoss { loss, when });
        }
        if loss > self.start * (1.0 + MARGIN) {
            self.above += 1;
        } else {
            self.above = 0;
        }
        if self.above >= self.patience {
            return Err(DivergenceError::Above {
                loss,
                when,
                start: self.start,
                reports: self.above,
                patience: self.patience,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_stops_after_patience_reports_above_the_start() {
        let mut d = Divergence::new(2, 0.5);
        assert!(d.check_validation(0.7, "at epoch 1").is_ok());
        assert!(d.is_above());
        // A report within the margin (25 % above 0.5 is 0.625) resets the count.
        assert!(d.check_validation(0.6, "at epoch 2").is_ok());
        assert!(!d.is_above());
        assert!(d.check_validation(0.7, "at epoch 3").is_ok());
        let e = d.check_validation(0.8, "at epoch 4").unwrap_err();
        assert_eq!(
            e.to_string(),
            "validation loss 0.800000 at epoch 4 is more than 25% above the starting 0.500000 for 2 reports in a row (--divergence-patience 2)"
        );
    }

    #[test]
    fn a_loss_that_is_not_a_number_stops_at_once() {
        let mut d = Divergence::new(3, 0.5);
        let e = d.check_validation(f64::NAN, "at epoch 1").unwrap_err();
        assert_eq!(e.to_string(), "validation loss NaN at epoch 1");
        // As the command prints it.
        assert_eq!(
            crate::error::LearnError::from(e).to_string(),
            "training diverged: validation loss NaN at epoch 1; stopped without saving these \
             weights (files saved before are kept)"
        );
        let e = d.check_training(f64::INFINITY, 300).unwrap_err();
        assert_eq!(e.to_string(), "training loss inf after 300 positions");
    }
}

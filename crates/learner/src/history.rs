//! The per-epoch record of a run: one CSV row per epoch. Shared by the
//! training loop, which writes it, and checkpoints, which save it.

use std::fmt::Write as _;
use std::path::Path;

use nnue_core::output::write_atomic;

use crate::checkpoint::codec::CodecError;
use crate::error::LearnError;

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochRow {
    pub epoch: u64,
    pub positions: u64,
    pub lr: f64,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Validation loss.
    pub val_loss: f64,
    pub test_cross_entropy_eval: f64,
    pub test_cross_entropy_win: f64,
    pub test_cross_entropy: f64,
    pub learn_cross_entropy: f64,
    pub move_accuracy: f64,
    pub startpos_eval: f64,
    pub weight_norm: f64,
    /// 1 if newbob accepted the epoch, 0 if it rolled it back.
    pub accepted: f64,
}

/// CSV header, the field order of [`EpochRow::to_values`].
pub const CSV_HEADER: &str = "epoch,positions,lr,train_loss,val_loss,test_cross_entropy_eval,test_cross_entropy_win,test_cross_entropy,learn_cross_entropy,move_accuracy,startpos_eval,weight_norm,accepted";

const FIELDS: usize = 13;

impl EpochRow {
    /// The fields in CSV order.
    pub fn to_values(&self) -> Vec<f64> {
        vec![
            self.epoch as f64,
            self.positions as f64,
            self.lr,
            self.train_loss,
            self.val_loss,
            self.test_cross_entropy_eval,
            self.test_cross_entropy_win,
            self.test_cross_entropy,
            self.learn_cross_entropy,
            self.move_accuracy,
            self.startpos_eval,
            self.weight_norm,
            self.accepted,
        ]
    }

    /// Inverse of [`Self::to_values`].
    pub fn from_values(v: &[f64]) -> Result<EpochRow, CodecError> {
        if v.len() != FIELDS {
            return Err(CodecError::Count {
                what: "history row",
                found: v.len(),
                expected: FIELDS,
            });
        }
        Ok(EpochRow {
            epoch: v[0] as u64,
            positions: v[1] as u64,
            lr: v[2],
            train_loss: v[3],
            val_loss: v[4],
            test_cross_entropy_eval: v[5],
            test_cross_entropy_win: v[6],
            test_cross_entropy: v[7],
            learn_cross_entropy: v[8],
            move_accuracy: v[9],
            startpos_eval: v[10],
            weight_norm: v[11],
            accepted: v[12],
        })
    }
}

/// Writes the whole history as CSV (rewritten each epoch, so a resumed run's file
/// holds every epoch once).
pub fn write_csv(path: &Path, rows: &[EpochRow]) -> Result<(), LearnError> {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for row in rows {
        let values: Vec<String> = row
            .to_values()
            .iter()
            .enumerate()
            .map(|(k, v)| match k {
                0 | 1 => format!("{}", *v as u64),
                _ => format!("{v:.6}"),
            })
            .collect();
        let _ = writeln!(text, "{}", values.join(","));
    }
    Ok(write_atomic(path, text.as_bytes())?)
}

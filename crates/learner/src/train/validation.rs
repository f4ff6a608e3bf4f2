//! The validation set: positions decoded once, evaluated after every reporting
//! interval and epoch (nodchip's `test_` figures and move accuracy).

use std::ops::Range;

use nnue_core::data::TrainingRecord;

use super::step::evaluate_batch;
use crate::data::batch::target_of;
use crate::data::{Filter, PositionSource, SparseBatch};
use crate::error::LearnError;
use crate::loss::{Figures, LossParams};
use crate::model::{Extractor, Model};

/// Validation positions.
pub struct ValidationSet {
    pub batch: SparseBatch,
    /// The first positions again as records, for move accuracy.
    pub records: Vec<TrainingRecord>,
}

/// What to read.
pub struct ValidationSpec<'a> {
    pub source: &'a dyn PositionSource,
    pub ranges: Vec<Range<u64>>,
    /// Most positions to use.
    pub count: usize,
    pub filter: Filter,
    pub skip_invalid: bool,
    /// Positions kept for move accuracy.
    pub accuracy_count: usize,
}

impl ValidationSet {
    /// Reads the first `count` usable positions of `spec.ranges` in order.
    pub fn load(
        spec: ValidationSpec<'_>,
        extractor: &Extractor,
    ) -> Result<ValidationSet, LearnError> {
        let filter = spec.filter.deterministic();
        let mut set = ValidationSet {
            batch: SparseBatch::new(),
            records: Vec::new(),
        };
        let (mut stm, mut nstm) = (Vec::new(), Vec::new());
        'files: for range in spec.ranges {
            for index in range {
                if set.batch.len() >= spec.count {
                    break 'files;
                }
                let record = match spec.source.record(index) {
                    Ok(r) => r,
                    Err(_) if spec.skip_invalid => continue,
                    Err(e) => return Err(e.into()),
                };
                if !filter.accepts(&record, 0) {
                    continue;
                }
                let pos = &record.position;
                extractor.rows(&pos.board, pos.turn, &mut stm, &mut nstm);
                set.batch.push(&stm, &nstm, target_of(&record));
                if set.records.len() < spec.accuracy_count {
                    set.records.push(record);
                }
            }
        }
        if set.batch.is_empty() {
            return Err(LearnError::NoData(format!(
                "{}: no validation position (empty, or every position filtered out)",
                spec.source.describe()
            )));
        }
        Ok(set)
    }

    /// Mean figures of `model` on the set.
    pub fn figures(&self, model: &Model, params: &LossParams, power_lambda: f64) -> Figures {
        mean_figures(model, &self.batch, params, power_lambda)
    }
}

/// Mean figures of `model` on `batch`.
pub fn mean_figures(
    model: &Model,
    batch: &SparseBatch,
    params: &LossParams,
    power_lambda: f64,
) -> Figures {
    let values = evaluate_batch(model, batch);
    let mut sum = Figures::default();
    for (v, &t) in values.iter().zip(&batch.targets) {
        sum.add(&Figures::of(params, *v, t, power_lambda));
    }
    sum.scaled(1.0 / batch.len().max(1) as f64)
}

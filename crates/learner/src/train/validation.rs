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
    /// Reads up to `count` usable positions spread evenly over all of
    /// `spec.ranges` (every k-th held-out position, k = held-out / count, at
    /// least 1). Taking the first `count` instead would measure a handful of
    /// games at the end of the first file, too few and too alike to show an
    /// error the net makes on most positions.
    pub fn load(
        spec: ValidationSpec<'_>,
        extractor: &Extractor,
    ) -> Result<ValidationSet, LearnError> {
        let filter = spec.filter.deterministic();
        let mut set = ValidationSet {
            batch: SparseBatch::new(),
            records: Vec::new(),
        };
        let held_out: u64 = spec.ranges.iter().map(|r| r.end - r.start).sum();
        let stride = (held_out / spec.count.max(1) as u64).max(1);
        let (mut stm, mut nstm) = (Vec::new(), Vec::new());
        let picked = spec.ranges.into_iter().flatten().step_by(stride as usize);
        for index in picked {
            if set.batch.len() >= spec.count {
                break;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelShape;
    use nnue_core::data::DataError;
    use nnue_core::packed::{DecodedSfen, GameResult, SfMove};
    use shakmaty::{Chess, Position};

    /// Records whose score is their index, in two "files".
    struct Numbered;

    impl PositionSource for Numbered {
        fn len(&self) -> u64 {
            3000
        }
        fn file_ranges(&self) -> Vec<Range<u64>> {
            vec![0..1000, 1000..3000]
        }
        fn record(&self, index: u64) -> Result<TrainingRecord, DataError> {
            let pos = Chess::default();
            let mv = pos.legal_moves()[0];
            Ok(TrainingRecord {
                position: DecodedSfen::from_position(&pos),
                score: index as i16,
                mv: SfMove::from_move(&mv),
                game_ply: 0,
                result: GameResult::Draw,
            })
        }
        fn describe(&self) -> String {
            "numbered".to_string()
        }
    }

    #[test]
    fn the_sample_is_spread_over_every_held_out_range() {
        let shape = ModelShape::new("All", 8, &[], false).expect("shape");
        let spec = ValidationSpec {
            source: &Numbered,
            ranges: vec![900..1000, 2800..3000],
            count: 30,
            filter: Filter::default(),
            skip_invalid: false,
            accuracy_count: 0,
        };
        let set = ValidationSet::load(spec, &Extractor::new(&shape)).expect("load");
        let scores: Vec<f32> = set.batch.targets.iter().map(|t| t.score).collect();
        // 300 held out, 30 wanted: every 10th, from both ranges.
        let want: Vec<f32> = (900..1000)
            .chain(2800..3000)
            .step_by(10)
            .map(|i| i as f32)
            .collect();
        assert_eq!(scores, want);
    }
}

//! The validation set: positions decoded once, evaluated after every reporting
//! interval and epoch (nodchip's `test_` figures and move accuracy).

use std::ops::Range;

use nnue_core::data::TrainingRecord;

use super::step::evaluate_batch;
use crate::data::batch::target_of;
use crate::data::{Filter, PositionSource, SparseBatch};
use crate::error::LearnError;
use crate::loss::{Figures, LossKind, LossParams, Target};
use crate::model::{Extractor, Model};
use crate::pqr::triplet::salt;
use crate::pqr::{triplet_at, triplet_figures, TRIPLET_LEN};
use shakmaty::{Board, Color, Position};

/// Validation positions.
pub struct ValidationSet {
    pub batch: SparseBatch,
    /// Positions per sample: 1, or 3 for PQR triplets.
    pub per_sample: usize,
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
    /// Build PQR triplets with this seed (`--loss pqr`): `count` then counts
    /// triplets, each `p` followed by its `q` and `r` in the batch.
    pub pqr_seed: Option<u64>,
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
        let per_sample = if spec.pqr_seed.is_some() {
            TRIPLET_LEN
        } else {
            1
        };
        let mut set = ValidationSet {
            batch: SparseBatch::new(),
            per_sample,
            records: Vec::new(),
        };
        let held_out: u64 = spec.ranges.iter().map(|r| r.end - r.start).sum();
        let stride = (held_out / spec.count.max(1) as u64).max(1);
        let mut rows = (Vec::new(), Vec::new());
        // A triplet's q must be held out too (the record after a held-out
        // range is the next file's, or a training one).
        let in_one_range = |index: u64| {
            spec.ranges
                .iter()
                .any(|r| r.contains(&index) && r.contains(&(index + 1)))
        };
        let picked = spec
            .ranges
            .iter()
            .cloned()
            .flatten()
            .step_by(stride as usize);
        for index in picked {
            if set.len() >= spec.count {
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
            let target = target_of(&record);
            let pushed = match spec.pqr_seed {
                Some(seed) if in_one_range(index) => {
                    set.push_triplet(&spec, extractor, (index, seed), target, &mut rows)?
                }
                Some(_) => false,
                None => {
                    let pos = &record.position;
                    set.push(extractor, (&pos.board, pos.turn), target, &mut rows);
                    true
                }
            };
            if pushed && set.records.len() < spec.accuracy_count {
                set.records.push(record);
            }
        }
        if set.batch.is_empty() {
            return Err(no_validation_data(&spec));
        }
        Ok(set)
    }

    /// Adds the position `(board, turn)` with `target`; `rows` are scratch.
    fn push(
        &mut self,
        extractor: &Extractor,
        (board, turn): (&Board, Color),
        target: Target,
        rows: &mut (Vec<u32>, Vec<u32>),
    ) {
        let (stm, nstm) = rows;
        extractor.rows(board, turn, stm, nstm);
        self.batch.push(stm, nstm, extractor.bucket(board), target);
    }

    /// Adds the PQR triplet of the record at `index` (drawn with `seed`), all
    /// three positions with `target`; false when there is none (the game ends
    /// there, or a bad record that `--skip-invalid` skips).
    fn push_triplet(
        &mut self,
        spec: &ValidationSpec<'_>,
        extractor: &Extractor,
        (index, seed): (u64, u64),
        target: Target,
        rows: &mut (Vec<u32>, Vec<u32>),
    ) -> Result<bool, LearnError> {
        let triplet = match triplet_at(spec.source, index, salt(seed, index, 0)) {
            Ok(t) => t,
            Err(_) if spec.skip_invalid => return Ok(false),
            Err(e) => return Err(e.into()),
        };
        let Some(t) = triplet else { return Ok(false) };
        let p = &t.p.position;
        for position in [
            (&p.board, p.turn),
            (t.q.board(), t.q.turn()),
            (t.r.board(), t.r.turn()),
        ] {
            self.push(extractor, position, target, rows);
        }
        Ok(true)
    }

    /// Samples in the set: positions, or PQR triplets.
    pub fn len(&self) -> usize {
        self.batch.len() / self.per_sample
    }

    pub fn is_empty(&self) -> bool {
        self.batch.is_empty()
    }

    /// Mean figures of `model` on the set (per triplet with PQR, see
    /// [`crate::pqr::figures`]).
    pub fn figures(&self, model: &Model, params: &LossParams, power_lambda: f64) -> Figures {
        if params.kind == LossKind::Pqr {
            let values = evaluate_batch(model, &self.batch);
            let (sum, _) = triplet_figures(params, &values, &self.batch.targets);
            return sum.scaled(1.0 / self.len().max(1) as f64);
        }
        mean_figures(model, &self.batch, params, power_lambda)
    }
}

/// The error of a validation set without a position.
fn no_validation_data(spec: &ValidationSpec<'_>) -> LearnError {
    let what = if spec.pqr_seed.is_some() {
        "no validation position with a successor in its game (not game-ordered, or \
         every position filtered out)"
    } else {
        "no validation position (empty, or every position filtered out)"
    };
    LearnError::NoData(format!("{}: {what}", spec.source.describe()))
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
            pqr_seed: None,
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

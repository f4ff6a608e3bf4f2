//! Move accuracy: how often the net's one-ply choice is the stored best move.
//! Every legal move is played and the child scored from the opponent's view; the
//! move leaving the opponent the lowest value is the net's choice.

use nnue_core::data::TrainingRecord;
use nnue_core::packed::SfMove;
use rayon::prelude::*;
use shakmaty::Position;

use crate::model::{Extractor, Model, Trace};

/// The share (0..1) of `records` whose stored move the net picks; records that are
/// not legal positions count as misses.
pub fn move_accuracy(model: &Model, extractor: &Extractor, records: &[TrainingRecord]) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let hits: usize = records
        .par_chunks(64)
        .map(|chunk| {
            let mut trace = Trace::new(model);
            let cap = extractor.capacity();
            let (mut stm, mut nstm) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
            chunk
                .iter()
                .filter(|r| {
                    let Ok(pos) = r.position.to_chess() else {
                        return false;
                    };
                    let mut best: Option<(f32, SfMove)> = None;
                    for m in pos.legal_moves() {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        extractor.rows(child.board(), child.turn(), &mut stm, &mut nstm);
                        let bucket = extractor.bucket(child.board());
                        let v = model.forward(&stm, &nstm, bucket, &mut trace);
                        if best.is_none_or(|(b, _)| v < b) {
                            best = Some((v, SfMove::from_move(&m)));
                        }
                    }
                    best.is_some_and(|(_, m)| m == r.mv)
                })
                .count()
        })
        .sum();
    hits as f64 / records.len() as f64
}

/// The net's value (internal units) of the start position.
pub fn startpos_eval(model: &Model, extractor: &Extractor) -> f64 {
    let pos = shakmaty::Chess::default();
    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
    extractor.rows(pos.board(), pos.turn(), &mut stm, &mut nstm);
    let mut trace = Trace::new(model);
    let bucket = extractor.bucket(pos.board());
    let value = model.forward(&stm, &nstm, bucket, &mut trace);
    f64::from(value) * f64::from(crate::model::NET_TO_INTERNAL)
}

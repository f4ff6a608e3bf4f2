//! A HalfKAv2_hm net narrower than 15.1's, trained by `nnue-learn`'s HalfKAv2_hm
//! path (`train --preset sf15.1 --ft-size 256`, here through the library, about a
//! second): `EvalFile` loads it, `eval` prints the core's raw value on 60
//! positions of all eight layer stacks (every 512/60-th of
//! `tests/data/sf15_1_nnue_evals.tsv`), and a search runs with it.

mod support;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nnue_core::data::filter::Filter;
use nnue_core::nnue::halfka::HalfKaNetwork;
use nnue_learner::halfka::{train_halfka, HalfKaRun};
use nnue_learner::loss::LossParams;
use nnue_learner::optim::{Optimizer, Schedule};
use nnue_test_support::{position, test_data, test_data_text, TempDir};
use support::{raw_eval_line, Engine};

const LONG: Duration = Duration::from_secs(120);
/// Positions compared.
const POSITIONS: usize = 60;

/// A short, deterministic run of `width`.
fn run(output_net: PathBuf, width: usize) -> HalfKaRun {
    HalfKaRun {
        train: vec![test_data("sf_tools_sample.binpack")],
        output_net,
        width,
        factorize: true,
        epochs: 1,
        epoch_size: 2000,
        batch_size: 100,
        schedule: Schedule::step(1e-3),
        optimizer: Optimizer::default(),
        loss: LossParams::default(),
        power_lambda: 1.0,
        filter: Filter::default(),
        validation_fraction: 0.05,
        validation_count: 200,
        seed: 2,
        force: false,
        skip_invalid: false,
        stop_after_batches: None,
        checkpoint_dir: None,
        resume: false,
    }
}

#[test]
fn eval_prints_the_core_value_of_a_trained_256_wide_net() {
    let dir = TempDir::new("engine-halfka-trained");
    let path = dir.path("trained 256.nnue");
    let mut log = Vec::new();
    let stop = AtomicBool::new(false);
    let outcome = train_halfka(&run(path.clone(), 256), &stop, &mut log).unwrap();
    assert_eq!(outcome.clamped, 0);
    let net = HalfKaNetwork::load(&path).unwrap();
    assert_eq!(net.shape().width, 256);

    let mut e = Engine::start();
    e.load_net(&path, "[HalfKAv2_hm 256x2-16-32-1");
    let text = test_data_text("sf15_1_nnue_evals.tsv");
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    for i in 0..POSITIONS {
        let fen = rows[i * rows.len() / POSITIONS].split('\t').next().unwrap();
        let want = raw_eval_line(net.evaluate(&position(fen)));
        assert_eq!(e.raw_eval(fen), want, "{fen}");
    }
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 6");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().len() > "bestmove ".len());
    e.quit();
}

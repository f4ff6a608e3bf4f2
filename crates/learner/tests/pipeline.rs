//! The data pipeline and the schedule: stream coverage, skipping rules against
//! shakmaty's own move and check tests, newbob decisions.

mod common;

use nnue_core::data::{BinReader, ReaderOptions};
use nnue_core::packed::MoveKind;
use nnue_learner::data::filter::is_noisy;
use nnue_learner::data::{Filter, FilterPreset, Stream};
use nnue_learner::optim::{LrSchedule, Schedule, Verdict};
use shakmaty::Position;

#[test]
fn stream_draws_every_record_of_every_file() {
    // Three files of 10, 15 and 1 records, a shuffle buffer of 4.
    let ranges = vec![0..10, 10..25, 25..26];
    let mut stream = Stream::new(ranges, 4, 7);
    let draws: Vec<u64> = (0..26 * 3).map(|_| stream.draw().0).collect();
    // Until the first pass is exhausted no record comes twice...
    let first = &draws[..26 - 4];
    let mut seen = first.to_vec();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), first.len(), "{first:?}");
    // ...and every record comes once per pass, give or take the buffer.
    for index in 0..26u64 {
        let count = draws.iter().filter(|&&d| d == index).count();
        assert!(
            (2..=4).contains(&count),
            "record {index} drawn {count} times"
        );
    }
    // Files are interleaved, not read one after the other.
    assert!(first[..8].iter().any(|&d| d >= 10), "{first:?}");
    // Draw numbers count up from 0.
    let mut again = Stream::new(vec![0..10, 10..12], 4, 7);
    assert_eq!(
        (0..3).map(|_| again.draw().1).collect::<Vec<_>>(),
        [0, 1, 2]
    );
}

#[test]
fn smart_fen_skipping_matches_shakmaty() {
    let reader = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let mut noisy = 0;
    for i in 0..reader.len() {
        let v = reader.get_validated(i).unwrap();
        let m = v.best_move.unwrap();
        let expected = m.is_capture() || m.is_promotion() || v.chess.is_check();
        assert_eq!(
            is_noisy(&v.record),
            expected,
            "record {i}: {}",
            v.record.position.fen()
        );
        noisy += usize::from(expected);
        let filter = Filter {
            smart_fen_skipping: true,
            ..Filter::default()
        };
        assert_eq!(filter.accepts(&v.record, i), !expected);
    }
    // Stockfish's generator data has plenty of both kinds.
    assert!(noisy > 100 && noisy < 2900, "{noisy}");
}

#[test]
fn the_other_filters() {
    let reader = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let records: Vec<_> = (0..reader.len()).map(|i| reader.get(i).unwrap()).collect();
    let count = |f: &Filter| {
        records
            .iter()
            .enumerate()
            .filter(|(i, r)| f.accepts(r, *i as u64))
            .count()
    };
    let all = Filter::default();
    assert_eq!(count(&all), 3000);
    let limit = Filter {
        eval_limit: 300,
        ..Filter::default()
    };
    let within = records
        .iter()
        .filter(|r| i32::from(r.score).abs() <= 300)
        .count();
    assert_eq!(count(&limit), within);
    let no_draws = Filter {
        use_draws: false,
        ..Filter::default()
    };
    let decided = records
        .iter()
        .filter(|r| r.result != nnue_core::packed::GameResult::Draw)
        .count();
    assert_eq!(count(&no_draws), decided);
    let early = Filter {
        early_fen_skipping: 20,
        ..Filter::default()
    };
    assert_eq!(
        count(&early),
        records.iter().filter(|r| r.game_ply >= 20).count()
    );
    let pieces = |r: &nnue_core::data::TrainingRecord| r.position.board.occupied().count();
    let few = Filter {
        min_pieces: 20,
        ..Filter::default()
    };
    assert_eq!(
        count(&few),
        records.iter().filter(|r| pieces(r) >= 20).count()
    );
    // The presets are the rules they name, together.
    let viriformat = FilterPreset::Viriformat.apply(Filter::default());
    let by_hand = |r: &nnue_core::data::TrainingRecord, limit: i32, min_pieces: usize| {
        r.game_ply >= 16
            && !is_noisy(r)
            && i32::from(r.score).abs() <= limit
            && pieces(r) >= min_pieces
    };
    let kept = records.iter().filter(|r| by_hand(r, 31_338, 4)).count();
    assert_eq!(count(&viriformat), kept);
    let bullet = FilterPreset::Bullet.apply(Filter::default());
    let castles = |r: &nnue_core::data::TrainingRecord| r.mv.kind() == MoveKind::Castling;
    let kept_bullet = records
        .iter()
        .filter(|r| by_hand(r, 10_000, 0) && !castles(r))
        .count();
    assert_eq!(count(&bullet), kept_bullet);
    // Of the 3000 sample positions: 1076 with 20 pieces or more; 2160 kept by
    // viriformat's rules, 2149 by bullet's (which skips castling moves too).
    assert_eq!((count(&few), kept, kept_bullet), (1076, 2160, 2149));
    // Random skipping with N = 3 keeps about a quarter, reproducibly per seed.
    let random = Filter {
        random_fen_skipping: 3,
        seed: 5,
        ..Filter::default()
    };
    let kept = count(&random);
    assert!((650..=850).contains(&kept), "{kept}");
    assert_eq!(count(&random), kept);
}

#[test]
fn newbob_rolls_back_and_stops() {
    let schedule = Schedule {
        lr: 1.0,
        decay: 0.9,
        steps: vec![2],
        step_gamma: 0.1,
        newbob_decay: 0.5,
        max_rejections: 2,
        curve: LrSchedule::Step,
        final_lr: None,
        warmup_batches: 0,
    };
    let mut state = schedule.start();
    assert_eq!(schedule.end_epoch(&mut state, 0.5), Verdict::Accept);
    assert!((state.lr - 0.9).abs() < 1e-12);
    // Epoch 2 improves; the step at epoch 2 applies on top of the decay.
    assert_eq!(schedule.end_epoch(&mut state, 0.4), Verdict::Accept);
    assert!((state.lr - 0.081).abs() < 1e-12);
    // Worse: rolled back, rate halved (and decayed).
    assert_eq!(schedule.end_epoch(&mut state, 0.45), Verdict::Reject);
    assert!((state.lr - 0.081 * 0.5 * 0.9).abs() < 1e-12);
    assert_eq!(state.best_loss, Some(0.4));
    // A second rejection in a row stops.
    assert_eq!(schedule.end_epoch(&mut state, 0.4), Verdict::Stop);
    // Without newbob nothing is ever rejected.
    let plain = Schedule {
        newbob_decay: 1.0,
        ..schedule
    };
    let mut s = plain.start();
    for loss in [0.5, 0.6, 0.7] {
        assert_eq!(plain.end_epoch(&mut s, loss), Verdict::Accept);
    }
}

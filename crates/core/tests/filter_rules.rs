//! The shared filter's random rule from nnue-pytorch (WLD skipping) and the
//! presets of bullet and nnue-pytorch, on Stockfish's 3000-record sample
//! (`tests/data/sf_tools_sample.binpack`). viriformat's preset is checked
//! against the `viriformat` crate itself in `foreign_formats.rs`.

use nnue_core::data::filter::{is_noisy, wld, Filter, FilterPreset};
use nnue_core::data::{ReaderOptions, TrainingDataReader, TrainingRecord, Validation};
use nnue_core::packed::{GameResult, MoveKind};
use nnue_test_support::test_data;

fn sample() -> Vec<TrainingRecord> {
    let path = test_data("sf_tools_sample.binpack");
    let reader = TrainingDataReader::open(path, ReaderOptions::default()).expect("open");
    let records = reader.records(Validation::Full).expect("records");
    records.map(|r| r.expect("valid sample").record).collect()
}

/// The records `filter` keeps, by their number in the sample.
fn kept(records: &[TrainingRecord], filter: &Filter) -> Vec<usize> {
    let numbered = records.iter().enumerate();
    numbered
        .filter(|(i, r)| filter.accepts(r, *i as u64))
        .map(|(i, _)| i)
        .collect()
}

fn wld(seed: u64) -> Filter {
    Filter {
        wld_fen_skipping: true,
        seed,
        ..Filter::default()
    }
}

#[test]
fn wld_probabilities_over_the_sample_are_nnue_pytorchs() {
    // Σp and Σp(1 − p) of nnue-pytorch's `score_result_prob()` over the 3000
    // records, by a Python transcription of its formula (the constants of
    // data_loader/cpp/lib/training_data_entry.h) reading the score, ply and
    // result lines of tests/data/sf_tools_sample.plain: 2269.2666679527406
    // and 158.98034550311644.
    let p: Vec<f64> = sample()
        .iter()
        .map(|r| wld::result_probability(r.score, r.game_ply, r.result))
        .collect();
    let sum: f64 = p.iter().sum();
    let variance: f64 = p.iter().map(|p| p * (1.0 - p)).sum();
    assert!((sum - 2_269.266_667_952_740_6).abs() < 1e-9, "{sum}");
    assert!(
        (variance - 158.980_345_503_116_44).abs() < 1e-9,
        "{variance}"
    );
}

#[test]
fn wld_skipping_is_a_seeded_draw_per_position() {
    let records = sample();
    let five = kept(&records, &wld(5));
    // Pinned: seed 5 keeps 2283 of 3000, 1.1 standard deviations (12.6) from
    // the 2269.3 the probabilities expect.
    assert_eq!(five.len(), 2283);
    assert_eq!(
        kept(&records, &wld(5)),
        five,
        "the same seed, the same picks"
    );
    let six = kept(&records, &wld(6));
    assert_ne!(six, five);
    assert!((2_219..=2_320).contains(&six.len()), "{}", six.len());
    // Its own stream: with random skipping too, what is kept is what each
    // keeps alone.
    let random = Filter {
        random_fen_skipping: 3,
        ..wld(5)
    };
    let alone = Filter {
        random_fen_skipping: 3,
        ..Filter::default()
    };
    let alone = kept(&records, &Filter { seed: 5, ..alone });
    let both: Vec<usize> = alone.iter().copied().filter(|i| five.contains(i)).collect();
    assert_eq!(kept(&records, &random), both);
    // Validation's rules drop it, as random skipping.
    assert_eq!(kept(&records, &wld(5).deterministic()).len(), 3000);
}

#[test]
fn wld_skipping_follows_the_result_the_score_predicts() {
    let mut record = sample()[0].clone();
    // Over 2000 draws of one position, how often each result keeps it.
    let mut kept_of = |score, ply, result| {
        record.score = score;
        record.game_ply = ply;
        record.result = result;
        (0..2000).filter(|&d| wld(1).accepts(&record, d)).count()
    };
    // +5 pawns (1040 units) at ply 60: p = 0.99967 won, 2.5e-6 lost.
    assert!(kept_of(1040, 60, GameResult::Win) >= 1990);
    assert_eq!(kept_of(1040, 60, GameResult::Loss), 0);
    // +1 pawn at ply 64: p = 0.4195 won, 0.5700 drawn, 0.0105 lost; each
    // count within four standard deviations of 2000 p.
    for result in [GameResult::Win, GameResult::Draw, GameResult::Loss] {
        let p = wld::result_probability(208, 64, result);
        let (mean, sd) = (2000.0 * p, (2000.0 * p * (1.0 - p)).sqrt());
        let got = kept_of(208, 64, result) as f64;
        assert!(
            (got - mean).abs() <= 4.0 * sd,
            "{result:?}: {got} vs {mean}"
        );
    }
}

/// bullet's `examples/simple.rs` filter for Stockfish binpacks, restated:
/// ply at least 16, not in check, |score| at most 10000, a normal move (not a
/// promotion, en passant or castling) to an empty square.
fn bullet_example(r: &TrainingRecord) -> bool {
    let pos = &r.position;
    r.game_ply >= 16
        && !pos.is_check()
        && r.score.unsigned_abs() <= 10_000
        && r.mv.kind() == MoveKind::Normal
        && pos.board.piece_at(r.mv.to_sq()).is_none()
}

#[test]
fn the_bullet_preset_is_bullets_binpack_example() {
    let records = sample();
    let preset = FilterPreset::Bullet.apply(Filter::default());
    let want: Vec<usize> = (0..records.len())
        .filter(|&i| bullet_example(&records[i]))
        .collect();
    assert_eq!(kept(&records, &preset), want);
    // 2178 quiet positions from ply 16 on, less the 29 castling moves among
    // them, which bullet's example skips (its `MoveType::Normal` test).
    assert_eq!(want.len(), 2149);
}

#[test]
fn the_nnue_pytorch_preset_is_smart_and_wld_skipping() {
    let records = sample();
    let preset = FilterPreset::NnuePytorch.apply(Filter {
        seed: 5,
        ..Filter::default()
    });
    let by_hand = Filter {
        smart_fen_skipping: true,
        ..wld(5)
    };
    assert_eq!(preset, by_hand);
    let picks = kept(&records, &preset);
    let wld_alone = kept(&records, &wld(5));
    let quiet = |i: &usize| !is_noisy(&records[*i]);
    let want: Vec<usize> = wld_alone.into_iter().filter(quiet).collect();
    assert_eq!(picks, want);
    assert_eq!(picks.len(), 1665);
    // nnue-pytorch's own `filtered` (a piece of the other colour on the
    // destination, or check) keeps quiet promotions and en passant, which
    // nodchip's rule skips: 11 of the sample's best moves differ.
    let its_filtered = |r: &TrainingRecord| {
        let pos = &r.position;
        pos.is_check() || pos.board.color_at(r.mv.to_sq()) == Some(!pos.turn)
    };
    let differ = records.iter().filter(|r| is_noisy(r) != its_filtered(r));
    assert_eq!(differ.count(), 11);
}

//! `--mirror`: the mirrored positions' features are the originals' with every
//! square's file flipped, by Stockfish 12's HalfKP index formula and the thesis'
//! All layout (formats.md), and about half the positions are mirrored.

mod common;

use nnue_learner::data::mirror::mirrors;
use nnue_learner::data::{Batcher, DataSource, Filter, PositionSource, SourceOptions, SparseBatch};
use nnue_learner::model::{Extractor, ModelShape};

/// Positions compared.
const N: usize = 400;

/// The first `N` sample positions of a stream seeded `seed`, mirrored or not.
fn batch(shape: &ModelShape, seed: u64, mirror: bool) -> SparseBatch {
    let source = DataSource::open(&[common::sample_bin()], SourceOptions::default()).unwrap();
    let extractor = Extractor::new(shape);
    let mut stream = nnue_learner::data::Stream::new(source.file_ranges(), 1000, seed);
    let filter = Filter {
        seed,
        ..Filter::default()
    };
    let mut out = SparseBatch::new();
    Batcher::new(&source, &extractor, filter, false)
        .with_mirror(mirror)
        .fill(&mut stream, N, &mut out)
        .unwrap();
    out
}

/// HalfKP: `index = sq + 1 + 64·plane + 641·king` (both squares from the
/// perspective's side); a file flip is `sq ^ 7` on both squares.
fn halfkp_mirror(index: u32) -> u32 {
    let (king, rest) = (index / 641, index % 641);
    let sq = (rest - 1) % 64;
    (king ^ 7) * 641 + (rest - sq) + (sq ^ 7)
}

/// All: `index = 64·plane + sq`.
fn all_mirror(index: u32) -> u32 {
    index ^ 7
}

fn sorted(rows: &[u32]) -> Vec<u32> {
    let mut v = rows.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn mirrored_positions_have_mirrored_features() {
    let seed = 11;
    for (spec, half, map) in [
        ("HalfKP", 8, halfkp_mirror as fn(u32) -> u32),
        ("All", 8, all_mirror),
    ] {
        let shape = ModelShape::new(spec, half, &[4], false).unwrap();
        let plain = batch(&shape, seed, false);
        let mirrored = batch(&shape, seed, true);
        let mut flipped = 0;
        // Nothing is filtered, so position k is draw number k.
        for k in 0..N {
            let (p, m) = (plain.rows(k), mirrored.rows(k));
            assert_eq!(plain.targets[k], mirrored.targets[k]);
            for (p, m) in [(p.0, m.0), (p.1, m.1)] {
                if mirrors(seed, k as u64) {
                    let expected: Vec<u32> = p.iter().map(|&i| map(i)).collect();
                    assert_eq!(sorted(m), sorted(&expected), "{spec} position {k}");
                } else {
                    assert_eq!(m, p, "{spec} position {k}");
                }
            }
            flipped += usize::from(mirrors(seed, k as u64));
        }
        // A fair coin: 200 ± 3.5 standard deviations.
        assert!((165..=235).contains(&flipped), "{flipped} of {N} mirrored");
    }
}

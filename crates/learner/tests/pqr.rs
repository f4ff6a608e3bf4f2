//! `--loss pqr`: triplets from game-ordered data, the loss's sign, thread-count
//! independence, fine-tuning and resuming, and data that is not in game order.

mod common;

use std::path::{Path, PathBuf};

use nnue_core::data::{TrainingDataWriter, TrainingRecord};
use nnue_core::nnue::random::splitmix64_finalize;
use nnue_core::packed::{DecodedSfen, GameResult, SfMove};
use nnue_learner::data::{DataSource, PositionSource, SourceOptions};
use nnue_learner::model::{Extractor, Model, ModelShape, Trace, NET_TO_INTERNAL};
use nnue_learner::pqr::triplet::salt;
use nnue_learner::pqr::{triplet_at, Triplet};
use shakmaty::{Chess, Position};

/// Plies of each generated game at most.
const GAME_PLIES: usize = 40;

/// `games` games of random legal moves (seeded), one record per position with
/// the move played, in game order.
fn random_games(games: u64, seed: u64) -> Vec<TrainingRecord> {
    let mut records = Vec::new();
    let mut rng = seed;
    for _ in 0..games {
        let mut pos = Chess::default();
        for ply in 0..GAME_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng = splitmix64_finalize(rng.wrapping_add(1));
            let mv = moves[(rng % moves.len() as u64) as usize];
            records.push(TrainingRecord {
                position: DecodedSfen::from_position(&pos),
                score: 0,
                mv: SfMove::from_move(&mv),
                game_ply: ply as u16,
                result: GameResult::Draw,
            });
            pos = pos.play(mv).unwrap();
        }
    }
    records
}

fn write(path: &Path, records: &[TrainingRecord]) {
    let mut writer = TrainingDataWriter::create(path).unwrap();
    for r in records {
        writer.write(&r.to_packed()).unwrap();
    }
    writer.finish().unwrap();
}

fn open(path: &Path) -> DataSource {
    DataSource::open(&[path.to_path_buf()], SourceOptions::default()).unwrap()
}

fn shape() -> ModelShape {
    ModelShape::new("All", 32, &[], false).unwrap()
}

/// Common options of a small PQR run on `data` (the last tenth held out).
fn pqr_args(data: &Path, net: &Path) -> Vec<String> {
    [
        "train",
        "--train",
        data.to_str().unwrap(),
        "--loss",
        "pqr",
        "--feature-set",
        "All",
        "--ft-size",
        "32",
        "--batch-size",
        "64",
        "--loss-output-interval",
        "100000000",
        "--no-progress",
        "--output-net",
        net.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--validation-fraction".to_string(), "0.1".to_string()])
    .collect()
}

fn learn_ok(args: &[String], more: &[&str]) -> String {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(more);
    let (ok, code, out, err) = common::learn(&all);
    assert!(ok, "exit {code}\n{out}\n{err}");
    out
}

fn value(model: &Model, extractor: &Extractor, pos: &Chess) -> f32 {
    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
    extractor.rows(pos.board(), pos.turn(), &mut stm, &mut nstm);
    let bucket = extractor.bucket(pos.board());
    model.forward(&stm, &nstm, bucket, &mut Trace::new(model)) * NET_TO_INTERNAL
}

fn triplets(source: &DataSource, seed: u64) -> Vec<Triplet> {
    (0..source.len())
        .filter_map(|i| triplet_at(source, i, salt(seed, i, 0)).unwrap())
        .collect()
}

#[test]
fn triplets_follow_the_game_and_their_random_move_is_seeded() {
    let dir = common::temp_dir("pqr-triplets");
    let records = random_games(2, 7);
    let path = dir.join("games.bin");
    write(&path, &records);
    let source = open(&path);
    let mut found = 0;
    for i in 0..source.len() {
        let t = triplet_at(&source, i, salt(1, i, 0)).unwrap();
        let last_of_game = i + 1 == source.len() || records[i as usize + 1].game_ply == 0;
        let Some(t) = t else {
            assert!(last_of_game, "record {i} has a successor");
            continue;
        };
        assert!(!last_of_game, "record {i} ends its game");
        found += 1;
        let p = t.p.position.to_chess().unwrap();
        let next = &records[i as usize + 1].position;
        assert_eq!((t.q.board(), t.q.turn()), (&next.board, next.turn));
        assert!(p.is_legal(t.random) && t.random != t.played);
        assert_ne!(t.r.board(), t.q.board());
        assert_eq!(p.play(t.random).unwrap().board(), t.r.board());
        // The same salt picks the same r; other salts pick others over a game.
        let again = triplet_at(&source, i, salt(1, i, 0)).unwrap().unwrap();
        assert_eq!(again.random, t.random);
    }
    assert_eq!(found, records.len() - 2);
    let (a, b) = (triplets(&source, 1), triplets(&source, 2));
    assert!(a.iter().zip(&b).any(|(x, y)| x.random != y.random));
}

#[test]
fn the_same_triplets_come_from_bin_and_plain() {
    let dir = common::temp_dir("pqr-formats");
    let records = random_games(2, 11);
    let (bin, plain) = (dir.join("g.bin"), dir.join("g.plain"));
    write(&bin, &records);
    write(&plain, &records);
    let moves = |p: &PathBuf| -> Vec<_> {
        triplets(&open(p), 3)
            .iter()
            .map(|t| (t.played, t.random))
            .collect()
    };
    assert_eq!(moves(&bin), moves(&plain));
}

#[test]
fn training_ranks_the_played_move_below_a_random_one() {
    let dir = common::temp_dir("pqr-sign");
    let path = dir.join("games.bin");
    write(&path, &random_games(6, 3));
    let net = dir.join("pqr.nnue");
    let mut args = pqr_args(&path, &net);
    // The net learns these games by heart: validate on them too (held-out
    // games would rise and stop the run as diverged). No hidden layer: the
    // fused backward pass of such nets.
    let at = args.len() - 2;
    args.truncate(at);
    let data = path.to_str().unwrap();
    args.extend(["--validation", data, "--hidden="].map(String::from));
    args.extend(["--epochs", "30", "--epoch-size", "512", "--lr", "0.01"].map(String::from));
    learn_ok(&args, &[]);
    let model = Model::load(&net, &shape()).unwrap();
    let extractor = Extractor::new(&shape());
    let source = open(&path);
    let all = triplets(&source, 99);
    let below = all
        .iter()
        .filter(|t| value(&model, &extractor, &t.q) < value(&model, &extractor, &t.r))
        .count();
    // q and r are both seen by the opponent, to move there: the move played
    // (good for the mover) leaves them lower than a random move does.
    assert!(
        below as f64 > 0.8 * all.len() as f64,
        "f(q) < f(r) on {below} of {} triplets",
        all.len()
    );
}

#[test]
fn one_and_two_threads_train_the_same_net() {
    let dir = common::temp_dir("pqr-threads");
    let path = dir.join("games.bin");
    write(&path, &random_games(20, 5));
    let mut nets = Vec::new();
    for threads in ["1", "2"] {
        let net = dir.join(format!("t{threads}.nnue"));
        let mut args = pqr_args(&path, &net);
        // 100 triplets are 300 positions: two chunks of the dense pass.
        args.extend(
            [
                "--epochs",
                "2",
                "--epoch-size",
                "300",
                "--batch-size",
                "100",
            ]
            .map(String::from),
        );
        learn_ok(&args, &["--threads", threads]);
        nets.push(std::fs::read(&net).unwrap());
    }
    assert!(nets[0] == nets[1], "nets differ");
}

#[test]
fn fine_tunes_from_an_init_net_and_resumes_exactly() {
    let dir = common::temp_dir("pqr-resume");
    let path = dir.join("games.bin");
    write(&path, &random_games(20, 9));
    let start = dir.join("start.nnue");
    let mut args = pqr_args(&path, &start);
    args.extend(["--epochs", "1", "--epoch-size", "200"].map(String::from));
    learn_ok(&args, &[]);
    let run = |name: &str, stop: &[&str]| -> PathBuf {
        let net = dir.join(format!("{name}.nnue"));
        let ckpt = dir.join(name);
        let mut args = pqr_args(&path, &net);
        args.extend(
            [
                "--init-net",
                start.to_str().unwrap(),
                "--epochs",
                "2",
                "--epoch-size",
                "256",
                "--checkpoint-dir",
                ckpt.to_str().unwrap(),
            ]
            .map(String::from),
        );
        if stop.is_empty() {
            let out = learn_ok(&args, &[]);
            assert!(out.contains("triplets"), "{out}");
        } else {
            let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
            all.extend(stop);
            let (ok, _, out, err) = common::learn(&all);
            assert!(!ok, "{out}{err}");
            // The checkpoint holds the weights now.
            let at = args.iter().position(|a| a == "--init-net").unwrap();
            args.drain(at..at + 2);
            learn_ok(&args, &["--resume"]);
        }
        net
    };
    let straight = run("straight", &[]);
    let resumed = run("resumed", &["--stop-after-batches", "3"]);
    assert!(std::fs::read(straight).unwrap() == std::fs::read(resumed).unwrap());
}

#[test]
fn shuffled_data_is_refused_naming_the_successors_found() {
    let dir = common::temp_dir("pqr-shuffled");
    let mut records = random_games(4, 13);
    // A deterministic shuffle: every 7th record in turn.
    let n = records.len();
    records = (0..n).map(|i| records[(i * 7) % n].clone()).collect();
    assert!(!n.is_multiple_of(7));
    let path = dir.join("shuffled.bin");
    write(&path, &records);
    let args = pqr_args(&path, &dir.join("n.nnue"));
    let all: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, code, _, err) = common::learn(&all);
    assert!(!ok && code == 1, "exit {code}: {err}");
    assert!(err.contains("shuffled.bin"), "{err}");
    assert!(err.contains("game order"), "{err}");
    assert!(err.contains(&format!("of the first {}", n - 1)), "{err}");
}

#[test]
fn a_validation_triplet_keeps_q_in_its_held_out_range() {
    use nnue_learner::data::Filter;
    use nnue_learner::train::validation::{ValidationSet, ValidationSpec};
    let dir = common::temp_dir("pqr-ranges");
    let path = dir.join("game.bin");
    write(&path, &random_games(1, 17));
    let source = open(&path);
    let load = |range: std::ops::Range<u64>| {
        let spec = ValidationSpec {
            source: &source,
            ranges: std::iter::once(range).collect(),
            count: 100,
            filter: Filter::default(),
            skip_invalid: false,
            accuracy_count: 0,
            pqr_seed: Some(1),
        };
        ValidationSet::load(spec, &Extractor::new(&shape())).unwrap()
    };
    // Records 0..5 of one game: 0..4 have their successor inside, 4's is record 5.
    let set = load(0..5);
    assert_eq!((set.len(), set.batch.len()), (4, 12));
    assert_eq!(load(0..GAME_PLIES as u64).len(), GAME_PLIES - 1);
}

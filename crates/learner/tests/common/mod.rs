//! Helpers shared by the learner's tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use nnue_core::data::{BinReader, ReaderOptions};
use nnue_learner::data::batch::target_of;
use nnue_learner::data::SparseBatch;
use nnue_learner::model::{Extractor, ModelShape};
use shakmaty::{Color, Role};

mod train_args;
#[allow(unused_imports)] // each test binary uses a different subset
pub(crate) use train_args::{material_run, Train};

/// Stockfish-tools data (see tests/data/README.md).
pub(crate) fn sample_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sf_tools_sample.bin")
}

/// The same Stockfish-tools data in another format: `"binpack"`, `"plain"`, or
/// `"vf"` (written by the viriformat crate, tests/data/README.md).
pub(crate) fn sample(extension: &str) -> PathBuf {
    sample_bin().with_extension(extension)
}

/// A fresh directory for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nnue-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `n` sample positions as a batch for `shape`, every `step`-th record.
pub(crate) fn sample_batch(shape: &ModelShape, n: usize, step: usize) -> SparseBatch {
    let reader = BinReader::open(&[sample_bin()], ReaderOptions::default()).unwrap();
    let extractor = Extractor::new(shape);
    let mut batch = SparseBatch::new();
    let (mut stm, mut nstm) = (Vec::new(), Vec::new());
    for i in 0..n {
        let record = reader.get((i * step) as u64).unwrap();
        let pos = &record.position;
        extractor.rows(&pos.board, pos.turn, &mut stm, &mut nstm);
        let bucket = extractor.bucket(&pos.board);
        batch.push(&stm, &nstm, bucket, target_of(&record));
    }
    batch
}

/// Runs `nnue-learn` with `args`: (success, exit code, stdout, stderr).
pub(crate) fn learn(args: &[&str]) -> (bool, i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nnue-learn"))
        .args(args)
        .output()
        .expect("run nnue-learn");
    (
        out.status.success(),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Material from the side to move's view, pawn = 208 (Stockfish's endgame pawn).
pub(crate) fn material(board: &shakmaty::Board, us: Color) -> i32 {
    let value = |r: Role| match r {
        Role::Pawn => 208,
        Role::Knight => 781,
        Role::Bishop => 825,
        Role::Rook => 1276,
        Role::Queen => 2538,
        Role::King => 0,
    };
    board
        .into_iter()
        .map(|(_, p)| {
            if p.color == us {
                value(p.role)
            } else {
                -value(p.role)
            }
        })
        .sum()
}

/// The sample positions with their scores replaced by a known function of the
/// pieces (material balance, clamped): a generated set the net can learn. Every
/// fifth position goes to the validation file. Returns (training, validation).
pub(crate) fn material_teacher(dir: &Path) -> (PathBuf, PathBuf) {
    let reader = BinReader::open(&[sample_bin()], ReaderOptions::default()).unwrap();
    let bytes = std::fs::read(sample_bin()).unwrap();
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for i in 0..reader.len() {
        let record = reader.get(i).unwrap();
        let score = material(&record.position.board, record.position.turn).clamp(-3000, 3000);
        let at = i as usize * 40;
        let mut r = bytes[at..at + 40].to_vec();
        r[32..34].copy_from_slice(&(score as i16).to_le_bytes());
        if i % 5 == 0 {
            &mut validation
        } else {
            &mut train
        }
        .extend(r);
    }
    let paths = (dir.join("material.bin"), dir.join("material-val.bin"));
    std::fs::write(&paths.0, train).unwrap();
    std::fs::write(&paths.1, validation).unwrap();
    paths
}

/// The number after `label` on the first line containing it.
pub(crate) fn figure(text: &str, label: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("{label}: {text}"));
    let rest = &line[line.find(label).unwrap() + label.len()..];
    rest.trim_start_matches([' ', '='])
        .split([' ', ',', ';'])
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

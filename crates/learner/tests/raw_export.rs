//! `nnue-learn export --layout raw`: nets trained only from the viriformat
//! sample, exported raw, evaluate in a reference inference of the documented
//! layout (docs/FORMATS.md, written here from the table, not from the engine's
//! code) exactly as the engine evaluates their `.nnue`.

mod common;

use std::path::{Path, PathBuf};

use common::Train;
use nnue_core::data::{BinReader, ReaderOptions};
use nnue_core::nnue::{Kernel, Network};
use shakmaty::{Board, Color, Role};

/// Transformer scale: accumulators are clamped to `0..=QA`.
const QA: i64 = 127;
/// Raw output per internal unit.
const FV_SCALE: i64 = 16;
/// Every how many sample records a position is compared (100 positions).
const STEP: u64 = 30;
/// bullet's mirrored king buckets of KAm8, by the own king's square a1–d1, …,
/// a8–d8 (files e–h mirrored onto d–a).
const KAM8: [usize; 32] = [
    0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 4, 4, 5, 5, 4, 4, 5, 5, 6, 6, 7, 7, 6, 6, 7, 7,
];

/// A raw file's i16 values and the sizes the test knows it was written with.
struct RawNet {
    values: Vec<i16>,
    n: usize,
    king_buckets: usize,
    output_buckets: usize,
    screlu: bool,
}

impl RawNet {
    /// The accumulator of `perspective`: biases plus the rows of its features.
    fn accumulator(&self, board: &Board, perspective: Color) -> Vec<i64> {
        let inputs = 768 * self.king_buckets * self.n;
        let flip = if perspective == Color::White { 0 } else { 56 };
        let king = board.king_of(perspective).unwrap().to_usize() ^ flip;
        let mirror = if self.king_buckets > 1 && king % 8 > 3 {
            7
        } else {
            0
        };
        let king = king ^ mirror;
        let bucket = if self.king_buckets > 1 {
            KAM8[king / 8 * 4 + king % 8]
        } else {
            0
        };
        let mut acc: Vec<i64> = self.values[inputs..inputs + self.n]
            .iter()
            .map(|&b| b.into())
            .collect();
        for (sq, piece) in board {
            let kind = piece.role as usize - Role::Pawn as usize;
            let their = usize::from(piece.color != perspective);
            let feature = 768 * bucket + 384 * their + 64 * kind + (sq.to_usize() ^ flip ^ mirror);
            let row = &self.values[feature * self.n..(feature + 1) * self.n];
            acc.iter_mut()
                .zip(row)
                .for_each(|(a, &w)| *a += i64::from(w));
        }
        acc
    }

    /// The value in internal units, side to move's view.
    fn evaluate(&self, board: &Board, turn: Color) -> i64 {
        let n = self.n;
        let out = 768 * self.king_buckets * n + n;
        let pieces = board.occupied().count();
        let bucket = (pieces - 2) / (32 / self.output_buckets);
        let weights = &self.values[out + 2 * n * bucket..out + 2 * n * (bucket + 1)];
        let bias = i64::from(self.values[out + 2 * n * self.output_buckets + bucket]);
        let mut acc = self.accumulator(board, turn);
        acc.extend(self.accumulator(board, !turn));
        let terms = acc.iter().zip(weights).map(|(&a, &w)| {
            let c = a.clamp(0, QA);
            if self.screlu {
                c * c * i64::from(w)
            } else {
                c * i64::from(w)
            }
        });
        let sum: i64 = terms.sum();
        let sum = if self.screlu { sum / QA } else { sum };
        (bias + sum) / FV_SCALE
    }
}

/// Trains `name` from the sample `.vf` with `shape` options, exports it raw;
/// the `.nnue` and the raw path.
fn train_and_export(dir: &Path, name: &str, shape: &[&str]) -> (PathBuf, PathBuf) {
    let net = dir.join(format!("{name}.nnue"));
    Train::on(&common::sample("vf"))
        .args(shape)
        .hidden("")
        .run("2", "1000", "100")
        .args(["--validation-count", "200", "--seed", "3", "--threads", "1"])
        .quiet()
        .output(&net)
        .learn_ok();
    let raw = dir.join(format!("{name}.raw"));
    let (ok, _, out, err) = common::learn(&[
        "export",
        net.to_str().unwrap(),
        raw.to_str().unwrap(),
        "--layout",
        "raw",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("QA = 127, QA*QB = 9600"), "{out}");
    (net, raw)
}

/// Compares the raw reference with the engine's evaluation of the `.nnue` on
/// every [`STEP`]th sample position; returns how many values were not 0.
fn compare(net: &Path, raw: RawNet) -> usize {
    let net = Network::from_bytes(&std::fs::read(net).unwrap(), "net").unwrap();
    let reader = BinReader::open(&[common::sample_bin()], ReaderOptions::default()).unwrap();
    let kernel = Kernel::detect();
    let mut nonzero = 0;
    for i in (0..reader.len()).step_by(STEP as usize) {
        let pos = reader.get(i).unwrap().position;
        let engine = net.evaluate_board(kernel, &pos.board, pos.turn);
        let reference = raw.evaluate(&pos.board, pos.turn);
        assert_eq!(i64::from(engine), reference, "record {i}");
        nonzero += usize::from(engine != 0);
    }
    nonzero
}

fn read_i16s(path: &Path, len: usize) -> Vec<i16> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len(), len, "{}", path.display());
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

#[test]
fn a_crelu_net_from_viriformat_evaluates_exactly_as_the_engine() {
    let dir = common::temp_dir("raw-crelu");
    let (net, raw) = train_and_export(&dir, "crelu", &["--feature-set", "All", "--ft-size", "32"]);
    // 768·32 + 32 + 64 + 1 = 24673 i16 = 49346 bytes, padded to 49408.
    let values = read_i16s(&raw, 49_408);
    let raw = RawNet {
        values,
        n: 32,
        king_buckets: 1,
        output_buckets: 1,
        screlu: false,
    };
    assert_eq!(compare(&net, raw), 100);
}

#[test]
fn an_screlu_king_and_output_bucketed_net_evaluates_exactly_as_the_engine() {
    let dir = common::temp_dir("raw-screlu");
    let shape = [
        "--feature-set",
        "KAm8",
        "--ft-size",
        "16",
        "--activation",
        "screlu",
    ];
    let (net, raw) = train_and_export(
        &dir,
        "screlu",
        &[&shape[..], &["--output-buckets", "8"]].concat(),
    );
    // 6144·16 + 16 + 8·32 + 8 = 98584 i16 = 197168 bytes, padded to 197184.
    let values = read_i16s(&raw, 197_184);
    let raw = RawNet {
        values,
        n: 16,
        king_buckets: 8,
        output_buckets: 8,
        screlu: true,
    };
    assert_eq!(compare(&net, raw), 100);
}

#[test]
fn a_net_with_hidden_layers_is_refused_naming_the_file() {
    let dir = common::temp_dir("raw-hidden");
    let net = dir.join("hidden.nnue");
    let (ok, _, _, err) = common::learn(&[
        "random-net",
        "--arch",
        "All:16:8",
        "--output-net",
        net.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let raw = dir.join("hidden.raw");
    let (ok, code, _, err) =
        common::learn(&["export", net.to_str().unwrap(), raw.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        format!(
            "nnue-learn: error: {}: 1 hidden layer(s): the raw layout holds 768->Nx2->1 nets without hidden layers",
            net.display()
        )
    );
    assert!(!raw.exists());
}

#[test]
fn export_follows_the_output_rule_and_names_a_missing_net() {
    let dir = common::temp_dir("raw-outputs");
    let net = dir.join("net.nnue");
    let (ok, _, _, err) = common::learn(&[
        "random-net",
        "--arch",
        "All:4:",
        "--output-net",
        net.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let net = net.to_str().unwrap();
    let (ok, code, _, err) = common::learn(&["export", net, net, "--force"]);
    assert!(!ok && code == 2, "{err}");
    assert!(err.contains("the output is also an input"), "{err}");
    let missing = dir.join("missing.nnue");
    let raw = dir.join("out.raw");
    let (ok, code, _, err) =
        common::learn(&["export", missing.to_str().unwrap(), raw.to_str().unwrap()]);
    assert!(!ok && code == 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "nnue-learn: error: {}: cannot read file",
            missing.display()
        )),
        "{err}"
    );
    // 768·4 + 4 + 8 + 1 = 3085 i16 = 6170 bytes, padded to 6208.
    let (ok, _, out, err) = common::learn(&["export", net, raw.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.starts_with(&format!("wrote:         {} (6208 bytes, raw layout)\nshape:         768x1 -> 4x2 -> 1 (crelu, 1 output bucket)\n", raw.display())), "{out}");
    assert_eq!(std::fs::metadata(&raw).unwrap().len(), 6208);
}

#[test]
fn train_output_raw_writes_the_exported_bytes_and_refuses_hidden_layers_up_front() {
    let dir = common::temp_dir("raw-train-output");
    let shape = ["--feature-set", "All", "--ft-size", "8"];
    let (net, exported) = train_and_export(&dir, "net", &shape);
    let raw = dir.join("during.raw");
    let again = dir.join("again.nnue");
    let out = Train::on(&common::sample("vf"))
        .args(shape)
        .hidden("")
        .run("2", "1000", "100")
        .args(["--validation-count", "200", "--seed", "3", "--threads", "1"])
        .quiet()
        .output(&again)
        .file("--output-raw", &raw)
        .learn_ok();
    assert!(
        out.contains(&format!("; raw layout in {} (", raw.display())),
        "{out}"
    );
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&net).unwrap());
    assert_eq!(
        std::fs::read(&raw).unwrap(),
        std::fs::read(&exported).unwrap()
    );
    let hidden = dir.join("hidden.nnue");
    let (ok, code, _, err) = Train::on(&common::sample("vf"))
        .all("8")
        .hidden("4")
        .run("1", "1000", "100")
        .quiet()
        .output(&hidden)
        .file("--output-raw", &dir.join("hidden.raw"))
        .learn();
    assert!(!ok && code == 2, "{err}");
    assert!(
        err.contains("hidden layer(s): the raw layout holds"),
        "{err}"
    );
    assert!(!hidden.exists());
}

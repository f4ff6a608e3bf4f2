//! `eval` against Stockfish 12 through the real binary (EvalFile loading a HalfKP net
//! our core writes), `Use NNUE`, and the bench signature.

mod support;

use std::process::Command;
use std::time::Duration;

use nnue_core::nnue::sha256::stockfish_name;
use nnue_core::nnue::{random_network, Activation, Architecture};
use nnue_engine::default_net;
use support::{raw_eval_line, test_data_text, Engine};

const LONG: Duration = Duration::from_secs(120);

/// `(fen, side-to-move value)` rows of the Stockfish 12 reference evaluations.
fn sf12_rows() -> Vec<(String, i32)> {
    let text = test_data_text("sf12_random_halfkp_evals.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].to_string(), cols[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn eval_prints_stockfish12_values_for_evalfile_net() {
    let net = random_network(&Architecture::halfkp_256(), 20201002).unwrap();
    let dir = std::env::temp_dir().join(format!("nnue-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random halfkp.nnue");
    net.save(&path).unwrap();

    let mut e = Engine::start();
    e.load_net(&path, &format!("[{}]", net.architecture().summary()));
    let rows = sf12_rows();
    assert!(rows.len() >= 10);
    for (fen, expected) in &rows {
        let lines = e.eval_lines(fen);
        let want = raw_eval_line(*expected);
        assert!(lines.contains(&want), "{fen}: want {want:?}, got {lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("Classical evaluation ")));
    }
    // Use NNUE false: the search says it is classical, eval has no NNUE line.
    e.send("setoption name Use NNUE value false");
    let ready = e.sync();
    assert!(
        ready
            .iter()
            .any(|l| l.contains("classical evaluation enabled")),
        "{ready:?}"
    );
    // A search with the net works.
    e.send("setoption name Use NNUE value true");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().len() > "bestmove ".len());
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

fn bench_nodes(output: &str) -> u64 {
    output
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .unwrap_or_else(|| panic!("no node count in {output}"))
        .trim()
        .parse()
        .unwrap()
}

/// The bench signature the docs quote (docs/BENCHMARKS.md): `bench` at its default
/// depth 13 with the classical evaluation. A change means the search changed: update
/// the docs with the new figure in the same commit.
const BENCH_SIGNATURE_CLASSICAL: u64 = 1_458_431;

#[test]
fn bench_signature_is_pinned() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nnue"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run nnue");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // Classical even when a net is embedded: the signature is the classical one.
        stdin
            .write_all(b"setoption name Use NNUE value false\nbench\nquit\n")
            .unwrap();
    }
    let out = child.wait_with_output().expect("nnue runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(bench_nodes(&text), BENCH_SIGNATURE_CLASSICAL, "{text}");
}

/// The embedded default net (`nets/default.nnue`) and `bench`'s node count with it
/// at depth 13, as Stockfish pins its bench to its default net. Replacing the net
/// changes both: update them and docs/BENCHMARKS.md together.
const DEFAULT_NET_NAME: &str = "nn-beb571ee250c.nnue";
const BENCH_SIGNATURE_DEFAULT_NET: u64 = 1_817_820;

#[test]
fn bench_signature_with_the_default_net_is_pinned() {
    let Some(bytes) = default_net::bytes() else {
        return; // a build without nets/default.nnue benches classical
    };
    assert_eq!(stockfish_name(bytes), DEFAULT_NET_NAME);
    let out = Command::new(env!("CARGO_BIN_EXE_nnue"))
        .arg("bench")
        .output()
        .expect("run nnue bench");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(bench_nodes(&text), BENCH_SIGNATURE_DEFAULT_NET, "{text}");
}

#[test]
fn bench_signature_is_deterministic() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_nnue"))
            .args(["bench", "5"])
            .output()
            .expect("run nnue bench");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run();
    let b = run();
    assert!(bench_nodes(&a) > 1000);
    assert_eq!(bench_nodes(&a), bench_nodes(&b));
    assert!(a.contains("Nodes/second    : "));
    // The same through the UCI loop, after other searches filled the hash: bench
    // uses its own fresh tables.
    let mut e = Engine::start();
    e.send("go depth 6");
    e.until(LONG, |l| l.starts_with("bestmove"));
    e.send("bench 5");
    let lines = e.until(LONG, |l| l.starts_with("Nodes/second"));
    assert_eq!(bench_nodes(&lines.join("\n")), bench_nodes(&a));
    e.quit();
}

#[test]
fn evalfile_loads_thesis_architectures() {
    let arch = Architecture::new("All+H+V", 64, &[16]).unwrap();
    let net = random_network(&arch, 3).unwrap();
    let dir = std::env::temp_dir().join(format!("nnue-thesis-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("all_h_v.nnue");
    net.save(&path).unwrap();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let p: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let expected = nnue_core::nnue::evaluate(&net, &p);

    let mut e = Engine::start();
    e.load_net(&path, "All+H+V 960->64x2-16-1");
    let lines = e.eval_lines(fen);
    let want = raw_eval_line(expected);
    assert!(lines.contains(&want), "want {want:?}, got {lines:?}");
    e.send("go depth 5");
    e.until(LONG, |l| l.starts_with("bestmove"));
    // A broken file is refused with a message naming it, and the net stays loaded.
    let broken = dir.join("broken.nnue");
    std::fs::write(&broken, b"not a network").unwrap();
    e.send(&format!(
        "setoption name EvalFile value {}",
        broken.display()
    ));
    let got = e.sync();
    assert!(
        got.iter().any(|l| l.starts_with("info string error:")
            && l.contains("broken.nnue: not a .nnue file (")),
        "{got:?}"
    );
    let lines = e.eval_current();
    assert!(lines.contains(&want), "{lines:?}");
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

/// A figure `evalbench` prints on the line starting with `label`.
fn eval_bench_figure(output: &str, label: &str) -> i64 {
    output
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .and_then(|rest| rest.trim_start_matches([' ', ':']).trim().parse().ok())
        .unwrap_or_else(|| panic!("no '{label}' in {output}"))
}

/// `evalbench 2` with the default net: the walk's size depends only on the bench
/// positions, the sum of values only on the net's inference (incremental updates
/// included). A change in the sum means the evaluation changed.
#[test]
fn evalbench_with_the_default_net_is_pinned() {
    let Some(bytes) = default_net::bytes() else {
        return; // a build without nets/default.nnue has no net to pin
    };
    assert_eq!(stockfish_name(bytes), DEFAULT_NET_NAME);
    let out = Command::new(env!("CARGO_BIN_EXE_nnue"))
        .args(["evalbench", "2"])
        .output()
        .expect("run nnue evalbench");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(eval_bench_figure(&text, "Evaluations "), 13_560, "{text}");
    assert_eq!(eval_bench_figure(&text, "Sum of values"), 760_781, "{text}");
    assert!(eval_bench_figure(&text, "Evaluations/second") > 0, "{text}");
}

#[test]
fn evalfile_loads_screlu_and_bucketed_nets() {
    let dir = std::env::temp_dir().join(format!("nnue-screlu-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Four pieces (bucket 0 of 8) and all 32 (bucket 7).
    let fens = [
        "8/5k2/8/3p4/3P4/8/2K5/8 w - - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ];
    for (name, activation, buckets, summary) in [
        (
            "screlu",
            Activation::SquaredClippedRelu,
            1,
            "All 768->64x2-1 screlu",
        ),
        (
            "buckets",
            Activation::ClippedRelu,
            8,
            "All 768->64x2-1 buckets=8",
        ),
        (
            "both",
            Activation::SquaredClippedRelu,
            8,
            "All 768->64x2-1 screlu buckets=8",
        ),
    ] {
        let arch = Architecture::new("All", 64, &[])
            .unwrap()
            .with_activation(activation)
            .with_output_buckets(buckets);
        let net = random_network(&arch, 5).unwrap();
        let path = dir.join(format!("{name}.nnue"));
        net.save(&path).unwrap();
        let mut e = Engine::start();
        e.load_net(&path, summary);
        for fen in fens {
            let p: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let expected = nnue_core::nnue::evaluate(&net, &p);
            let lines = e.eval_lines(fen);
            let want = raw_eval_line(expected);
            assert!(
                lines.contains(&want),
                "{name}: want {want:?}, got {lines:?}"
            );
        }
        e.send("go depth 5");
        e.until(LONG, |l| l.starts_with("bestmove"));
        e.quit();
    }
    std::fs::remove_dir_all(&dir).ok();
}

//! Stockfish 15.1 (HalfKAv2_hm) nets through the real binary: `EvalFile` detects
//! the layout, `eval` prints 15.1's raw value, a search runs, and a HalfKP net
//! loaded afterwards evaluates as before. With Debian's Stockfish 15.1 installed
//! its own net is exported and `eval` must print the values of
//! `tests/data/sf15_1_nnue_evals.tsv` (else a one-line notice); a random net of
//! the same layout checks the plumbing on every run.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use nnue_core::nnue::halfka::{random_halfka_network, Shape};
use nnue_core::nnue::{random_network, Architecture};
use nnue_test_support::{position, sf15_1_net, test_data_text};
use support::{raw_eval_line, Engine};

const LONG: Duration = Duration::from_secs(120);

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sf15_1")
}

#[test]
fn eval_prints_sf15_1_raw_values_for_its_own_net() {
    let Some(path) = sf15_1_net(&dir(), "eval_prints_sf15_1_raw_values_for_its_own_net") else {
        return;
    };
    let mut e = Engine::start();
    e.load_net(&path, "[HalfKAv2_hm 1024x2-16-32-1");
    let text = test_data_text("sf15_1_nnue_evals.tsv");
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 512);
    for row in rows {
        let (fen, raw) = row.split_once('\t').unwrap();
        assert_eq!(
            e.raw_eval(fen),
            raw_eval_line(raw.parse().unwrap()),
            "{fen}"
        );
    }
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    e.send("go depth 8");
    let lines = e.until(LONG, |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().len() > "bestmove ".len());
    e.quit();
}

#[test]
fn evalfile_switches_between_halfka_and_halfkp_nets() {
    let tmp = dir().join(format!("switch-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let halfka = random_halfka_network(Shape { width: 64 }, 11);
    let halfka_path = tmp.join("random halfka.nnue");
    std::fs::write(&halfka_path, halfka.to_bytes()).unwrap();
    let halfkp = random_network(&Architecture::halfkp_256(), 20201002).unwrap();
    let halfkp_path = tmp.join("random halfkp.nnue");
    halfkp.save(&halfkp_path).unwrap();
    // The first Stockfish 12 reference row: the HalfKP net keeps its value.
    let sf12 = test_data_text("sf12_random_halfkp_evals.tsv");
    let row = sf12.lines().find(|l| !l.starts_with('#')).unwrap();
    let cols: Vec<&str> = row.split('\t').collect();
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

    let mut e = Engine::start();
    e.load_net(&halfka_path, "[HalfKAv2_hm 64x2-16-32-1");
    assert_eq!(
        e.raw_eval(fen),
        raw_eval_line(halfka.evaluate(&position(fen)))
    );
    e.send("go depth 5");
    e.until(LONG, |l| l.starts_with("bestmove"));

    e.send(&format!(
        "setoption name EvalFile value {}",
        halfkp_path.display()
    ));
    e.sync();
    assert_eq!(e.raw_eval(cols[0]), raw_eval_line(cols[2].parse().unwrap()));

    // A damaged 15.1-layout file is refused with its reason; the HalfKP net stays.
    let mut bytes = halfka.to_bytes();
    bytes.truncate(bytes.len() - 1);
    let broken = tmp.join("broken.nnue");
    std::fs::write(&broken, &bytes).unwrap();
    e.send(&format!(
        "setoption name EvalFile value {}",
        broken.display()
    ));
    let lines = e.sync();
    let refused = lines
        .iter()
        .find(|l| l.contains("not loaded"))
        .expect("an error line");
    assert!(
        refused.contains("keeping") && refused.contains("fit no HalfKAv2_hm width"),
        "{refused}"
    );
    assert_eq!(e.raw_eval(cols[0]), raw_eval_line(cols[2].parse().unwrap()));
    e.quit();
    std::fs::remove_dir_all(&tmp).ok();
}

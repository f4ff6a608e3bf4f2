//! Evaluations along random games: the classical one is colour symmetric, and the
//! search's incremental NNUE evaluator equals a full refresh by the core library
//! (Stockfish 12's reference net and a thesis architecture).

use std::sync::Arc;

use nnue_core::nnue::{random_network, Architecture};
use nnue_engine::eval::{classical, EvalKind, Evaluator};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::{fen::Fen, CastlingMode, Chess, EnPassantMode, Position};

/// Plays `plies` uniformly random moves from the start, calling `f(before, move)`.
fn random_game(seed: u64, plies: usize, mut f: impl FnMut(&Chess, &shakmaty::Move)) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Chess::default();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        f(&p, &m);
        p.play_unchecked(m);
    }
}

/// The same position with colours swapped and the board flipped.
fn mirrored(p: &Chess) -> Chess {
    let fen = Fen::from_position(p, EnPassantMode::Legal).to_string();
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: String = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/");
    let turn = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = if fields[2] == "-" {
        "-".to_string()
    } else {
        let mut c: Vec<char> = fields[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
        c.into_iter().collect()
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    let text = format!("{board} {turn} {castling} {ep} {} {}", fields[4], fields[5]);
    text.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn classical_eval_is_colour_symmetric() {
    let mut checked = 0;
    for seed in 0..40 {
        random_game(seed, 120, |before, _| {
            assert_eq!(
                classical::evaluate(before),
                classical::evaluate(&mirrored(before)),
                "{}",
                Fen::from_position(before, EnPassantMode::Legal)
            );
            checked += 1;
        });
    }
    assert!(checked > 3000);
}

fn incremental_matches_refresh(arch: &Architecture) {
    let net = Arc::new(random_network(arch, 7).unwrap());
    let mut ev = Evaluator::new(&EvalKind::Nnue(net.clone()));
    for seed in 0..10 {
        let mut p = Chess::default();
        ev.reset(&p);
        let mut depth = 0;
        random_game(100 + seed, 150, |before, m| {
            depth += 1;
            p = before.clone();
            p.play_unchecked(*m);
            ev.push(before, m, &p);
            assert_eq!(ev.evaluate(&p), nnue_core::nnue::evaluate(&net, &p));
            // Every few moves, try a null move and take it back, as the search does.
            if depth % 7 == 0 {
                if let Ok(null) = p.clone().swap_turn() {
                    ev.push_null();
                    assert_eq!(ev.evaluate(&null), nnue_core::nnue::evaluate(&net, &null));
                    ev.pop();
                }
            }
        });
        // Unwind to the root, which must still evaluate as before.
        for _ in 0..depth {
            ev.pop();
        }
        let root = Chess::default();
        assert_eq!(ev.evaluate(&root), nnue_core::nnue::evaluate(&net, &root));
    }
}

#[test]
fn nnue_evaluator_follows_moves_halfkp() {
    incremental_matches_refresh(&Architecture::halfkp_256());
}

#[test]
fn nnue_evaluator_follows_moves_thesis_set() {
    incremental_matches_refresh(&Architecture::new("All+H+V", 64, &[16]).unwrap());
}

/// The core refuses nets that can evaluate beyond `EVAL_LIMIT`; that limit is a
/// copy of the engine's clamp (the core cannot depend on the engine), so the two
/// must not drift apart.
#[test]
fn the_cores_net_range_limit_is_the_engines_eval_max() {
    assert_eq!(
        nnue_core::nnue::EVAL_LIMIT,
        i64::from(nnue_engine::value::EVAL_MAX)
    );
}

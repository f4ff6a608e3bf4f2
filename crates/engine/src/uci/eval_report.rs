//! `eval`: both evaluations of the current position, so users can compare the
//! classical bootstrap evaluation with a network and check a net against Stockfish
//! (whose `eval` prints the same raw NNUE value for a HalfKP net).

use std::sync::Arc;

use nnue_core::nnue::Network;
use shakmaty::{Chess, Color, Position};

use crate::eval::{classical, PAWN_VALUE_EG};

/// The lines printed for `eval`. `net` is the loaded network, if any, and
/// `net_name` where it came from.
pub fn eval_lines(pos: &Chess, net: Option<&Arc<Network>>, net_name: &str) -> Vec<String> {
    let white = |v: i32| if pos.turn() == Color::White { v } else { -v };
    let pawns = |v: i32| white(v) as f64 / PAWN_VALUE_EG as f64;
    let c = classical::evaluate(pos);
    let mut lines = vec![format!(
        "Classical evaluation {c} (side to move, internal units) = {:+.2} (white side, pawns)",
        pawns(c)
    )];
    match net {
        Some(net) => {
            let v = nnue_core::nnue::evaluate(net, pos);
            lines.push(format!(
                "NNUE evaluation {v} (side to move, internal units)"
            ));
            lines.push(format!(
                "NNUE evaluation {:+.2} (white side, pawns) using {net_name} [{}]",
                pawns(v),
                net.architecture().summary()
            ));
        }
        None => lines.push(
            "NNUE evaluation unavailable: no network loaded (set EvalFile to a .nnue file)"
                .to_string(),
        ),
    }
    lines
}

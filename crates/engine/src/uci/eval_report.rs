//! `eval`: both evaluations of the current position, so users can compare the
//! classical bootstrap evaluation with a network and check a net against Stockfish
//! (the raw NNUE value Stockfish 12's `eval` prints for a HalfKP net, and 15.1's
//! `NNUE::evaluate(pos, false)` for a HalfKAv2_hm net).

use shakmaty::{Chess, Color, Position};

use crate::eval::classical;
use crate::eval::net::LoadedNet;
use crate::value::PAWN_VALUE_EG;

/// The line `eval` prints when `Use NNUE` is false, whatever net is loaded.
pub const CLASSICAL_BY_CHOICE: &str =
    "NNUE evaluation disabled (Use NNUE is false): the classical evaluation is in use";
/// The line `eval` prints when no network is loaded.
pub const NO_NETWORK: &str =
    "NNUE evaluation unavailable: no network loaded (set EvalFile to a .nnue file)";

/// Which evaluation the session uses, as `eval` reports it.
#[derive(Clone, Copy)]
pub enum EvalSource<'a> {
    /// A network, with the name it was loaded under.
    Nnue { net: &'a LoadedNet, name: &'a str },
    /// `Use NNUE` is false: the classical evaluation, loaded net or not.
    ClassicalByChoice,
    /// No network is loaded (none embedded, none set), so the search is classical.
    NoNetwork,
}

/// The lines printed for `eval`.
pub fn eval_lines(pos: &Chess, source: EvalSource<'_>) -> Vec<String> {
    let white = |v: i32| if pos.turn() == Color::White { v } else { -v };
    let pawns = |v: i32| white(v) as f64 / PAWN_VALUE_EG as f64;
    let c = classical::evaluate(pos);
    let mut lines = vec![format!(
        "Classical evaluation {c} (side to move, internal units) = {:+.2} (white side, pawns)",
        pawns(c)
    )];
    match source {
        EvalSource::Nnue { net, name } => {
            let v = net.raw_value(pos);
            lines.push(format!(
                "NNUE evaluation {v} (side to move, internal units)"
            ));
            lines.push(format!(
                "NNUE evaluation {:+.2} (white side, pawns) using {name} [{}]",
                pawns(v),
                net.summary()
            ));
        }
        EvalSource::ClassicalByChoice => lines.push(CLASSICAL_BY_CHOICE.to_string()),
        EvalSource::NoNetwork => lines.push(NO_NETWORK.to_string()),
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_net_in_use_the_second_line_says_why() {
        let start = Chess::default();
        let lines = eval_lines(&start, EvalSource::ClassicalByChoice);
        assert_eq!(
            lines,
            [
                "Classical evaluation 20 (side to move, internal units) = +0.10 (white side, pawns)",
                "NNUE evaluation disabled (Use NNUE is false): the classical evaluation is in use",
            ]
        );
        assert_eq!(
            eval_lines(&start, EvalSource::NoNetwork)[1],
            "NNUE evaluation unavailable: no network loaded (set EvalFile to a .nnue file)"
        );
    }
}

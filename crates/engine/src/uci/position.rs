//! `position startpos|fen <FEN> [moves ...]`. Parsing is all-or-nothing: a bad FEN or
//! an illegal move anywhere in the list leaves the engine's current position as it
//! was, so a GUI bug cannot put the engine in a half-updated state.

use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Position};

use super::error::UciError;

/// The game as the GUI last described it.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// The position to search.
    pub current: Chess,
    /// Every earlier position of the game, oldest first, for repetition detection.
    pub history: Vec<Chess>,
}

/// Parses the arguments after `position`.
pub fn parse_position(args: &[&str]) -> Result<Game, UciError> {
    let err = |m: String| UciError::Position(m);
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let start = match setup.first() {
        Some(&"startpos") => {
            if setup.len() > 1 {
                return Err(err(format!(
                    "unexpected '{}' after 'startpos'",
                    setup[1..].join(" ")
                )));
            }
            Chess::default()
        }
        Some(&"fen") => parse_fen(&setup[1..])?,
        Some(other) => {
            return Err(err(format!(
                "expected 'startpos' or 'fen', found '{other}'"
            )))
        }
        None => return Err(err("expected 'startpos' or 'fen <FEN>'".to_string())),
    };
    let mut game = Game {
        current: start,
        history: Vec::with_capacity(moves.len()),
    };
    for (i, text) in moves.iter().enumerate() {
        let uci: UciMove = text.parse().map_err(|_| {
            err(format!(
                "move {} '{text}' is not a UCI move (like e2e4 or e7e8q)",
                i + 1
            ))
        })?;
        let m = uci.to_move(&game.current).map_err(|_| {
            err(format!(
                "move {} '{text}' is illegal in {}",
                i + 1,
                Fen::from_position(&game.current, shakmaty::EnPassantMode::Legal)
            ))
        })?;
        let next = game
            .current
            .clone()
            .play(m)
            .map_err(|_| err(format!("move {} '{text}' is illegal", i + 1)))?;
        game.history
            .push(std::mem::replace(&mut game.current, next));
    }
    Ok(game)
}

/// A FEN of 4 to 6 fields (GUIs sometimes leave out the move counters).
fn parse_fen(fields: &[&str]) -> Result<Chess, UciError> {
    let err = |m: String| UciError::Position(m);
    if fields.len() < 4 || fields.len() > 6 {
        return Err(err(format!(
            "a FEN has 4 to 6 fields, found {} ('{}')",
            fields.len(),
            fields.join(" ")
        )));
    }
    let mut text = fields.join(" ");
    if fields.len() == 4 {
        text.push_str(" 0 1");
    } else if fields.len() == 5 {
        text.push_str(" 1");
    }
    let fen: Fen = text
        .parse()
        .map_err(|e| err(format!("malformed FEN '{text}': {e}")))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| err(format!("impossible position '{text}': {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn startpos_with_moves_keeps_history() {
        let g = parse_position(&split("startpos moves e2e4 e7e5 g1f3")).unwrap();
        assert_eq!(g.history.len(), 3);
        assert_eq!(
            Fen::from_position(&g.current, shakmaty::EnPassantMode::Legal).to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    #[test]
    fn castling_as_king_two_squares() {
        let g = parse_position(&split(
            "fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
        ))
        .unwrap();
        assert_eq!(
            Fen::from_position(&g.current, shakmaty::EnPassantMode::Legal).to_string(),
            "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"
        );
    }

    #[test]
    fn short_fen_gets_counters() {
        let g = parse_position(&split("fen 8/8/8/8/8/8/k7/7K w - -")).unwrap();
        assert_eq!(g.current.halfmoves(), 0);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = parse_position(&split("startpos moves e2e4 e2e4")).unwrap_err();
        assert!(e.to_string().contains("move 2 'e2e4' is illegal"), "{e}");
        let e = parse_position(&split("startpos moves zz")).unwrap_err();
        assert!(
            e.to_string().contains("move 1 'zz' is not a UCI move"),
            "{e}"
        );
        let e = parse_position(&split("fen 8/8/8 w - - 0 1")).unwrap_err();
        assert!(e.to_string().contains("malformed FEN"), "{e}");
        let e = parse_position(&split("fen 8/8/8/8/8/8/8/8 w - - 0 1")).unwrap_err();
        assert!(e.to_string().contains("impossible position"), "{e}");
        let e = parse_position(&split("fen")).unwrap_err();
        assert!(e.to_string().contains("4 to 6 fields"), "{e}");
        let e = parse_position(&split("sideways")).unwrap_err();
        assert!(e.to_string().contains("found 'sideways'"), "{e}");
        assert!(parse_position(&[]).is_err());
    }
}

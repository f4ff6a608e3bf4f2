//! `position startpos|fen <FEN> [moves ...]`. A bad setup (unknown keyword, bad
//! FEN) leaves the engine's current position as it was. A bad move in the list is
//! handled as Stockfish does: the moves before it are applied and the rest is
//! dropped, so the position is the last one the GUI and the engine agree on; the
//! bad move is reported by name.

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

/// A parsed `position` command: the game up to the first bad move, and the error
/// about that move if there was one.
#[derive(Debug)]
pub struct ParsedPosition {
    pub game: Game,
    pub bad_move: Option<UciError>,
}

/// Parses the arguments after `position`.
pub fn parse_position(args: &[&str]) -> Result<ParsedPosition, UciError> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut game = Game {
        current: parse_setup(setup)?,
        history: Vec::with_capacity(moves.len()),
    };
    for (i, text) in moves.iter().enumerate() {
        if let Err(e) = play(&mut game, i + 1, text) {
            return Ok(ParsedPosition {
                game,
                bad_move: Some(e),
            });
        }
    }
    Ok(ParsedPosition {
        game,
        bad_move: None,
    })
}

/// `startpos` or `fen <FEN>`.
fn parse_setup(setup: &[&str]) -> Result<Chess, UciError> {
    let err = |m: String| UciError::Position(m);
    match setup.first() {
        Some(&"startpos") if setup.len() > 1 => Err(err(format!(
            "unexpected '{}' after 'startpos'",
            setup[1..].join(" ")
        ))),
        Some(&"startpos") => Ok(Chess::default()),
        Some(&"fen") => parse_fen(&setup[1..]),
        Some(other) => Err(err(format!(
            "expected 'startpos' or 'fen', found '{other}'"
        ))),
        None => Err(err("expected 'startpos' or 'fen <FEN>'".to_string())),
    }
}

/// Plays move number `n` (from 1), given as `text`, or says why it cannot.
fn play(game: &mut Game, n: usize, text: &str) -> Result<(), UciError> {
    let err = |why: String| {
        UciError::Position(format!(
            "move {n} '{text}' {why}; position set after the {} move(s) before it",
            n - 1
        ))
    };
    let uci: UciMove = text
        .parse()
        .map_err(|_| err("is not a UCI move (like e2e4 or e7e8q)".to_string()))?;
    let fen = || Fen::from_position(&game.current, shakmaty::EnPassantMode::Legal);
    let m = uci
        .to_move(&game.current)
        .map_err(|_| err(format!("is illegal in {}", fen())))?;
    let next = game
        .current
        .clone()
        .play(m)
        .map_err(|_| err(format!("is illegal in {}", fen())))?;
    game.history
        .push(std::mem::replace(&mut game.current, next));
    Ok(())
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

    fn parse(s: &str) -> Result<Game, UciError> {
        let parsed = parse_position(&split(s))?;
        match parsed.bad_move {
            None => Ok(parsed.game),
            Some(e) => Err(e),
        }
    }

    fn fen_of(g: &Game) -> String {
        Fen::from_position(&g.current, shakmaty::EnPassantMode::Legal).to_string()
    }

    #[test]
    fn startpos_with_moves_keeps_history() {
        let g = parse("startpos moves e2e4 e7e5 g1f3").unwrap();
        assert_eq!(g.history.len(), 3);
        assert_eq!(
            fen_of(&g),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    #[test]
    fn castling_as_king_two_squares() {
        let g = parse("fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8").unwrap();
        assert_eq!(fen_of(&g), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    }

    #[test]
    fn short_fen_gets_counters() {
        let g = parse("fen 8/8/8/8/8/8/k7/7K w - -").unwrap();
        assert_eq!(g.current.halfmoves(), 0);
    }

    #[test]
    fn a_bad_move_keeps_the_moves_before_it_like_stockfish() {
        let parsed = parse_position(&split("startpos moves e2e4 e7e5 e2e4 g8f6")).unwrap();
        assert_eq!(parsed.game.history.len(), 2);
        assert_eq!(
            fen_of(&parsed.game),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(
            parsed.bad_move.unwrap().to_string(),
            "position: move 3 'e2e4' is illegal in \
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2; \
             position set after the 2 move(s) before it"
        );
        let parsed = parse_position(&split("startpos moves zz e2e4")).unwrap();
        assert!(parsed.game.history.is_empty());
        assert_eq!(
            parsed.bad_move.unwrap().to_string(),
            "position: move 1 'zz' is not a UCI move (like e2e4 or e7e8q); \
             position set after the 0 move(s) before it"
        );
    }

    #[test]
    fn a_bad_setup_is_an_error() {
        for (args, what) in [
            ("fen 8/8/8 w - - 0 1", "malformed FEN"),
            ("fen 8/8/8/8/8/8/8/8 w - - 0 1", "impossible position"),
            ("fen", "4 to 6 fields"),
            ("sideways", "found 'sideways'"),
            ("startpos e2e4", "unexpected 'e2e4' after 'startpos'"),
            ("", "expected 'startpos' or 'fen <FEN>'"),
        ] {
            let e = parse_position(&split(args)).unwrap_err();
            assert!(e.to_string().contains(what), "{args}: {e}");
        }
    }
}

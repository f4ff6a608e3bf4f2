//! `d`: the board as text, with the FEN, the Zobrist key and the checkers, the way
//! Stockfish users know it, for checking what the engine believes the position is.

use shakmaty::{fen::Fen, zobrist::Zobrist64, Chess, EnPassantMode, File, Position, Rank, Square};

/// The lines printed for `d`.
pub fn board_lines(pos: &Chess) -> Vec<String> {
    let rule = " +---+---+---+---+---+---+---+---+";
    let mut lines = vec![String::new(), rule.to_string()];
    for rank in Rank::ALL.iter().rev() {
        let mut row = String::from(" |");
        for file in File::ALL {
            let sq = Square::from_coords(file, *rank);
            let c = pos.board().piece_at(sq).map_or(' ', |p| p.char());
            row.push(' ');
            row.push(c);
            row.push_str(" |");
        }
        row.push_str(&format!(" {}", rank.char()));
        lines.push(row);
        lines.push(rule.to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!(
        "Fen: {}",
        Fen::from_position(pos, EnPassantMode::Legal)
    ));
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    lines.push(format!("Key: {:016X}", key.0));
    let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let lines = board_lines(&Chess::default());
        assert_eq!(lines[2], " | r | n | b | q | k | b | n | r | 8");
        assert_eq!(lines[16], " | R | N | B | Q | K | B | N | R | 1");
        assert!(lines.contains(
            &"Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
        ));
        assert!(lines.contains(&"Checkers: ".to_string()));
    }
}

//! One self-play game as Stockfish tools' final generator plays it (formats.md
//! 3.3-3.4): at every ply search first, then check the game end in the tools'
//! order, keep the position (from `--write-minply` on, if not a duplicate) with the
//! search's score and best move, and play the best move or the planned random move.
//! The result is filled in at the end, each record from its own side to move.

use nnue_core::packed::{GameResult, PackedSfenValue};
use nnue_engine::search::{key, Limits, SearchContext, SearchControl, Searcher};
use shakmaty::{Bitboard, Chess, Color, Position};

use super::adjudicate::{Adjudicator, Verdict};
use super::dedup::Dedup;
use super::opening::Opening;
use super::options::{GenConfig, KNOWN_WIN};
use super::random_move::{choose, Chooser, RandomPlan};
use crate::rng::GenRng;

/// Score adjudication starts at this ply ...
const ADJUDICATE_FROM_PLY: usize = 80;
/// ... and needs this many consecutive scores ...
const ADJUDICATE_PLIES: usize = 8;
/// ... within this distance of zero (Stockfish: exactly zero).
const ADJUDICATE_SCORE: i32 = 0;
/// Plies of consecutive eval-limit scores after which a resigning game ends.
const RESIGN_PLIES: u32 = 4;
/// Games that resign: this many out of ten (the others play on to mate or
/// [`KNOWN_WIN`]).
const RESIGNING_GAMES_IN_TEN: u64 = 8;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameEnd {
    MaxPly,
    FiftyMoves,
    Repetition,
    Checkmate,
    Stalemate,
    ScoreAdjudication,
    InsufficientMaterial,
    EvalLimit,
    /// `--adjudicate-win`: one side's score stayed at or above the bound.
    WinAdjudication,
    /// `--adjudicate-draw`: |score| stayed at or below the bound.
    DrawAdjudication,
    /// The search returned no move although the game was not over (discarded).
    NoMove,
    /// The run was stopped during the game (discarded).
    Stopped,
}

impl GameEnd {
    /// Names for the summary.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::MaxPly => "max ply",
            GameEnd::FiftyMoves => "fifty moves",
            GameEnd::Repetition => "repetition",
            GameEnd::Checkmate => "checkmate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::ScoreAdjudication => "score adjudication",
            GameEnd::InsufficientMaterial => "insufficient material",
            GameEnd::EvalLimit => "eval limit",
            GameEnd::WinAdjudication => "win adjudication",
            GameEnd::DrawAdjudication => "draw adjudication",
            GameEnd::NoMove => "no move (discarded)",
            GameEnd::Stopped => "stopped (discarded)",
        }
    }
}

/// A finished (or abandoned) game.
pub struct Game {
    /// Records in game order with their results filled in; empty for discarded games.
    pub records: Vec<PackedSfenValue>,
    pub end: GameEnd,
    /// The result for White, when the game ended by the rules or adjudication.
    pub white_result: Option<GameResult>,
    /// Plies played.
    pub plies: usize,
    /// The position the game ended in (not stored).
    pub last: Chess,
    /// The search value of `last`, from its side to move (0 if not searched).
    pub last_value: i32,
    /// Random openings drawn and rejected before this game's (0 without
    /// `--random-opening-plies`).
    pub opening_rejections: u32,
    /// No random opening passed the check: the game started from the base position.
    pub opening_fallback: bool,
}

/// What a worker needs to play games.
pub struct Player<'a> {
    pub config: &'a GenConfig,
    pub searcher: &'a mut Searcher,
    pub rng: &'a mut GenRng,
    pub dedup: &'a Dedup,
    pub control: &'a SearchControl,
}

/// A record waiting for its game's result.
struct Pending {
    record: PackedSfenValue,
    turn: Color,
}

impl Player<'_> {
    /// Plays one game from `start`.
    pub fn play(&mut self, start: &Chess) -> Game {
        self.play_from(&Opening::plain(start))
    }

    /// Plays one game from `opening`: its random plies count as the game's first
    /// plies (for `--write-minply`, the records' ply, the random-move plan and
    /// the end rules) but are not searched or written.
    pub fn play_from(&mut self, opening: &Opening) -> Game {
        let config = self.config;
        let mut pos = opening.position.clone();
        let mut keys: Vec<u64> = opening.keys.clone();
        let mut scores: Vec<i32> = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        let mut plan = RandomPlan::new(config, self.rng);
        let should_resign = self.rng.below(10) < RESIGNING_GAMES_IN_TEN;
        let mut resign_counter = 0;
        let mut adjudicator = Adjudicator::new(config.adjudicate_win, config.adjudicate_draw);
        for ply in opening.plies as usize.. {
            let limits = self.limits();
            let context = SearchContext {
                history: &keys,
                control: Some(self.control),
                on_info: None,
            };
            let result = self.searcher.search_with(&pos, &limits, context);
            if self.control.stop.load(std::sync::atomic::Ordering::Relaxed) {
                return abandoned(GameEnd::Stopped, ply, pos);
            }
            let result_value = result.value;
            if let Some((end, result)) = rules_end(config, &pos, ply, &keys, &scores) {
                return finish(pending, end, result, ply, pos).with_value(result_value);
            }
            let value = result.value;
            if let Some(verdict) = adjudicator.observe(ply, pos.turn(), value) {
                let (end, result) = adjudicated(verdict, pos.turn());
                return finish(pending, end, result, ply, pos).with_value(value);
            }
            if value.abs() >= config.eval_limit {
                resign_counter += 1;
                if (should_resign && resign_counter >= RESIGN_PLIES) || value.abs() >= KNOWN_WIN {
                    let r = if value > 0 {
                        GameResult::Win
                    } else {
                        GameResult::Loss
                    };
                    return finish(pending, GameEnd::EvalLimit, r, ply, pos).with_value(value);
                }
            } else {
                resign_counter = 0;
            }
            let Some(best) = result.best_move else {
                return abandoned(GameEnd::NoMove, ply, pos);
            };
            scores.push(value);
            let here = key(&pos);
            if ply >= config.write_minply as usize && !self.dedup.seen(here) {
                pending.push(Pending {
                    record: PackedSfenValue::new(
                        &pos,
                        value as i16,
                        &best,
                        ply as u16,
                        GameResult::Draw,
                    ),
                    turn: pos.turn(),
                });
            }
            let mut chooser = Chooser {
                config,
                rng: self.rng,
                searcher: self.searcher,
                control: self.control,
            };
            let random = choose(&mut plan, &mut chooser, &pos, ply);
            keys.push(here);
            pos.play_unchecked(random.unwrap_or(best));
        }
        unreachable!("the ply loop only ends by returning")
    }

    /// The limits of one ply's search: a depth drawn from [depth, depth2] (the
    /// draw is made even when both are equal, as the tools do), the hard and
    /// soft node limits.
    fn limits(&mut self) -> Limits {
        let config = self.config;
        let spread = u64::from(config.depth_max - config.depth_min + 1);
        Limits {
            depth: Some(config.depth_min + self.rng.below(spread) as u32),
            nodes: config.nodes,
            soft_nodes: config.soft_nodes,
            ..Limits::default()
        }
    }
}

/// The game end and the result from the side to move (`turn`) of an
/// adjudication, set as the eval-limit rule sets its result: the game-ending
/// position is not stored, and [`finish`] gives every record its own side's view.
fn adjudicated(verdict: Verdict, turn: Color) -> (GameEnd, GameResult) {
    match verdict {
        Verdict::Draw => (GameEnd::DrawAdjudication, GameResult::Draw),
        Verdict::Win(side) if side == turn => (GameEnd::WinAdjudication, GameResult::Win),
        Verdict::Win(_) => (GameEnd::WinAdjudication, GameResult::Loss),
    }
}

/// A game that produced no usable result.
fn abandoned(end: GameEnd, plies: usize, last: Chess) -> Game {
    Game {
        records: Vec::new(),
        end,
        white_result: None,
        plies,
        last,
        last_value: 0,
        opening_rejections: 0,
        opening_fallback: false,
    }
}

impl Game {
    fn with_value(mut self, value: i32) -> Game {
        self.last_value = value;
        self
    }
}

/// Fills in every record's result from its own side to move.
fn finish(
    pending: Vec<Pending>,
    end: GameEnd,
    result: GameResult,
    plies: usize,
    last: Chess,
) -> Game {
    let turn = last.turn();
    let records = pending
        .into_iter()
        .map(|p| {
            let mut r = p.record;
            let own = if p.turn == turn {
                result
            } else {
                result.flip()
            };
            r.game_result = own.to_i8();
            r
        })
        .collect();
    Game {
        records,
        end,
        white_result: Some(if turn == Color::White {
            result
        } else {
            result.flip()
        }),
        plies,
        last,
        last_value: 0,
        opening_rejections: 0,
        opening_fallback: false,
    }
}

/// The end checks after the search at the game's `ply`, in Stockfish tools'
/// order; the result is from the side to move.
fn rules_end(
    config: &GenConfig,
    pos: &Chess,
    ply: usize,
    keys: &[u64],
    scores: &[i32],
) -> Option<(GameEnd, GameResult)> {
    let legal = pos.legal_moves();
    if ply >= config.write_maxply as usize {
        return Some((GameEnd::MaxPly, GameResult::Draw));
    }
    if pos.halfmoves() >= 100 && (!pos.is_check() || !legal.is_empty()) {
        return Some((GameEnd::FiftyMoves, GameResult::Draw));
    }
    if is_threefold(pos, keys) {
        return Some((GameEnd::Repetition, GameResult::Draw));
    }
    if legal.is_empty() {
        return Some(if pos.is_check() {
            (GameEnd::Checkmate, GameResult::Loss)
        } else {
            (GameEnd::Stalemate, GameResult::Draw)
        });
    }
    if config.adjudicate_by_score
        && ply >= ADJUDICATE_FROM_PLY
        && scores
            .iter()
            .rev()
            .take(ADJUDICATE_PLIES)
            .filter(|s| s.abs() <= ADJUDICATE_SCORE)
            .count()
            == ADJUDICATE_PLIES
    {
        return Some((GameEnd::ScoreAdjudication, GameResult::Draw));
    }
    if config.adjudicate_by_material && insufficient_material(pos) {
        return Some((GameEnd::InsufficientMaterial, GameResult::Draw));
    }
    None
}

/// The current position occurred twice before since the last irreversible move.
fn is_threefold(pos: &Chess, keys: &[u64]) -> bool {
    let current = key(pos);
    let reach = (pos.halfmoves() as usize).min(keys.len());
    keys[keys.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == current)
        .count()
        >= 2
}

/// Stockfish tools' list: KvK, K+minor vs K, KB vs KB with bishops on one colour.
fn insufficient_material(pos: &Chess) -> bool {
    let b = pos.board();
    match b.occupied().count() {
        2 => true,
        3 => (b.knights() | b.bishops()).count() == 1,
        4 => {
            let (w, bl) = (b.bishops() & b.white(), b.bishops() & b.black());
            w.count() == 1
                && bl.count() == 1
                && ((w & Bitboard::DARK_SQUARES).any() == (bl & Bitboard::DARK_SQUARES).any())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_test_support::position;

    #[test]
    fn insufficient_material_is_the_tools_list() {
        assert!(insufficient_material(&position(
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        )));
        assert!(insufficient_material(&position(
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1"
        )));
        assert!(insufficient_material(&position(
            "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"
        )));
        // Bishops on different colours, a pawn, two knights: play on.
        assert!(!insufficient_material(&position(
            "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1"
        )));
        assert!(!insufficient_material(&position(
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        )));
        assert!(!insufficient_material(&position(
            "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"
        )));
    }

    #[test]
    fn threefold_needs_two_earlier_occurrences() {
        let start = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut p = start.clone();
        let mut keys = Vec::new();
        let shuffle = ["a1a2", "e8d8", "a2a1", "d8e8"];
        for round in 0..2 {
            for m in shuffle {
                assert!(!is_threefold(&p, &keys), "round {round} before {m}");
                keys.push(key(&p));
                let mv = m
                    .parse::<shakmaty::uci::UciMove>()
                    .unwrap()
                    .to_move(&p)
                    .unwrap();
                p.play_unchecked(mv);
            }
        }
        assert!(is_threefold(&p, &keys));
    }
}

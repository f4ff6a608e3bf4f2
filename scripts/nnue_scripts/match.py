"""Plays a match between two UCI engines, or one engine with two option sets, through
python-chess, and reports the Elo difference with its 95 % interval.

    python -m nnue_scripts.match [--engine PATH] [--opponent PATH]
                                 [--option Name=Value ...] [--option-a Name=Value ...] [--option-b Name=Value ...]
                                 [--games 20] [--tc 1+0.1 [--movestogo N] [--time-margin MS] | --movetime S | --nodes N]
                                 [--book data/openings.epd] [--book-seed 0] [--concurrency 2]
                                 [--max-plies 400] [--pgn FILE] [--sprt elo0,elo1,alpha,beta]
                                 [--resign-score CP [--resign-moves 3]]
                                 [--draw-moves N [--draw-score 10] [--draw-after 40]]

Engine A is --engine with --option and --option-a; engine B is --opponent (default: the
same binary) with --option and --option-b. So `--option-a "Use NNUE=true" --option-b
"Use NNUE=false"` plays the net against the classical evaluation at equal time.

Each opening of the book (EPD, one position per line; data/openings.epd is made by
nnue_scripts.make_openings) is played twice with colours swapped; --book-seed rotates where
in the book the match starts. The clock is kept here, like a GUI: wall time from `go` to
`bestmove` is charged, so pipe and process latency count against the engine (with
--movestogo N the base time is added back every N moves of each side). A move that takes
longer than the time left loses on time only when it exceeds it by more than
--time-margin ms (default 0); a smaller overshoot is counted and its debt stays on the
clock (the rule is Clock's, the same for every engine). Games end by the
rules (mate, stalemate, repetition, 50 moves, insufficient material) or are adjudicated
a draw after --max-plies. A time forfeit, an illegal move or a crash loses the game for
that engine, whichever colour it had, and is reported as a failure.

Before the first game each engine is started once with its options: one it does not
have, or refuses (our engine answers `info string error: ...`, as for an EvalFile it
cannot load, and would play on with its previous net), stops the match with an error
naming the engine and the option, and no game is played.

Score adjudication (nnue_scripts.adjudication; both rules off by default): with
--resign-score CP a game is won by the side that both engines' scores put at least CP
centipawns ahead for --resign-moves moves of each side (default 3); with --draw-moves N it
is drawn once both engines' scores stayed within --draw-score centipawns (default 10) for
N moves of each side and --draw-after full moves (default 40) have been played. A mate
score counts as beyond any CP; a move without a score restarts both counts.

Output: one line per game, a running score, and at the end the W/D/L from A's view,
the Elo estimate with its 95 % interval, the pentanomial counts of the complete game pairs
(points 0, 0.5, 1, 1.5, 2 that A scored on one opening with both colours) and, with --sprt,
the pentanomial log likelihood ratio and the decision (the match stops early when the SPRT
decides, never before ten complete pairs: a few lopsided pairs understate the variance;
an even --games keeps every pair whole), and with adjudication on,
how many games each rule ended. With --pgn every game is appended to FILE, each move with
its time and the mover's clock after it ([%emt] and [%clk]; nnue_scripts.clock_use
tabulates them). Exit status:
0 when every game finished cleanly, 1 otherwise.
"""

import argparse
import concurrent.futures
import datetime
import os
import sys
import threading
import time

from . import adjudication, common

common.require_chess("match.py")
import chess  # noqa: E402
import chess.engine  # noqa: E402
import chess.pgn  # noqa: E402


# Milliseconds by which a move may exceed the time left before it loses on time (see
# Clock); the same for every engine.
DEFAULT_TIME_MARGIN_MS = 0.0


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def parse_options(pairs):
    try:
        return common.parse_options(pairs)
    except ValueError as exc:
        sys.exit(f"match.py: error: {exc}")


def load_book(path):
    try:
        return common.load_book(path)
    except ValueError as exc:
        sys.exit(f"match.py: error: {exc}")


class Player:
    """One side of the match: a command (a path, or a list with arguments), a display
    name, its options and its protocol ("uci", or "xboard" for engines such as Phalanx
    that speak only the older xboard/CECP protocol)."""

    def __init__(self, path, name, options, protocol="uci"):
        self.path, self.name, self.options, self.protocol = path, name, options, protocol

    def start(self):
        return common.start_engine(self.path, self.options, self.protocol)


class Clock:
    """Both sides' remaining time under --tc / --movestogo, or a fixed per-move limit,
    and what each side spent: moves, seconds, the least time it had left after a move
    (negative: it overshot its clock) and how many moves overshot.

    The forfeit rule, the same for every engine: a move that takes longer than the time
    left loses on time only when it exceeds it by more than --time-margin milliseconds.
    A smaller overshoot is counted, and its debt stays on the clock (the time left goes
    negative, the increment is added as usual), so repeated overshoots add up to a
    forfeit; the engine is told at least MIN_CLOCK seconds while its clock is below that."""

    MIN_CLOCK = 0.01

    def __init__(self, args):
        self.args = args
        self.base, self.inc = parse_tc(args.tc)
        self.left = {chess.WHITE: self.base, chess.BLACK: self.base}
        self.margin = getattr(args, "time_margin", 0.0) / 1000.0
        self.stats = {side: {"moves": 0, "seconds": 0.0, "min_left_ms": None, "overshoots": 0}
                      for side in (chess.WHITE, chess.BLACK)}
        # Per move played: (seconds spent, the mover's clock after it or None without one),
        # written into the PGN as [%emt] and [%clk] comments.
        self.history = []

    def limit(self, moves_played):
        if self.args.nodes:
            return chess.engine.Limit(nodes=self.args.nodes), None
        if self.args.movetime:
            return chess.engine.Limit(time=self.args.movetime), None
        remaining = None
        if self.args.movestogo:
            remaining = self.args.movestogo - moves_played % self.args.movestogo
        limit = chess.engine.Limit(
            white_clock=max(self.left[chess.WHITE], self.MIN_CLOCK),
            black_clock=max(self.left[chess.BLACK], self.MIN_CLOCK),
            white_inc=self.inc,
            black_inc=self.inc,
            remaining_moves=remaining,
        )
        return limit, remaining

    def record(self, side, spent, budget):
        stats = self.stats[side]
        stats["moves"] += 1
        stats["seconds"] += spent
        if budget is None:
            return
        left_ms = round((budget - spent) * 1000.0, 1)
        if stats["min_left_ms"] is None or left_ms < stats["min_left_ms"]:
            stats["min_left_ms"] = left_ms
        if spent > budget:
            stats["overshoots"] += 1

    def charge(self, side, spent, remaining):
        """Charges `spent` seconds; False when the side has lost on time."""
        if self.args.nodes:
            self.record(side, spent, None)
            self.history.append((spent, None))
            return True
        if self.args.movetime:
            # A fixed move time gets the same latency allowance a clock would absorb.
            self.record(side, spent, self.args.movetime)
            self.history.append((spent, None))
            return spent <= self.args.movetime + self.args.movetime_margin
        self.record(side, spent, self.left[side])
        self.left[side] -= spent
        if self.left[side] < -self.margin:
            return False
        self.left[side] += self.inc
        if remaining == 1:
            self.left[side] += self.base
        self.history.append((spent, self.left[side]))
        return True

    def side_stats(self, side):
        stats = dict(self.stats[side])
        stats["seconds"] = round(stats["seconds"], 3)
        return stats


def play_game(index, args, players, book):
    """Plays game `index`; returns a dict with the result from A's view and the PGN."""
    fen = book[(args.book_seed + index // 2) % len(book)]
    a_is_white = index % 2 == 0
    white, black = (players[0], players[1]) if a_is_white else (players[1], players[0])
    board = chess.Board(fen)
    start_ply = board.ply()
    clock = Clock(args)
    adjudicator = adjudication.Adjudicator(adjudication.Rules.from_args(args))
    # Scores are parsed only when a rule reads them.
    info = chess.engine.INFO_SCORE if adjudicator.rules.enabled else chess.engine.INFO_NONE
    engines = {}
    result, termination, problem, forfeit, verdict = "*", "normal", None, None, None
    # The side whose engine is being started or asked for a move: a failure is its loss.
    acting = chess.WHITE
    try:
        # One at a time, so that `engines` holds every engine started and the finally
        # below stops white's even when black's fails to start (a live engine would keep
        # the interpreter from exiting).
        for acting, player in ((chess.WHITE, white), (chess.BLACK, black)):
            engines[acting] = player.start()
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome:  # the rules first: a mating move ends the game by mate
                result = outcome.result()
                break
            if verdict:
                result, termination = verdict.result, verdict.termination
                break
            if board.ply() - start_ply >= args.max_plies:
                result, termination = "1/2-1/2", "adjudication"
                break
            side = acting = board.turn
            limit, remaining = clock.limit((board.ply() - start_ply) // 2)
            t0 = time.monotonic()
            played = engines[side].play(board, limit, info=info)
            if not clock.charge(side, time.monotonic() - t0, remaining):
                result, termination = ("0-1" if side == chess.WHITE else "1-0"), "time forfeit"
                over = -(clock.stats[side]["min_left_ms"] or 0.0)
                problem = (f"{side_name(side)} lost on time at ply {board.ply()} "
                           f"({over:.0f} ms over its clock)")
                forfeit = "a" if (side == chess.WHITE) == a_is_white else "b"
                break
            if played.resigned:
                result, termination = ("0-1" if side == chess.WHITE else "1-0"), "resignation"
                break
            if played.move is None or played.move not in board.legal_moves:
                result, termination = ("0-1" if side == chess.WHITE else "1-0"), "illegal move"
                problem = f"illegal move {played.move} in {board.fen()}"
                break
            board.push(played.move)
            verdict = adjudicator.update(played.info.get("score"), board.fullmove_number - 1)
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as exc:
        result, termination = ("0-1" if acting == chess.WHITE else "1-0"), "crash"
        failed = white if acting == chess.WHITE else black
        problem = f"{side_name(acting)} ({failed.name}) engine failure: {exc!r} at {board.fen()}"
    finally:
        common.quit_engines(engines.values())
    return {
        "index": index,
        "a": players[0].name,
        "b": players[1].name,
        "result": result,
        "a_score": score_for_a(result, a_is_white),
        "termination": termination,
        "problem": problem,
        "plies": board.ply() - start_ply,
        "forfeit": forfeit,
        "a_clock": clock.side_stats(chess.WHITE if a_is_white else chess.BLACK),
        "b_clock": clock.side_stats(chess.BLACK if a_is_white else chess.WHITE),
        "pgn": make_pgn(board, fen, white.name, black.name, result, termination, index, args,
                        verdict.note if verdict and termination == verdict.termination else None,
                        clock.history),
    }


def side_name(side):
    return "white" if side == chess.WHITE else "black"


def score_for_a(result, a_is_white):
    white_score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    return white_score if a_is_white else 1.0 - white_score


def make_pgn(board, fen, white, black, result, termination, index, args, note=None, times=()):
    """The game as PGN; a score adjudication's Termination is the standard "adjudication",
    with `note`, the rule that ended it, as a comment on the last move. `times` holds each
    move's (seconds spent, clock left after it or None): written as the [%emt] and [%clk]
    comments GUIs and lichess read, so a game's time use can be read back per move."""
    game = chess.pgn.Game.from_board(board)
    for node, (spent, left) in zip(game.mainline(), times):
        node.set_emt(spent)
        if left is not None:
            node.set_clock(max(left, 0.0))
    game.headers.update(
        Event=args.event,
        Site="nnue_scripts.match",
        Date=datetime.date.today().strftime("%Y.%m.%d"),
        Round=str(index + 1),
        White=white,
        Black=black,
        Result=result,
        TimeControl=time_control_tag(args),
        Termination=PGN_TERMINATIONS.get(termination, termination),
    )
    if note:
        end = game.end()
        end.comment = f"{end.comment} {note}".strip()
    if fen != chess.STARTING_FEN:
        game.headers["FEN"], game.headers["SetUp"] = fen, "1"
    return str(game)


# The PGN Termination of each score adjudication (game["termination"] names the rule).
PGN_TERMINATIONS = {adjudication.RESIGN_TERMINATION: adjudication.PGN_TERMINATION,
                    adjudication.DRAW_TERMINATION: adjudication.PGN_TERMINATION}


def time_control_tag(args):
    if args.nodes:
        return f"nodes={args.nodes}"
    if args.movetime:
        return f"movetime={args.movetime}"
    base, inc = parse_tc(args.tc)
    return f"{args.movestogo}/{base:g}" if args.movestogo else f"{base:g}+{inc:g}"


# The SPRT decides only once this many game pairs are complete: its log likelihood
# ratio divides by the variance of the pair scores, which a handful of lopsided pairs
# understate (the published recipe run's candidate 1 was accepted on four pairs,
# [0, 0, 0, 1, 3], with LLR 3.14 for a 0/15 test). Ten pairs cost little when the
# difference is large and are far below any decision when it is small.
SPRT_MIN_PAIRS = 10


class Tally:
    """Wins/draws/losses from A's view, the pentanomial counts of complete game pairs
    (games 2k and 2k+1 share an opening), failures, games ended by score adjudication and
    the SPRT state (pentanomial), shared by threads."""

    def __init__(self, sprt):
        self.wins = self.draws = self.losses = 0
        self.scores = {}
        self.failures = []
        self.adjudicated = adjudication.counts([])
        self.sprt = sprt
        self.decision = None
        self.lock = threading.Lock()

    def add(self, game):
        with self.lock:
            score = game["a_score"]
            if score == 1.0:
                self.wins += 1
            elif score == 0.0:
                self.losses += 1
            else:
                self.draws += 1
            if game["problem"]:
                self.failures.append((game["index"], game["problem"]))
            for rule, count in adjudication.counts([game]).items():
                self.adjudicated[rule] += count
            self.scores[game["index"]] = score
            if self.sprt and not self.decision and sum(self.pentanomial()) >= SPRT_MIN_PAIRS:
                self.decision = common.sprt_decision(self.llr(), self.sprt[2], self.sprt[3])

    def pentanomial(self):
        """Counts of pair scores 0, 0.5, 1, 1.5, 2 over the complete pairs so far."""
        return common.pentanomial(common.pair_scores(self.scores))

    def llr(self):
        """The pentanomial SPRT's log likelihood ratio so far."""
        return common.sprt_llr_pentanomial(self.pentanomial(), self.sprt[0], self.sprt[1])

    def summary(self):
        est, low, high = common.elo_interval(self.wins, self.draws, self.losses)
        n = self.wins + self.draws + self.losses
        text = (
            f"{n} games: +{self.wins} ={self.draws} -{self.losses} (A's view), "
            f"Elo {est:+.1f} [{low:+.1f}, {high:+.1f}] (95 %)"
        )
        penta = self.pentanomial()
        if sum(penta):
            text += f", pairs {penta} (0-2 points)"
        if self.sprt:
            lower, upper = common.sprt_bounds(self.sprt[2], self.sprt[3])
            text += f", SPRT {self.sprt[0]:g}/{self.sprt[1]:g} LLR {self.llr():.2f} [{lower:.2f}, {upper:.2f}]"
            text += f" {self.decision or 'undecided'}"
        return text


def add_game_arguments(parser, event, adjudication_defaults=None):
    """The arguments every game of a match or gauntlet shares: count, clock, book,
    concurrency, and the score adjudication rules (off unless `adjudication_defaults`)."""
    parser.add_argument("--games", type=int, default=20,
                        help="games to play, each opening twice with colours swapped (default 20)")
    parser.add_argument("--tc", default="1+0.1", help="clock: base seconds + increment seconds (default 1+0.1)")
    parser.add_argument("--movestogo", type=int, default=0, help="N moves per base period (0: sudden death)")
    parser.add_argument("--movetime", type=float, default=0.0, help="fixed seconds per move instead of a clock")
    parser.add_argument("--movetime-margin", type=float, default=0.5, help="latency allowed over --movetime")
    parser.add_argument(
        "--time-margin", type=float, default=DEFAULT_TIME_MARGIN_MS,
        help="ms a move may exceed the time left without losing on time (the overshoot is counted and its debt kept)",
    )
    parser.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of a clock")
    parser.add_argument("--book", default=common.DEFAULT_BOOK, help="EPD openings ('' for the start position)")
    parser.add_argument("--book-seed", type=int, default=0, help="first opening of the book to use")
    parser.add_argument("--concurrency", type=int, default=2, help="games played at once (default 2)")
    parser.add_argument("--max-plies", type=int, default=400,
                        help="plies after which a game is adjudicated a draw (default 400)")
    adjudication.add_arguments(parser, adjudication_defaults)
    parser.add_argument("--event", default=event, help=f"the PGN's Event tag (default '{event}')")


def check_game_arguments(parser, args):
    if args.games < 1 or args.concurrency < 1:
        parser.error("--games and --concurrency must be at least 1")
    try:
        parse_tc(args.tc)
    except ValueError:
        parser.error(f"--tc '{args.tc}' is not BASE+INC in seconds (e.g. 10+0.1)")
    adjudication.check_arguments(parser, args)


def make_parser():
    parser = argparse.ArgumentParser(
        prog="python -m nnue_scripts.match", description=first_paragraph(__doc__),
        epilog="Exit status: 0 when every game finished cleanly, 1 otherwise (a game an engine lost by "
               "failing, or an engine that failed to start or refused an option before the first game). "
               "The whole description: python -m pydoc nnue_scripts.match")
    parser.add_argument("--engine", default=common.DEFAULT_ENGINE,
                        help="engine A's binary (default: target/release/nnue)")
    parser.add_argument("--opponent", default=None, help="engine B's binary (default: the same as --engine)")
    parser.add_argument("--name-a", default=None, help="engine A's name in the output and PGN (default A)")
    parser.add_argument("--name-b", default=None, help="engine B's name in the output and PGN (default B)")
    parser.add_argument("--option", action="append", default=[], help="UCI option Name=Value for both")
    parser.add_argument("--option-a", action="append", default=[], help="UCI option for engine A")
    parser.add_argument("--option-b", action="append", default=[], help="UCI option for engine B")
    add_game_arguments(parser, "nnue match")
    parser.add_argument("--pgn", default=None, help="append the games to this PGN file")
    parser.add_argument("--sprt", default=None, help="elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05)")
    return parser


def parse_args(argv=None):
    parser = make_parser()
    args = parser.parse_args(argv)
    check_game_arguments(parser, args)
    return args


def first_paragraph(text):
    """The first paragraph of a docstring as one line: the --help description."""
    return " ".join(text.split("\n\n")[0].split())


def make_players(args):
    for path in (args.engine, args.opponent):
        if path and not os.path.exists(path):
            sys.exit(f"match.py: error: engine {path} not found (cargo build --release)")
    common = parse_options(args.option)
    a = Player(args.engine, args.name_a or "A", {**common, **parse_options(args.option_a)})
    b = Player(args.opponent or args.engine, args.name_b or "B", {**common, **parse_options(args.option_b)})
    return a, b


def check_players(players):
    """Starts each player's engine once with its options and stops it; exits with an
    error naming the player when one fails to start or refuses an option (an unknown
    name, a value out of range, a net it cannot load), before any game is played, since
    every game would then be a failure, or worse, played with the engine's previous
    setting."""
    for player in players:
        try:
            common.quit_engines([player.start()])
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as exc:
            sys.exit(f"match.py: error: engine {player.name} ({player.path}) with options {player.options}: {exc}")


def parse_sprt(text):
    if not text:
        return None
    try:
        elo0, elo1, alpha, beta = (float(x) for x in text.split(","))
    except ValueError:
        sys.exit(f"match.py: error: --sprt '{text}' is not elo0,elo1,alpha,beta")
    return elo0, elo1, alpha, beta


def run_games(args, book, jobs, on_game, should_stop=lambda: False):
    """Plays `jobs`, (index, players) or (index, players, book, tag) tuples (the index
    picks the opening of the job's book, default `book`, and the colours; the tag comes
    back as game["tag"]), at most args.concurrency at a time; calls on_game(game) in this
    thread as each one ends and starts no new game once should_stop() is true."""
    jobs = list(jobs)

    def play(job):
        index, players, job_book, tag = (*job, book, None)[:4] if len(job) == 2 else job
        game = play_game(index, args, players, job_book)
        game["tag"] = tag
        return game

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        pending = set()
        while jobs or pending:
            while jobs and len(pending) < args.concurrency and not should_stop():
                pending.add(pool.submit(play, jobs.pop(0)))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                on_game(fut.result())


def game_line(game):
    """One line describing a finished game, with its problem if it had one."""
    line = f"game {game['index'] + 1:4}: {game['result']:7} ({game['termination']}, {game['plies']} plies)"
    if game["problem"]:
        line += f"  PROBLEM: {game['problem']}"
    return line


def main():
    args = parse_args()
    players = make_players(args)
    book = load_book(args.book)
    check_players(players)
    tally = Tally(parse_sprt(args.sprt))
    t0 = time.monotonic()

    def on_game(game):
        tally.add(game)
        if args.pgn:
            with open(args.pgn, "a") as out:
                out.write(game["pgn"] + "\n\n")
        print(f"{game_line(game)}   {tally.summary()}", flush=True)

    jobs = [(index, players) for index in range(args.games)]
    run_games(args, book, jobs, on_game, lambda: tally.decision)
    rules = adjudication.Rules.from_args(args)
    print(f"{players[0].name} vs {players[1].name} at {time_control_tag(args)}, {time.monotonic() - t0:.0f}s")
    if rules.enabled:
        print(f"score adjudication: {rules.describe()}")
    final = f"final: {tally.summary()}, failures {len(tally.failures)}"
    if rules.enabled:
        final += f"; games ended {adjudication.counts_text(tally.adjudicated)}"
    print(final)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())

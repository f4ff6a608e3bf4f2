"""Training positions from games against other engines, labelled by our own search.

    python -m nnue_scripts.external_games -o runs/external/ext.binpack [--games 200]
        [--engine target/release/nnue] [--engine-option Name=Value ...]
        [--opponent NAME:COMMAND[:uci|xboard][:Name=Value,...] ...] [--sf-elo 1800,2100,2400]
        [--book data/openings-random.epd] [--seed 1] [--nodes 10000] [--movetime 0.1]
        [--concurrency 2] [--max-plies 400] [--pgn FILE]
        [--depth 8] [--eval-file NET.nnue] [--write-minply 16] [--threads 2] [--force]

Self-play only ever shows the net the positions our own engine steers into. Games
against other engines reach others: their openings, their plans, their mistakes. This
plays our engine (--engine, default target/release/nnue) against each opponent with
both colours, then turns every position of those games into a training record whose
score and move come from our own search, and whose result is the real game's.

Opponents: --opponent as the gauntlet takes it (repeatable), or by default the Debian
engines that are installed (`apt-get install stockfish glaurung toga2 phalanx`):
Stockfish at UCI_LimitStrength with UCI_Elo --sf-elo, Toga II, Glaurung and Phalanx
(xboard). Our engine and every engine that stops at a node limit (UCI engines except
Glaurung and Toga II, which do not honour `go nodes`) play --nodes per move; the others
--movetime seconds (and everyone with --nodes 0).

Games: game i plays opponent (i // 2) mod (number of opponents) on opening i // 2 of
the book shuffled by --seed, our engine White in even games and Black in odd ones, so
each opening is played with both colours against the same opponent. An EPD line whose
c0 field holds the moves from the start position (as data/openings*.epd do) is played
from the start position with those moves, so plies count from the start; any other line
starts at its position, ply 0. A game ends by the rules (mate, stalemate, threefold
repetition, fifty moves, insufficient material) or as a draw at --max-plies. A game in
which an engine fails (crash, illegal or no move) is recorded with result `*` and not
used; the next run plays it again.

Resumable: every finished game is appended to the PGN (--pgn, default the output with
`.pgn`), with its index in the Round tag; a later run with the same options plays only
the games the PGN lacks (a PGN game whose players or opening differ from this run's
schedule is an error naming it) and rebuilds the output from the whole PGN.

Records: every position of a finished game from ply --write-minply on (the generator's
convention; the game-ending position, which has no move, is not stored; positions in
check are kept, as the generator keeps them), its result from the side to move's view
(1 win, 0 draw, -1 loss), then `nnue-gen-sfen rescore --depth D --best-move` sets the
score and the move from a depth-D search (--eval-file: with that net; default the
classical evaluation). The output is .bin, .binpack or .plain by its extension; an
existing output is replaced only with --force or when its PGN exists (a resumed run).
Exit status: 0 when done, 1 on a failure (no opponent installed, bad book or PGN, a
failed labelling), 2 for a bad option, 130 when stopped by Ctrl-C (the finished games
are saved; the next run resumes).
"""

import argparse
import concurrent.futures
import datetime
import logging
import os
import random
import subprocess
import sys
import tempfile
import time

from . import common

common.require_chess("external_games.py")
import chess  # noqa: E402
import chess.engine  # noqa: E402
import chess.pgn  # noqa: E402

from . import entrants, opponents as debian_engines  # noqa: E402

PROGRAM = "external_games.py"
DEFAULT_GEN_SFEN = os.path.join(common.RELEASE, "nnue-gen-sfen")
DEFAULT_BOOK = os.path.join(common.ROOT, "data", "openings-random.epd")
# The three Stockfish anchors: weaker, near and stronger than our engine's classical
# evaluation (docs/RESULTS.md's strength report), so the games stay undecided longer.
DEFAULT_SF_ELO = "1800,2100,2400"
DEFAULT_NODES = 10000
DEFAULT_MOVETIME = 0.1
DEFAULT_MAX_PLIES = 400
# The generator's defaults: first written ply and labelling depth.
DEFAULT_WRITE_MINPLY = 16
DEFAULT_DEPTH = 8
OUR_NAME = "nnue"
# Exit status after Ctrl-C, as the project's programs use (128 + SIGINT).
STOPPED_STATUS = 130
OUTPUT_EXTENSIONS = (".bin", ".binpack", ".plain")
# What a finished game's PGN Result means for White.
WHITE_RESULT = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}
# PGN tags this script writes beyond the seven standard ones.
OPENING_TAG = "Opening"


class UsageError(Exception):
    """A bad option: exit status 2."""


class Failure(Exception):
    """A failure while running (an engine, the PGN, the labelling): exit status 1."""


# --- openings ------------------------------------------------------------------------


class Opening:
    """Where a game starts: the position (`fen`) and the moves from it already played
    (`moves`, UCI), with `text` to name it in the PGN."""

    def __init__(self, fen, moves, text):
        self.fen, self.moves, self.text = fen, list(moves), text

    def board(self):
        board = chess.Board(self.fen)
        for move in self.moves:
            board.push_uci(move)
        return board


def parse_opening(line, where):
    """An EPD line as an Opening: from the start position with the c0 moves when they
    reach the line's position, else from the position itself. ValueError naming
    `where` (file:line) and the problem."""
    try:
        board, ops = chess.Board.from_epd(line)
    except ValueError as exc:
        raise ValueError(f"{where}: not an EPD position: {exc}") from None
    moves = str(ops.get("c0", "")).split()
    if moves:
        replay = chess.Board()
        try:
            for move in moves:
                replay.push_uci(move)
        except ValueError:
            replay = None
        if replay is not None and replay.board_fen() == board.board_fen() and replay.turn == board.turn:
            return Opening(chess.STARTING_FEN, moves, board.fen())
    return Opening(board.fen(), [], board.fen())


def load_openings(path):
    """The book's openings (one EPD or FEN a line, '#' comments), in file order; the
    start position alone for an empty path."""
    if not path:
        return [Opening(chess.STARTING_FEN, [], chess.STARTING_FEN)]
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise Failure(f"book {path}: {exc.strerror}") from None
    openings = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.startswith("#"):
            try:
                openings.append(parse_opening(line.strip(), f"book {path}:{number}"))
            except ValueError as exc:
                raise Failure(str(exc)) from None
    if not openings:
        raise Failure(f"book {path} holds no position")
    return openings


# --- the schedule --------------------------------------------------------------------


class Job:
    """Game `index`: our engine against `opponent` from `opening`, White when `ours_white`."""

    def __init__(self, index, opponent, opening, ours_white):
        self.index, self.opponent, self.opening, self.ours_white = index, opponent, opening, ours_white

    def names(self):
        """(White, Black) as the PGN names them."""
        return (OUR_NAME, self.opponent.name) if self.ours_white else (self.opponent.name, OUR_NAME)


def schedule(games, opponents, openings, seed):
    """The jobs of games 0..games-1: pairs of games share an opponent and an opening
    (drawn in the order of the book shuffled by `seed`) with the colours swapped."""
    order = list(openings)
    random.Random(seed).shuffle(order)
    return [
        Job(i, opponents[(i // 2) % len(opponents)], order[(i // 2) % len(order)], i % 2 == 0)
        for i in range(games)
    ]


# --- playing -------------------------------------------------------------------------


class Limits:
    """Per-move limits: `nodes` for engines that stop at a node limit (0: none do),
    `movetime` seconds for the others."""

    def __init__(self, nodes, movetime):
        self.nodes, self.movetime = nodes, movetime

    def for_entrant(self, entrant):
        if self.nodes and entrant.takes_nodes:
            return chess.engine.Limit(nodes=self.nodes)
        return chess.engine.Limit(time=self.movetime)

    def tag(self):
        return f"nodes={self.nodes},movetime={self.movetime:g}" if self.nodes else f"movetime={self.movetime:g}"


def play_job(job, ours, limits, max_plies):
    """Plays one job; returns its PGN game (Result `*` when an engine failed)."""
    board = job.opening.board()
    white, black = (ours, job.opponent) if job.ours_white else (job.opponent, ours)
    entrants = {chess.WHITE: white, chess.BLACK: black}
    engines, result, termination = {}, "*", "normal"
    current = chess.WHITE  # the side whose engine is starting or moving
    try:
        for current, entrant in entrants.items():
            engines[current] = common.start_engine(entrant.command, entrant.options, entrant.protocol)
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome:
                result, termination = outcome.result(), outcome.termination.name.lower().replace("_", " ")
                break
            if board.ply() >= max_plies:
                result, termination = "1/2-1/2", "max plies"
                break
            side = current = board.turn
            played = engines[side].play(board, limits.for_entrant(entrants[side]))
            if played.resigned:
                result, termination = ("0-1" if side == chess.WHITE else "1-0"), "resignation"
                break
            if played.move is None or played.move not in board.legal_moves:
                termination = f"engine failure: {entrants[side].name} played {played.move} in {board.fen()}"
                break
            board.push(played.move)
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError, TimeoutError) as exc:
        termination = f"engine failure: {entrants[current].name}: {exc!r} at {board.fen()}"
    finally:
        common.quit_engines(engines.values())
    return make_pgn(job, board, result, termination, limits)


def make_pgn(job, board, result, termination, limits):
    """The game as PGN: from the opening's position, the opening moves included."""
    game = chess.pgn.Game()
    if job.opening.fen != chess.STARTING_FEN:
        game.setup(chess.Board(job.opening.fen))
    node = game
    for move in board.move_stack:
        node = node.add_variation(move)
    white, black = job.names()
    game.headers.update(
        Event="nnue external games",
        Site="nnue_scripts.external_games",
        Date=datetime.date.today().strftime("%Y.%m.%d"),
        Round=str(job.index + 1),
        White=white,
        Black=black,
        Result=result,
        TimeControl=limits.tag(),
        Termination=termination,
    )
    game.headers[OPENING_TAG] = job.opening.text
    return game


# --- the PGN: what is done -----------------------------------------------------------


def read_pgn(path):
    """The games of `path` by index (Round - 1); {} when it does not exist. Failure
    naming the file and game for a game without a usable Round tag."""
    games = {}
    if not os.path.exists(path):
        return games
    try:
        with open(path) as f:
            number = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                number += 1
                if game.errors:
                    raise Failure(f"{path}: game {number}: {game.errors[0]}")
                try:
                    index = int(game.headers.get("Round", "")) - 1
                except ValueError:
                    index = -1
                if index < 0:
                    raise Failure(f"{path}: game {number}: Round tag '{game.headers.get('Round')}' is not a game number")
                games[index] = game
    except OSError as exc:
        raise Failure(f"{path}: {exc.strerror}") from None
    return games


def check_resumed(path, games, jobs):
    """Each saved game must be the one this run schedules at its index."""
    by_index = {job.index: job for job in jobs}
    for index, game in sorted(games.items()):
        job = by_index.get(index)
        if job is None:
            continue
        want = (*job.names(), job.opening.text)
        have = (game.headers.get("White"), game.headers.get("Black"), game.headers.get(OPENING_TAG))
        if have != want:
            raise Failure(
                f"{path}: game {index + 1} is {have[0]} vs {have[1]} from '{have[2]}', but this run schedules "
                f"{want[0]} vs {want[1]} from '{want[2]}' (other opponents, book or seed): use another --pgn"
            )


def failed(game):
    """A saved game that did not finish (an engine failed): replayed by the next run."""
    return game.headers.get("Result") not in WHITE_RESULT


class Stopped(Exception):
    """Ctrl-C while playing: the finished games are saved, the output is not written."""


def play_missing(jobs, done, ours, args, limits):
    """Plays the jobs whose games are not in `done` (or failed there), args.concurrency
    at a time, appending each to the PGN as it ends (a replayed game's later copy is
    the one read back) and showing progress. Ctrl-C cancels the games not finished
    and raises Stopped."""
    todo = [job for job in jobs if job.index not in done or failed(done[job.index])]
    total, finished, started = len(jobs), len(jobs) - len(todo), time.monotonic()
    print(f"{PROGRAM}: {finished} of {total} games in {args.pgn}, {len(todo)} to play", flush=True)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency)
    try:
        futures = {pool.submit(play_job, job, ours, limits, args.max_plies): job for job in todo}
        for future in concurrent.futures.as_completed(futures):
            job, game = futures[future], future.result()
            with open(args.pgn, "a") as out:
                out.write(str(game) + "\n\n")
            done[job.index] = game
            finished += 1
            per_game = (time.monotonic() - started) / (finished - (total - len(todo)))
            print(
                f"game {job.index + 1:4}/{total}: {game.headers['White']} vs {game.headers['Black']}: "
                f"{game.headers['Result']} ({game.headers['Termination']}, {game.end().ply()} plies)"
                f"  [{finished}/{total}, ETA {per_game * (total - finished):.0f} s]",
                flush=True,
            )
    except KeyboardInterrupt:
        # The engines got the same SIGINT; games in flight are dropped, not saved.
        pool.shutdown(wait=False, cancel_futures=True)
        raise Stopped(f"stopped: {finished} of {total} games saved in {args.pgn}; run again to resume") from None
    pool.shutdown()


# --- records -------------------------------------------------------------------------


def game_records(game, write_minply):
    """The `.plain` entries of a finished game: every position from ply `write_minply`
    on that has a move (the game-ending one has none), with the move played, score 0
    (rescore sets score and move), the ply and the result from the side to move.
    Plies count from the game's first position (the start position for openings
    given as moves). None for a game without a result."""
    white = WHITE_RESULT.get(game.headers.get("Result"))
    if white is None:
        return None
    entries = []
    board = game.board()
    for ply, move in enumerate(game.mainline_moves()):
        if ply >= write_minply:
            own = white if board.turn == chess.WHITE else -white
            entries.append(f"fen {board.fen()}\nmove {move.uci()}\nscore 0\nply {ply}\nresult {own}\ne\n")
        board.push(move)
    return entries


def write_plain(games, write_minply, path):
    """Writes the records of `games` (in index order) to `path`; returns (records,
    games used, games skipped for want of a result)."""
    records = used = skipped = 0
    with open(path, "w") as out:
        for index in sorted(games):
            entries = game_records(games[index], write_minply)
            if entries is None:
                skipped += 1
                continue
            used += 1
            records += len(entries)
            out.writelines(entries)
    return records, used, skipped


def label(args, plain, count):
    """`nnue-gen-sfen rescore` of the `.plain` records into the output: score and best
    move from our search."""
    command = [
        args.gen_sfen, "rescore", plain, args.output,
        "--depth", str(args.depth), "--best-move", "--threads", str(args.threads), "--quiet", "--force",
    ]
    if args.eval_file:
        command += ["--eval-file", args.eval_file]
    print(f"{PROGRAM}: labelling {count} positions: {' '.join(command)}", flush=True)
    done = subprocess.run(command, text=True, capture_output=True)
    if done.returncode != 0:
        raise Failure(f"labelling failed (exit {done.returncode}): {done.stderr.strip()}")
    print(done.stdout.strip(), flush=True)


# --- options -------------------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.external_games", description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True, help="training data: .bin, .binpack or .plain")
    parser.add_argument("--pgn", help="the games, kept for resuming (default: the output with .pgn)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--engine", default=common.DEFAULT_ENGINE, help="our engine (default target/release/nnue)")
    parser.add_argument("--engine-option", action="append", default=[], help="our engine's UCI option Name=Value")
    parser.add_argument("--opponent", action="append", default=[], help="NAME:COMMAND[:uci|xboard][:Name=Value,...]")
    parser.add_argument("--sf-elo", default=DEFAULT_SF_ELO, help="UCI_Elo levels of the default Stockfish opponents")
    parser.add_argument("--book", default=DEFAULT_BOOK, help="EPD openings, shuffled by --seed ('' for the start position)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="nodes per move (0: --movetime for everyone)")
    parser.add_argument("--movetime", type=float, default=DEFAULT_MOVETIME, help="seconds per move where no node limit applies")
    parser.add_argument("--concurrency", type=int, default=2, help="games played at once")
    parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES, help="a game reaching this ply is a draw")
    parser.add_argument("--gen-sfen", default=DEFAULT_GEN_SFEN, help="the nnue-gen-sfen binary that labels")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="labelling search depth, 1..100")
    parser.add_argument("--eval-file", help="label with this .nnue (default: the classical evaluation)")
    parser.add_argument("--write-minply", type=int, default=DEFAULT_WRITE_MINPLY, help="first ply written")
    parser.add_argument("--threads", type=int, default=2, help="labelling threads")
    parser.add_argument("--force", action="store_true", help="replace an existing output that has no PGN")
    args = parser.parse_args(argv)
    try:
        check_args(args)
    except UsageError as exc:
        parser.error(str(exc))
    return args


def check_args(args):
    """Ranges and files that can be checked before anything runs (UsageError)."""
    for name, value, low in (("--games", args.games, 1), ("--concurrency", args.concurrency, 1),
                             ("--max-plies", args.max_plies, 1), ("--nodes", args.nodes, 0),
                             ("--write-minply", args.write_minply, 0), ("--threads", args.threads, 1)):
        if value < low:
            raise UsageError(f"{name} {value}: must be at least {low}")
    if not 1 <= args.depth <= 100:
        raise UsageError(f"--depth {args.depth}: must be in 1..100")
    if args.movetime <= 0:
        raise UsageError(f"--movetime {args.movetime:g}: must be above 0")
    if os.path.splitext(args.output)[1] not in OUTPUT_EXTENSIONS:
        raise UsageError(f"--output {args.output}: the extension must be one of {', '.join(OUTPUT_EXTENSIONS)}")
    args.pgn = args.pgn or os.path.splitext(args.output)[0] + ".pgn"
    for name, path in (("--output", args.output), ("--pgn", args.pgn)):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise UsageError(f"{name} {path}: the folder {folder} does not exist")
    if os.path.abspath(args.pgn) == os.path.abspath(args.output):
        raise UsageError(f"--pgn {args.pgn} is the output")
    for name, path in (("--engine", args.engine), ("--gen-sfen", args.gen_sfen)):
        if not os.access(path, os.X_OK):
            raise UsageError(f"{name} {path}: not an executable (cargo build --release)")
    if args.eval_file and not os.path.isfile(args.eval_file):
        raise UsageError(f"--eval-file {args.eval_file}: no such file")
    if os.path.exists(args.output) and not (args.force or os.path.exists(args.pgn)):
        raise UsageError(f"--output {args.output}: already exists (use --force to replace it)")
    try:
        common.parse_options(args.engine_option)
    except ValueError as exc:
        raise UsageError(f"--engine-option: {exc}") from None


def opponents(args):
    """The opponents: --opponent, or the installed Debian engines; each dropped with a
    note when it is not installed."""
    notes = []
    try:
        if args.opponent:
            chosen = [entrants.parse_opponent(spec) for spec in args.opponent]
        else:
            chosen = debian_engines.default_opponents(entrants.parse_sf_elos(args.sf_elo), notes)
    except entrants.UsageError as exc:
        raise UsageError(str(exc)) from None
    usable = []
    for opponent in chosen:
        path = debian_engines.find_engine(opponent.command[0])
        if path:
            opponent.command = [path, *opponent.command[1:]]
            usable.append(opponent)
        else:
            notes.append(f"{opponent.name}: {opponent.command[0]} not found: skipped")
    for note in notes:
        print(f"{PROGRAM}: note: {note}", file=sys.stderr)
    if not usable:
        raise Failure("no opponent is installed (apt-get install stockfish glaurung toga2 phalanx, or --opponent)")
    return usable


def run(args):
    """Plays what the PGN lacks, then labels every finished game's positions."""
    ours = entrants.Entrant(OUR_NAME, [args.engine], "uci", common.parse_options(args.engine_option))
    jobs = schedule(args.games, opponents(args), load_openings(args.book), args.seed)
    done = read_pgn(args.pgn)
    check_resumed(args.pgn, done, jobs)
    play_missing(jobs, done, ours, args, Limits(args.nodes, args.movetime))
    wanted = {job.index: done[job.index] for job in jobs}
    for index, game in sorted(wanted.items()):
        if failed(game):
            print(f"{PROGRAM}: note: game {index + 1} not used ({game.headers.get('Termination')}); "
                  "the next run plays it again", file=sys.stderr)
    directory = os.path.dirname(os.path.abspath(args.output))
    with tempfile.TemporaryDirectory(dir=directory, prefix=".external-games-") as tmp:
        plain = os.path.join(tmp, "positions.plain")
        records, used, skipped = write_plain(wanted, args.write_minply, plain)
        note = f", {skipped} without a result left out" if skipped else ""
        print(f"{PROGRAM}: {records} positions from {used} games{note}", flush=True)
        if records == 0:
            raise Failure(f"no position from ply {args.write_minply} on in {args.pgn}: nothing to label")
        label(args, plain, records)
    return 0


def main(argv=None):
    args = parse_args(argv)
    # python-chess logs every line it does not parse (Phalanx's chatter) as a warning.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    try:
        return run(args)
    except UsageError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 2
    except Failure as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 1
    except Stopped as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return STOPPED_STATUS


if __name__ == "__main__":
    sys.exit(main())

"""Writes a book of balanced, varied opening positions (EPD) for engine matches.

    python -m nnue_scripts.make_openings --engine /usr/games/stockfish --count 250 \
        --plies 8 --seed 1 --out data/openings.epd
    python -m nnue_scripts.make_openings --random --count 250 --plies 8-9 --seed 2 \
        --max-cp 100 --check-depth 12 --out data/openings-random.epd

With --random the moves are not the engine's: every ply is a uniformly random legal move
(seeded; --plies A-B picks the line's length in A..B), and only the check below decides
what is kept. Such lines reach positions no engine would choose, so the book tests other
openings than the engine-guided one.

Each opening starts from the initial position; at every ply the reference engine
(any UCI engine, Debian's Stockfish by default) proposes its best moves (MultiPV) at a
shallow depth and one of those within --spread centipawns of the best is picked at
random (seeded), so lines stay plausible but differ. The final position is kept only
when a deeper search scores it within --max-cp of equality and it is new. Each EPD
line carries the moves that led to it (`c0`) and the reference score (`c1`), so
the book documents its own origin.
"""

import argparse
import random
import sys

from . import common

common.require_chess("make_openings.py")
import chess  # noqa: E402
import chess.engine  # noqa: E402

# Shallow search per ply: enough to avoid blunders, cheap enough for hundreds of lines.
PLY_DEPTH = 8
# Candidate moves per ply.
MULTIPV = 5
# Deeper check that the final position is balanced.
CHECK_DEPTH = 14


def pick_move(engine, board, rng, spread):
    infos = engine.analyse(board, chess.engine.Limit(depth=PLY_DEPTH), multipv=MULTIPV)
    scored = [(i["score"].relative.score(mate_score=100000), i["pv"][0]) for i in infos if i.get("pv")]
    best = max(s for s, _ in scored)
    candidates = [m for s, m in scored if best - s <= spread]
    return rng.choice(candidates)


def random_move(board, rng):
    return rng.choice(sorted(board.legal_moves, key=lambda move: move.uci()))


def make_line(engine, rng, plies, spread, random_moves=False):
    board = chess.Board()
    for _ in range(rng.randint(*plies)):
        if board.is_game_over():
            return None
        board.push(random_move(board, rng) if random_moves else pick_move(engine, board, rng, spread))
    return None if board.is_game_over() else board


def parse_plies(text):
    """'8' or '8-9' as (low, high)."""
    low, _, high = text.partition("-")
    low, high = int(low), int(high or low)
    if not 1 <= low <= high:
        raise ValueError(text)
    return low, high


def main():
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.make_openings", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--plies", default="8", help="plies per line: N, or A-B for a length in A..B")
    parser.add_argument("--random", action="store_true", help="uniformly random moves instead of the engine's")
    parser.add_argument("--check-depth", type=int, default=CHECK_DEPTH, help="depth of the search that checks the balance")
    parser.add_argument("--spread", type=int, default=40, help="centipawns below the best move")
    parser.add_argument("--max-cp", type=int, default=60, help="|score| limit of a kept opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="data/openings.epd")
    args = parser.parse_args()
    try:
        plies = parse_plies(args.plies)
    except ValueError:
        parser.error(f"--plies '{args.plies}' is not N or A-B")

    rng = random.Random(args.seed)
    seen = set()
    lines = []
    with common.start_engine(args.engine, {"Threads": 1, "Hash": 64}) as engine:
        attempts = 0
        while len(lines) < args.count and attempts < args.count * 20:
            attempts += 1
            board = make_line(engine, rng, plies, args.spread, args.random)
            if board is None:
                continue
            epd = board.epd()
            if epd in seen:
                continue
            # With --random, a new game (ucinewgame, empty hash) for every check: the score
            # depends only on the position, so the same seed writes the same book. (The
            # engine-guided book was made without; its command still makes it.)
            game = object() if args.random else None
            info = engine.analyse(board, chess.engine.Limit(depth=args.check_depth), game=game)
            cp = info["score"].white().score(mate_score=100000)
            if abs(cp) > args.max_cp:
                continue
            seen.add(epd)
            moves = " ".join(m.uci() for m in board.move_stack)
            lines.append(f'{epd} c0 "{moves}"; c1 "{cp} cp white, depth {args.check_depth}";')
            print(f"{len(lines):4}/{args.count}  {cp:+4} cp  {moves}", flush=True)
    with open(args.out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} openings to {args.out} ({attempts} lines tried)")
    return 0 if len(lines) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())

"""Writes a book of balanced, varied opening positions (EPD) for engine matches.

    python -m nnue_scripts.make_openings --engine /usr/games/stockfish --count 250 \
        --plies 8 --seed 1 --out data/openings.epd

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


def make_line(engine, rng, plies, spread):
    board = chess.Board()
    for _ in range(plies):
        if board.is_game_over():
            return None
        board.push(pick_move(engine, board, rng, spread))
    return board


def main():
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.make_openings", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument("--count", type=int, default=250)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--spread", type=int, default=40, help="centipawns below the best move")
    parser.add_argument("--max-cp", type=int, default=60, help="|score| limit of a kept opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="data/openings.epd")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seen = set()
    lines = []
    with common.start_engine(args.engine, {"Threads": 1, "Hash": 64}) as engine:
        attempts = 0
        while len(lines) < args.count and attempts < args.count * 20:
            attempts += 1
            board = make_line(engine, rng, args.plies, args.spread)
            if board is None:
                continue
            epd = board.epd()
            if epd in seen:
                continue
            info = engine.analyse(board, chess.engine.Limit(depth=CHECK_DEPTH))
            cp = info["score"].white().score(mate_score=100000)
            if abs(cp) > args.max_cp:
                continue
            seen.add(epd)
            moves = " ".join(m.uci() for m in board.move_stack)
            lines.append(f'{epd} c0 "{moves}"; c1 "{cp} cp white, depth {CHECK_DEPTH}";')
            print(f"{len(lines):4}/{args.count}  {cp:+4} cp  {moves}", flush=True)
    with open(args.out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} openings to {args.out} ({attempts} lines tried)")
    return 0 if len(lines) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())

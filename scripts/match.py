#!/usr/bin/env python3
"""Plays `nnue` against itself (or another UCI engine) through python-chess and fails
on any illegal move, crash or time forfeit.

    scripts/match.py [--engine PATH] [--opponent PATH] [--games 20] [--tc 1+0.1]
                     [--movestogo N] [--concurrency 2] [--max-plies 400]
                     [--option Name=Value ...]

Each opening of a small built-in book is played twice with colours swapped. The
clock is kept here, like a GUI (with --movestogo N the base time is added back
every N moves of each side, a classical "N moves in base seconds" control): wall time from sending `go` to reading `bestmove`
is charged, so pipe and process latency count against the engine. Games end by
the rules (mate, stalemate, repetition, 50 moves, insufficient material) or are
adjudicated a draw after --max-plies. Exit status: 0 when every game finished
cleanly, 1 otherwise.
"""

import argparse
import concurrent.futures
import os
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("match.py needs python-chess: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Short, common opening lines (UCI moves) so that games differ.
BOOK = [
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "c2c4 e7e5 b1c3 g8f6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",
    "e2e4 e7e5 f1c4 g8f6",
]


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def start(path, options):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=30)
    if options:
        engine.configure(options)
    return engine


def play_game(index, args, options):
    """Returns (index, result string, problem or None, plies)."""
    opening = BOOK[(index // 2) % len(BOOK)].split()
    paths = [args.engine, args.opponent or args.engine]
    if index % 2 == 1:
        paths.reverse()
    engines = []
    board = chess.Board()
    for mv in opening:
        board.push_uci(mv)
    base, inc = parse_tc(args.tc)
    clock = {chess.WHITE: base, chess.BLACK: base}
    try:
        engines = [start(p, options) for p in paths]  # [white, black]
        while not board.is_game_over(claim_draw=True):
            if board.ply() >= args.max_plies:
                return index, "1/2-1/2 (adjudicated)", None, board.ply()
            side = board.turn
            engine = engines[0] if side == chess.WHITE else engines[1]
            moves_played = (board.ply() - len(opening)) // 2  # by the side to move
            remaining = None
            if args.movestogo:
                remaining = args.movestogo - moves_played % args.movestogo
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
                remaining_moves=remaining,
            )
            t0 = time.monotonic()
            result = engine.play(board, limit)
            spent = time.monotonic() - t0
            clock[side] -= spent
            if clock[side] < 0:
                who = "white" if side == chess.WHITE else "black"
                return index, "forfeit", f"{who} lost on time at ply {board.ply()} ({clock[side]:.3f}s)", board.ply()
            clock[side] += inc
            if remaining == 1:
                clock[side] += base
            if result.move is None or result.move not in board.legal_moves:
                return index, "illegal", f"illegal move {result.move} in {board.fen()}", board.ply()
            board.push(result.move)
        return index, board.result(claim_draw=True), None, board.ply()
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as exc:
        return index, "crash", f"engine failure: {exc!r} at {board.fen()}", board.ply()
    finally:
        for e in engines:
            try:
                e.quit()
            except Exception:
                pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "nnue"))
    parser.add_argument("--opponent", default=None, help="second engine (default: the same)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tc", default="1+0.1", help="base seconds + increment seconds")
    parser.add_argument("--movestogo", type=int, default=0, help="N moves per base period (0: sudden death)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--option", action="append", default=[], help="UCI option Name=Value")
    args = parser.parse_args()
    if not os.path.exists(args.engine):
        sys.exit(f"match.py: engine {args.engine} not found (cargo build --release)")
    options = {}
    for opt in args.option:
        name, _, value = opt.partition("=")
        options[name] = value

    score = {"1-0": 0, "0-1": 0, "draw": 0}
    failures = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play_game, i, args, options) for i in range(args.games)]
        for fut in concurrent.futures.as_completed(futures):
            index, result, problem, plies = fut.result()
            print(f"game {index + 1:3}: {result} after {plies} plies" + (f"  PROBLEM: {problem}" if problem else ""), flush=True)
            if problem:
                failures.append((index, problem))
            elif result.startswith("1/2"):
                score["draw"] += 1
            else:
                score[result] += 1
    print(
        f"{args.games} games at {args.tc} in {time.monotonic() - t0:.0f}s: "
        f"white wins {score['1-0']}, black wins {score['0-1']}, draws {score['draw']}, "
        f"failures {len(failures)}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Drives a UCI engine through python-chess the way GUIs and bots do, and fails on
anything a strict client would reject.

    python -m nnue_scripts.uci_conformance PATH_TO_ENGINE

Checks: the handshake and option list, `EvalFile`'s advertised default sent back
(what python-chess does when it restores options), MultiPV analysis (distinct first
moves, scores, depth), `stop` during `go infinite` (bestmove within a second),
pondering with ponderhit, a short game against itself at a fast clock with no illegal
move and no time loss, and no `info string error` line in the whole session. Exit
status 0 on success; each failure is printed.
"""

import logging
import re
import sys
import time

from . import common

common.require_chess("uci_conformance.py")
import chess  # noqa: E402
import chess.engine  # noqa: E402

failures = []


class EngineLines(logging.Handler):
    """Collects the error lines the engine printed (python-chess logs every line it
    reads as ">> line")."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.errors = []

    def emit(self, record):
        message = record.getMessage()
        if ">> info string error" in message:
            self.errors.append(message)


engine_lines = EngineLines()
logging.getLogger("chess.engine").addHandler(engine_lines)
logging.getLogger("chess.engine").setLevel(logging.DEBUG)
logging.getLogger("chess.engine").propagate = False


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)


def handshake(engine):
    check(engine.id.get("name", "").startswith("nnue"), f"id name: {engine.id}")
    for name in ["Hash", "Threads", "MultiPV", "EvalFile", "Use NNUE", "Clear Hash", "Move Overhead", "Ponder"]:
        check(name in engine.options, f"option {name} announced")
    engine.ping()


def evalfile_default(engine):
    default = engine.options["EvalFile"].default
    # No net: the UCI empty string; an embedded net: Stockfish's nn-<12 hex digits>.nnue.
    check(default == "<empty>" or re.fullmatch(r"nn-[0-9a-f]{12}\.nnue", default), f"EvalFile default is a real value: {default!r}")
    # python-chess sends the option back like this when it restores a configuration.
    engine.configure({"EvalFile": default})
    engine.ping()


def multipv(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 4")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    check(len(infos) == 3, f"multipv 3 gave {len(infos)} lines")
    firsts = [info["pv"][0] for info in infos if info.get("pv")]
    check(len(set(firsts)) == 3, f"multipv first moves distinct: {firsts}")
    for info in infos:
        check("score" in info and info.get("depth", 0) >= 6, f"multipv info complete: {info}")
    # Qxf7 mates: the best line must say so.
    best = infos[0]
    check(best["pv"][0] == chess.Move.from_uci("f3f7"), f"mate in one found: {best['pv'][0]}")
    check(best["score"].relative.mate() == 1, f"mate score: {best['score']}")


def stop_infinite(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        time.sleep(0.5)
        t0 = time.monotonic()
        analysis.stop()
        best = analysis.wait()
        spent = time.monotonic() - t0
    check(spent < 1.0, f"stop answered in {spent:.3f}s")
    check(best.move in board.legal_moves, f"bestmove after stop legal: {best.move}")


def ponder(engine):
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05, black_inc=0.05)
    r1 = engine.play(board, limit, ponder=True)
    check(r1.move in board.legal_moves, f"ponder play legal: {r1.move}")
    board.push(r1.move)
    if r1.ponder is not None and r1.ponder in board.legal_moves:
        board.push(r1.ponder)  # the predicted reply: python-chess sends ponderhit
        r2 = engine.play(board, limit, ponder=True)
        check(r2.move in board.legal_moves, f"move after ponderhit legal: {r2.move}")


def fast_game(path, plies=60, base=3.0, inc=0.05):
    engines = [common.start_engine(path) for _ in range(2)]
    board = chess.Board()
    clock = {chess.WHITE: base, chess.BLACK: base}
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < plies:
            side = board.turn
            engine = engines[0] if side == chess.WHITE else engines[1]
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t0 = time.monotonic()
            result = engine.play(board, limit)
            clock[side] -= time.monotonic() - t0
            check(clock[side] > 0, f"no time loss at ply {board.ply()} (clock {clock[side]:.3f}s)")
            if clock[side] <= 0:
                return
            clock[side] += inc
            check(result.move in board.legal_moves, f"legal move {result.move} in {board.fen()}")
            if result.move not in board.legal_moves:
                return
            board.push(result.move)
    finally:
        for e in engines:
            e.quit()
    print(f"fast game: {board.ply()} plies, clocks {clock[chess.WHITE]:.2f}s/{clock[chess.BLACK]:.2f}s", flush=True)


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    path = sys.argv[1]
    engine = common.start_engine(path)
    try:
        handshake(engine)
        evalfile_default(engine)
        multipv(engine)
        stop_infinite(engine)
        ponder(engine)
    finally:
        engine.quit()
    fast_game(path)
    check(not engine_lines.errors, f"no error reported by the engine: {engine_lines.errors}")
    if failures:
        print(f"{len(failures)} conformance failure(s)")
        return 1
    print("uci conformance: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

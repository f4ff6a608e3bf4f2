"""A minimal UCI engine for the match runner's end-to-end tests: it plays a legal move
chosen by the ply (no search) and reports a fixed score, so a test knows what every
move's score is.

    python fake_engine.py WHITE_CP     reports WHITE_CP from white's view (its own view
                                       as UCI wants: negated when black is to move)
    python fake_engine.py mate         reports that white mates in 5
    python fake_engine.py none         reports no score

    python fake_engine.py crash        exits when asked for a move

Its option LoadDelay (milliseconds) makes `setoption` take that long, as loading an
EvalFile net does; its option EvalFile refuses every net as our engine refuses a file
that is not a .nnue: with an `info string error: ...` line, keeping its previous one.
"""

import sys
import time

import chess


def score_words(spec, board):
    """The `score ...` words of the info line for the side to move, or '' for none."""
    sign = 1 if board.turn == chess.WHITE else -1
    if spec == "none":
        return ""
    if spec == "mate":
        return f" score mate {5 * sign}"
    return f" score cp {int(spec) * sign}"


def move_for(board):
    """A legal move that depends only on the position's ply: deterministic, and varied
    enough not to repeat positions in a short game."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    return moves[board.ply() % len(moves)]


def position(words):
    """The board of a `position` command's words."""
    if words[1] == "startpos":
        board, rest = chess.Board(), words[2:]
    else:
        end = words.index("moves") if "moves" in words else len(words)
        board, rest = chess.Board(" ".join(words[2:end])), words[end:]
    for uci in rest[1:]:
        board.push_uci(uci)
    return board


def main():
    spec = sys.argv[1]
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake\noption name LoadDelay type spin default 0 min 0 max 10000\n"
                  "option name EvalFile type string default fake.nnue\nuciok", flush=True)
        elif words[:3] == ["setoption", "name", "LoadDelay"]:
            time.sleep(int(words[4]) / 1000)
        elif words[:3] == ["setoption", "name", "EvalFile"]:
            print(f"info string error: setoption: EvalFile '{words[4]}' not loaded, keeping fake.nnue", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            board = position(words)
        elif words[0] == "go" and spec == "crash":
            sys.exit(3)
        elif words[0] == "go":
            move = move_for(board)
            print(f"info depth 1{score_words(spec, board)} pv {move.uci()}\nbestmove {move.uci()}", flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()

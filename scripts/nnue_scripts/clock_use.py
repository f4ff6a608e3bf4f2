"""How each player used its clock, from PGN files whose moves carry [%clk] and [%emt]
comments (as nnue_scripts.match and the gauntlet write them, and lichess exports):

    python -m nnue_scripts.clock_use GAMES.pgn [MORE.pgn ...] [--moves 10,20,40,60,80]

For each player (the PGN's White/Black names): games, moves, the mean time a move took,
and at each listed move number the median clock left over the games that reached it,
with how many did; then how many games the player spent below 200 ms at some point.
A time manager that spends its clock early shows as a fast fall of the median; one that
never uses it as a flat one. Why it exists: the strength report of 2026-11-27 lost what
the search gained in direct matches, and only the clock per move told why.
"""

import argparse
import collections
import statistics
import sys

from . import common

common.require_chess("clock_use.py")
import chess.pgn  # noqa: E402

DEFAULT_MOVES = "10,20,40,60,80"
# A clock below this is one the player's moves are played on the increment alone.
LOW_CLOCK_S = 0.2


class Player:
    """What one player's moves over all games said about its clock."""

    def __init__(self):
        self.games = 0
        self.low_games = 0
        self.spent = []
        # move number (the player's own count) -> clocks left after it, one per game
        self.left_at = collections.defaultdict(list)


def read_games(paths):
    """Yields every game of the PGN files; a file that cannot be read is an error naming it."""
    for path in paths:
        try:
            with open(path) as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    yield game
        except OSError as exc:
            raise SystemExit(f"clock_use: {path}: {exc.strerror}") from None


def tally(paths):
    """Players by name, from every move with a clock or a move time."""
    players = collections.defaultdict(Player)
    for game in read_games(paths):
        names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
        counts = {chess.WHITE: 0, chess.BLACK: 0}
        low = {chess.WHITE: False, chess.BLACK: False}
        for node in game.mainline():
            side = not node.board().turn  # the side that played node.move
            player = players[names[side]]
            counts[side] += 1
            if (emt := node.emt()) is not None:
                player.spent.append(emt)
            if (clk := node.clock()) is not None:
                player.left_at[counts[side]].append(clk)
                low[side] = low[side] or clk < LOW_CLOCK_S
        for side in (chess.WHITE, chess.BLACK):
            if counts[side]:
                players[names[side]].games += 1
                players[names[side]].low_games += low[side]
    return players


def table(players, moves):
    """The report as markdown lines."""
    head = "| player | games | moves | ms a move | " + " | ".join(f"left after move {m} (s)" for m in moves)
    lines = [head + f" | games below {LOW_CLOCK_S * 1000:.0f} ms |",
             "|---" * (4 + len(moves) + 1) + "|"]
    for name in sorted(players):
        p = players[name]
        mean_ms = f"{1000 * statistics.fmean(p.spent):.0f}" if p.spent else "-"
        cells = []
        for m in moves:
            left = p.left_at.get(m)
            cells.append(f"{statistics.median(left):.2f} ({len(left)})" if left else "-")
        lines.append(f"| {name} | {p.games} | {len(p.spent)} | {mean_ms} | " + " | ".join(cells)
                     + f" | {p.low_games} |")
    return lines


def parse_moves(text):
    try:
        moves = [int(x) for x in text.split(",")]
    except ValueError:
        raise SystemExit(f"clock_use: --moves {text!r}: expected move numbers separated by commas") from None
    if not moves or min(moves) < 1:
        raise SystemExit(f"clock_use: --moves {text!r}: move numbers start at 1")
    return moves


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.clock_use",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files with [%%clk]/[%%emt] comments")
    parser.add_argument("--moves", default=DEFAULT_MOVES,
                        help=f"move numbers at which to show the median clock (default {DEFAULT_MOVES})")
    args = parser.parse_args(argv)
    moves = parse_moves(args.moves)
    players = tally(args.pgn)
    if not players:
        raise SystemExit(f"clock_use: no games in {', '.join(args.pgn)}")
    print("\n".join(table(players, moves)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

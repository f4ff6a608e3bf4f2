"""Checks nnue_scripts.external_games: openings given as moves, the schedule, the records
of a game (plies, results, the ending position left out), resuming, and, when the
release binaries are built, a few very short games of our engine against itself at a
low node count labelled by `nnue-gen-sfen rescore` (record count, results, every record
decoded by `nnue-gen-sfen stats`)."""

import contextlib
import io
import os
import subprocess
import tempfile
import unittest

import chess
import chess.pgn

from nnue_scripts import common, entrants
from nnue_scripts import external_games as ext

GEN_SFEN = ext.DEFAULT_GEN_SFEN
ENGINE = common.DEFAULT_ENGINE


def built():
    """Both release binaries exist, and nnue-gen-sfen is recent enough to label moves."""
    if not (os.access(GEN_SFEN, os.X_OK) and os.access(ENGINE, os.X_OK)):
        return False
    help_text = subprocess.run([GEN_SFEN, "rescore", "--help"], text=True, capture_output=True).stdout
    return "--best-move" in help_text


BUILT = built()
# An opening as data/openings.epd writes it: the position and the moves reaching it.
OPENING_LINE = ('rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - '
                'c0 "e2e4 e7e5 g1f3 g8f6"; c1 "0 cp white, depth 1";')


def fools_mate(result="0-1"):
    """f3 e5 g4 Qh4#: four plies, Black mates."""
    game = chess.pgn.Game()
    node = game
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        node = node.add_variation(chess.Move.from_uci(uci))
    game.headers["Result"] = result
    return game


def entries(plain_text):
    """The .plain records as dicts of their fields."""
    records = []
    for block in plain_text.split("\ne\n"):
        if block.strip():
            records.append(dict(line.split(" ", 1) for line in block.strip().splitlines()))
    return records


class OpeningTest(unittest.TestCase):
    def test_c0_moves_start_from_the_start_position(self):
        opening = ext.parse_opening(OPENING_LINE, "book:1")
        self.assertEqual(opening.fen, chess.STARTING_FEN)
        self.assertEqual(opening.moves, ["e2e4", "e7e5", "g1f3", "g8f6"])
        self.assertEqual(opening.board().ply(), 4)
        self.assertEqual(opening.board().board_fen(), "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R")

    def test_a_position_without_matching_moves_is_ply_0(self):
        plain = ext.parse_opening("4k3/8/8/8/8/8/4P3/4K3 w - -", "book:2")
        self.assertEqual((plain.fen, plain.moves), ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []))
        wrong = ext.parse_opening('4k3/8/8/8/8/8/4P3/4K3 w - - c0 "e2e4";', "book:3")
        self.assertEqual(wrong.moves, [])

    def test_a_bad_line_names_the_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            book = os.path.join(tmp, "b.epd")
            with open(book, "w") as f:
                f.write(OPENING_LINE + "\nnot a position\n")
            with self.assertRaisesRegex(ext.Failure, rf"book {book}:2: not an EPD position"):
                ext.load_openings(book)


class ScheduleTest(unittest.TestCase):
    def test_pairs_share_opponent_and_opening_with_colours_swapped(self):
        opponents = [entrants.Entrant(name, [name]) for name in ("a", "b", "c")]
        openings = [ext.Opening(chess.STARTING_FEN, [], str(i)) for i in range(5)]
        jobs = ext.schedule(8, opponents, openings, seed=3)
        self.assertEqual([j.opponent.name for j in jobs], ["a", "a", "b", "b", "c", "c", "a", "a"])
        self.assertEqual([j.ours_white for j in jobs], [True, False] * 4)
        for first, second in zip(jobs[::2], jobs[1::2]):
            self.assertIs(first.opening, second.opening)
        self.assertEqual(len({j.opening.text for j in jobs}), 4)
        again = ext.schedule(8, opponents, openings, seed=3)
        self.assertEqual([j.opening.text for j in jobs], [j.opening.text for j in again])
        other = ext.schedule(8, opponents, openings, seed=4)
        self.assertNotEqual([j.opening.text for j in jobs], [j.opening.text for j in other])
        self.assertEqual(jobs[1].names(), ("a", ext.OUR_NAME))


class RecordsTest(unittest.TestCase):
    def test_every_position_with_a_move_from_minply_with_its_own_result(self):
        records = [dict(line.split(" ", 1) for line in e.strip().splitlines()[:-1])
                   for e in ext.game_records(fools_mate(), 0)]
        self.assertEqual([r["ply"] for r in records], ["0", "1", "2", "3"])
        # Black won: White to move loses (-1), Black to move wins (1).
        self.assertEqual([r["result"] for r in records], ["-1", "1", "-1", "1"])
        self.assertEqual([r["move"] for r in records], ["f2f3", "e7e5", "g2g4", "d8h4"])
        self.assertEqual(records[0]["fen"], chess.STARTING_FEN)
        self.assertEqual(len(ext.game_records(fools_mate(), 2)), 2)
        self.assertEqual(len(ext.game_records(fools_mate(), 4)), 0)
        draw = [e.splitlines()[4] for e in ext.game_records(fools_mate("1/2-1/2"), 0)]
        self.assertEqual(draw, ["result 0"] * 4)
        self.assertIsNone(ext.game_records(fools_mate("*"), 0))

    def test_a_resumed_pgn_must_hold_this_runs_games(self):
        opponent = entrants.Entrant("sf", ["sf"])
        opening = ext.Opening(chess.STARTING_FEN, [], "start")
        jobs = ext.schedule(2, [opponent], [opening], seed=1)
        game = fools_mate()
        game.headers.update(White=ext.OUR_NAME, Black="sf", Round="1")
        game.headers[ext.OPENING_TAG] = "start"
        ext.check_resumed("g.pgn", {0: game}, jobs)
        game.headers["Black"] = "toga2"
        with self.assertRaisesRegex(ext.Failure, r"g.pgn: game 1 is nnue vs toga2 from 'start', but this run"):
            ext.check_resumed("g.pgn", {0: game}, jobs)

    def test_bad_options_are_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.bin")
            cases = [
                (["--games", "0"], "--games 0: must be at least 1"),
                (["--depth", "0"], "--depth 0: must be in 1..100"),
                (["--output", os.path.join(tmp, "x.txt")], "the extension must be one of"),
                (["--output", os.path.join(tmp, "no", "x.bin")], "does not exist"),
                (["--engine", os.path.join(tmp, "nothing")], "not an executable"),
            ]
            for extra, message in cases:
                stderr = io.StringIO()
                with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit) as exit_:
                    ext.parse_args(["-o", out, "--gen-sfen", "/bin/true", "--engine", "/bin/true", *extra])
                self.assertEqual(exit_.exception.code, 2)
                self.assertIn(message, stderr.getvalue())


class FailedGamesTest(unittest.TestCase):
    def test_a_failed_game_is_saved_unused_and_played_again(self):
        with tempfile.TemporaryDirectory() as tmp:
            pgn = os.path.join(tmp, "g.pgn")
            argv = ["-o", os.path.join(tmp, "x.bin"), "--pgn", pgn, "--games", "2", "--engine", "/bin/false",
                    "--gen-sfen", "/bin/true", "--opponent", "broken:/bin/false", "--book", ""]
            for run in (1, 2):
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    self.assertEqual(ext.main(argv), 1)
                self.assertIn(f"0 of 2 games in {pgn}, 2 to play", out.getvalue())
                self.assertIn("game 1 not used (engine failure: nnue: ", err.getvalue())
                self.assertIn("error: no position from ply 16 on", err.getvalue())
                with open(pgn) as f:
                    self.assertEqual(f.read().count("[Result \"*\"]"), 2 * run)
            self.assertEqual(sorted(ext.read_pgn(pgn)), [0, 1])


@unittest.skipUnless(BUILT, "needs target/release/nnue and a current nnue-gen-sfen (cargo build --release)")
class PlayAndLabelTest(unittest.TestCase):
    """Our engine against itself: 300 nodes a move, games cut at ply 24."""

    def run_games(self, tmp, games, output):
        book = os.path.join(tmp, "book.epd")
        with open(book, "w") as f:
            f.write(OPENING_LINE + "\n")
        argv = [
            "-o", output, "--pgn", os.path.join(tmp, "games.pgn"), "--games", str(games),
            "--opponent", f"self:{ENGINE}", "--book", book, "--nodes", "300", "--max-plies", "24",
            "--write-minply", "6", "--depth", "2", "--threads", "1", "--concurrency", "2",
        ]
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(ext.main(argv), 0)
        return out.getvalue()

    def test_records_follow_the_games_and_decode(self):
        with tempfile.TemporaryDirectory() as tmp:
            output = os.path.join(tmp, "ext.binpack")
            self.run_games(tmp, 2, output)
            games = ext.read_pgn(os.path.join(tmp, "games.pgn"))
            self.assertEqual(sorted(games), [0, 1])
            want = sum(game.end().ply() - 6 for game in games.values())
            stats = subprocess.run([GEN_SFEN, "stats", output], text=True, capture_output=True, check=True)
            self.assertIn(f"records: {want}\ninvalid (skipped): 0\n", stats.stdout)
            plain = os.path.join(tmp, "ext.plain")
            subprocess.run([GEN_SFEN, "convert", output, plain], capture_output=True, check=True)
            with open(plain) as f:
                records = entries(f.read())
            self.assertEqual(len(records), want)
            # Game by game, in index order: plies 6.. and the game's result from each side.
            at = 0
            for index in sorted(games):
                game = games[index]
                white = ext.WHITE_RESULT[game.headers["Result"]]
                for ply in range(6, game.end().ply()):
                    record = records[at]
                    at += 1
                    self.assertEqual(int(record["ply"]), ply)
                    board = chess.Board(record["fen"])
                    own = white if board.turn == chess.WHITE else -white
                    self.assertEqual(int(record["result"]), own, f"game {index + 1} ply {ply}")
                    self.assertIn(chess.Move.from_uci(record["move"]), board.legal_moves)

            # Resuming plays only the missing game and rebuilds the output from all three.
            text = self.run_games(tmp, 3, output)
            self.assertIn("2 of 3 games in", text)
            self.assertEqual(text.count("\ngame "), 1)
            games = ext.read_pgn(os.path.join(tmp, "games.pgn"))
            want = sum(game.end().ply() - 6 for game in games.values())
            stats = subprocess.run([GEN_SFEN, "stats", output], text=True, capture_output=True, check=True)
            self.assertIn(f"records: {want}\n", stats.stdout)


if __name__ == "__main__":
    unittest.main()

"""Checks the gauntlet's shards (nnue_scripts.shards, `--shard I/N`, `--report-only`):
the rule that gives each game to one shard, and whole gauntlets played by fake games
(match.play_game replaced by a function of the game's pairing, book and index, so no
engine runs): the shards' games are disjoint and together the unsplit run's, a shard
stopped half way resumes without replaying its finished games, and the report written
from the shards' files is byte for byte the unsplit run's."""

import contextlib
import io
import json
import os
import signal
import stat
import tempfile
import threading
import unittest
import zlib
from unittest import mock

from nnue_scripts import common, gauntlet, match, shards


class RuleTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(shards.parse_shard("3/16"), shards.Shard(3, 16))
        self.assertEqual(shards.parse_shard(" 0 / 1 "), shards.WHOLE)
        for text in ("5/4", "4/4", "1/0", "-1/4", "a/4", "3", "", "1/2/3"):
            with self.assertRaises(ValueError, msg=text) as caught:
                shards.parse_shard(text)
            self.assertEqual(str(caught.exception), f"'{text}' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16")

    def test_every_item_in_exactly_one_shard(self):
        items = list(range(23))
        parts = [shards.Shard(i, 4).select(items) for i in range(4)]
        self.assertEqual(parts[0], [0, 4, 8, 12, 16, 20])
        self.assertEqual(parts[3], [3, 7, 11, 15, 19])
        self.assertEqual(sorted(sum(parts, [])), items)
        self.assertEqual(shards.WHOLE.select(items), items)
        # Series k starts k shards further on, so one series' games spread over all shards.
        owned = [[i for i in range(8) if shards.Shard(s, 4).owns(i, series=3)] for s in range(4)]
        self.assertEqual(owned, [[1, 5], [2, 6], [3, 7], [0, 4]])
        self.assertEqual(shards.Shard(2, 4).folder(), os.path.join("shards", "2-of-4"))
        self.assertEqual(shards.WHOLE.folder(), "")

    def test_a_game_saved_twice_is_an_error_naming_both_files(self):
        merged = shards.merge_games([("a.json", {2: "g2", 0: "g0"}), ("b.json", {1: "g1"})])
        self.assertEqual(list(merged.items()), [(0, "g0"), (1, "g1"), (2, "g2")])
        with self.assertRaises(ValueError) as caught:
            shards.merge_games([("a.json", {2: "x"}), ("b.json", {2: "y"})])
        self.assertIn("game 2 is saved twice, in a.json and in b.json", str(caught.exception))

    def test_bad_shard_options_are_usage_errors(self):
        for argv, message in ((["--shard", "5/4"], "--shard '5/4' is not a shard: expected I/N"),
                              (["--shard", "1/4", "--report-only"], "--report-only reads every shard's games")):
            with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as exit:
                gauntlet.parse_args(argv)
            self.assertEqual(exit.exception.code, 2)
            self.assertIn(message, err.getvalue())


def fake_game(index, args, players, book):
    """A game whose result depends only on the pairing, the opening set and the index."""
    seed = zlib.crc32(f"{players[0].name}/{players[1].name}/{book[0]}/{index}".encode())
    a_score = (0.0, 0.5, 1.0)[seed % 3]
    a_is_white = index % 2 == 0
    white_score = a_score if a_is_white else 1.0 - a_score
    clock = {"moves": 20 + seed % 7, "seconds": 1.0, "min_left_ms": float(seed % 50), "overshoots": 0}
    return {"index": index, "a": players[0].name, "b": players[1].name,
            "result": {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white_score], "a_score": a_score,
            "termination": "normal", "problem": None, "plies": 40 + seed % 30, "forfeit": None,
            "a_clock": clock, "b_clock": clock, "pgn": f"[Round \"{index + 1}\"]"}


class Player:
    """Plays fake games and records which it played; after `stop_after` games the next
    one is 'killed' as SIGTERM kills an engine, which stops the run."""

    def __init__(self, stop_after=None):
        self.played, self.stop_after, self.lock = [], stop_after, threading.Lock()

    def __call__(self, index, args, players, book):
        game = fake_game(index, args, players, book)
        with self.lock:
            if self.stop_after is not None and len(self.played) >= self.stop_after:
                game.update(termination="crash", problem="engine failure: EngineTerminatedError("
                            "'engine process died unexpectedly (exit code: -15)') at 8/8/8/8/8/8/8/8 w - - 0 1")
                return game
            self.played.append((players[0].name, players[1].name, book[0], index))
        return game


class KilledTest(unittest.TestCase):
    def test_an_engine_killed_from_outside_is_no_result(self):
        def crash(code, termination="crash"):
            return {"termination": termination, "problem": "engine failure: EngineTerminatedError('engine process "
                                                            f"died unexpectedly (exit code: {code})') at 8/8 w - - 0 1"}
        self.assertEqual([gauntlet.killed_from_outside(crash(c)) for c in (-15, -2, -1, -11, -6, 1, -150)],
                         [15, 2, 1, None, None, None, None])
        self.assertIsNone(gauntlet.killed_from_outside(crash(-15, "time forfeit")))
        self.assertIsNone(gauntlet.killed_from_outside({"termination": "normal", "problem": None}))


class ShardedGauntletTest(unittest.TestCase):
    GAMES = 6

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.engine = os.path.join(self.dir.name, "engine")
        with open(self.engine, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(self.engine, stat.S_IRWXU)

    def tearDown(self):
        self.dir.cleanup()

    def argv(self, out, *extra):
        books = [os.path.join(common.ROOT, "data", name) for name in ("openings.epd", "openings-random.epd")]
        return ["--engine", self.engine, "--player", "classical:Use NNUE=false", "--player", "net",
                "--opponent", f"anchor:{self.engine}:UCI_LimitStrength=true,UCI_Elo=1500",
                "--opponent", f"other:{self.engine}", "--games", str(self.GAMES), "--tc", "1+0.01",
                "--book", books[0], "--book", books[1], "--concurrency", "2",
                "--out-dir", os.path.join(self.dir.name, out), *extra]

    def run_gauntlet(self, argv, player=None):
        player = player or Player()
        with mock.patch.object(match, "play_game", player), contextlib.redirect_stdout(io.StringIO()) as out, \
                contextlib.redirect_stderr(io.StringIO()) as err:
            status = gauntlet.main(argv)
        return status, player.played, out.getvalue(), err.getvalue()

    def failure(self, argv):
        """The exit status and standard error of a run that exits with an error."""
        with mock.patch.object(match, "play_game", Player()), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as exit:
            gauntlet.main(argv)
        return exit.exception.code, err.getvalue()

    def read(self, out, name):
        with open(os.path.join(self.dir.name, out, name)) as f:
            return f.read()

    def test_shards_split_the_games_and_report_as_the_unsplit_run(self):
        status, unsplit, _, _ = self.run_gauntlet(self.argv("whole"))
        self.assertEqual(status, 0)
        total = 2 * 2 * 2 * self.GAMES  # sets x players x opponents x games
        self.assertEqual(len(unsplit), total)
        played = []
        for index in (2, 0, 3, 1):  # any order
            status, games, out, _ = self.run_gauntlet(self.argv("split", "--shard", f"{index}/4"))
            self.assertEqual(status, 0)
            self.assertEqual(len(games), total // 4)
            played.append(set(games))
            last = index == 1
            self.assertEqual("report written to" in out, last, out)
            self.assertEqual(os.path.exists(os.path.join(self.dir.name, "split", "gauntlet.md")), last)
        for i in range(4):
            for j in range(i):
                self.assertEqual(played[i] & played[j], set())
        self.assertEqual(set().union(*played), set(unsplit))
        # Each shard saved its own files; the unsplit run's folder has none of them.
        self.assertEqual(sorted(os.listdir(os.path.join(self.dir.name, "split", "shards"))),
                         ["0-of-4", "1-of-4", "2-of-4", "3-of-4"])
        saved = json.loads(self.read("split", os.path.join("shards", "2-of-4", "openings", "net--other.json")))
        # net vs other in the first set is series 3: shard 2/4 has the games with (i + 3) mod 4 = 2.
        self.assertEqual([g["index"] for g in saved["games"]], [3])
        # The last shard's report, and --report-only's, are the unsplit run's.
        for name in ("gauntlet.md", "gauntlet.json"):
            self.assertEqual(self.read("split", name), self.read("whole", name), name)
        os.remove(os.path.join(self.dir.name, "split", "gauntlet.md"))
        status, games, out, _ = self.run_gauntlet(self.argv("split", "--report-only"))
        self.assertEqual((status, games), (0, []))
        for name in ("gauntlet.md", "gauntlet.json"):
            self.assertEqual(self.read("split", name), self.read("whole", name), name)
        # An unsplit run over the shards' games plays nothing.
        status, games, out, _ = self.run_gauntlet(self.argv("split"))
        self.assertEqual((status, games), (0, []))
        self.assertIn("0 games to play, 48 saved", out)

    def test_a_stopped_shard_resumes_and_a_missing_game_stops_the_report(self):
        status, first, _, err = self.run_gauntlet(self.argv("split", "--shard", "1/2"), Player(stop_after=5))
        # An engine killed by SIGTERM: the whole task is being stopped.
        self.assertEqual(status, 143)
        self.assertEqual(len(first), 5)
        self.assertIn("stopped by SIGTERM; finished games are saved", err)
        # The killed game was not saved as a result; the game played beside it (two at a
        # time) may have ended after it and was then not saved either.
        directory = os.path.join(self.dir.name, "split", "shards", "1-of-2")
        kept = self.count_saved(directory)
        self.assertIn(kept, (4, 5))
        status, rest, out, _ = self.run_gauntlet(self.argv("split", "--shard", "1/2"))
        self.assertEqual(status, 0)
        self.assertEqual(len(rest), 24 - kept)
        self.assertEqual(self.count_saved(directory), 24)
        self.assertIn("shard 1/2 done; 24 of the 48 games are not saved yet", out)
        code, err = self.failure(self.argv("split", "--report-only"))
        self.assertEqual(code, 1)
        self.assertIn("gauntlet.py: error: 24 of the 48 games are not saved yet in ", err)
        self.assertIn("; run the shards that play them, then --report-only again", err)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "split", "gauntlet.md")))
        status, last, out, _ = self.run_gauntlet(self.argv("split", "--shard", "0/2"))
        self.assertEqual((status, len(last)), (0, 24))
        self.assertIn("report written to", out)

    def test_sigterm_stops_a_shard_that_resumes_without_losing_or_repeating_a_game(self):
        class Terminating(Player):
            """Sends the run SIGTERM, as a scheduler pre-empting the task does, during game 4."""

            def __call__(self, index, args, players, book):
                with self.lock:
                    if len(self.played) == 3:
                        os.kill(os.getpid(), signal.SIGTERM)
                return super().__call__(index, args, players, book)

        # The handlers the run must give back: those it found (a test runner started
        # in the background inherits SIGINT ignored, so no fixed value is right).
        before = (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT))
        status, first, _, err = self.run_gauntlet(self.argv("split", "--shard", "0/2"), Terminating())
        self.assertEqual(status, 143)
        self.assertIn("stopped by SIGTERM; finished games are saved", err)
        self.assertEqual((signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)), before)
        directory = os.path.join(self.dir.name, "split", "shards", "0-of-2")
        kept = self.count_saved(directory)
        self.assertLessEqual(kept, len(first))
        self.assertGreaterEqual(kept, 3)
        status, rest, _, _ = self.run_gauntlet(self.argv("split", "--shard", "0/2"))
        self.assertEqual(status, 0)
        # The resumed run played exactly the games not kept: none lost, none twice.
        self.assertEqual(kept + len(rest), 24)
        self.assertEqual(self.count_saved(directory), 24)

    def count_saved(self, directory):
        """The games saved in a shard's folder, which holds nothing but whole pairing files."""
        count = 0
        for root, _, files in os.walk(directory):
            for name in files:
                self.assertTrue(name.endswith(".json"), name)
                with open(os.path.join(root, name)) as f:
                    count += len(json.load(f)["games"])
        return count

    def test_a_game_saved_by_two_runs_is_refused(self):
        self.run_gauntlet(self.argv("split", "--shard", "0/2"))
        # A run with another split over the same folder skips the saved games...
        status, games, _, _ = self.run_gauntlet(self.argv("split", "--shard", "0/3"))
        self.assertEqual(status, 0)
        self.assertEqual(len(games), 16 - 8)  # shard 0/3's 16 games less the 8 of them shard 0/2 has
        # ...but a game saved in two files cannot be counted once: an error naming both.
        first = os.path.join(self.dir.name, "split", "shards", "0-of-2", "openings", "classical--anchor.json")
        second = os.path.join(self.dir.name, "split", "shards", "0-of-3", "openings", "classical--anchor.json")
        with open(first) as f:
            record = json.load(f)
        with open(second) as f:
            other = json.load(f)
        other["games"].append(record["games"][0])
        with open(second, "w") as f:
            json.dump(other, f)
        code, err = self.failure(self.argv("split", "--report-only"))
        self.assertEqual(code, 1)
        self.assertIn(f"gauntlet.py: error: game 0 is saved twice, in {first} and in {second}", err)


if __name__ == "__main__":
    unittest.main()

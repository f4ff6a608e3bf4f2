"""nnue_scripts.clock_use: the time-use table read from [%clk]/[%emt] comments, checked on
games whose every clock is known, and its one-line errors."""

import contextlib
import io
import os
import tempfile
import unittest

from nnue_scripts import clock_use

# Two games between "fast" and "slow". Game 1: fast (White) ends every move with
# 4.0, 3.0, 2.0 s; slow with 4.5, 4.4. Game 2: slow is White (4.6, 4.2, 0.1 s: below
# 200 ms once), fast Black (3.0, 1.0).
PGN = """[White "fast"]
[Black "slow"]
[Result "*"]

1. e4 { [%emt 0:00:01] [%clk 0:00:04] } 1... e5 { [%emt 0:00:00.5] [%clk 0:00:04.5] }
2. Nf3 { [%emt 0:00:01] [%clk 0:00:03] } 2... Nc6 { [%emt 0:00:00.1] [%clk 0:00:04.4] }
3. Bb5 { [%emt 0:00:01] [%clk 0:00:02] } *

[White "slow"]
[Black "fast"]
[Result "*"]

1. d4 { [%emt 0:00:00.4] [%clk 0:00:04.6] } 1... d5 { [%emt 0:00:02] [%clk 0:00:03] }
2. c4 { [%emt 0:00:00.4] [%clk 0:00:04.2] } 2... e6 { [%emt 0:00:02] [%clk 0:00:01] }
3. Nc3 { [%emt 0:00:04.1] [%clk 0:00:00.1] } *
"""


class ClockUseTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "games.pgn")
        with open(self.path, "w") as f:
            f.write(PGN)

    def tearDown(self):
        self.tmp.cleanup()

    def test_medians_means_and_low_clocks_per_player(self):
        players = clock_use.tally([self.path])
        fast, slow = players["fast"], players["slow"]
        self.assertEqual((fast.games, slow.games), (2, 2))
        self.assertEqual(len(fast.spent), 5)
        self.assertEqual(sorted(fast.left_at[2]), [1.0, 3.0])
        self.assertEqual(fast.left_at[3], [2.0])
        self.assertEqual((fast.low_games, slow.low_games), (0, 1))
        lines = clock_use.table(players, [1, 2, 3])
        self.assertEqual(lines[2], "| fast | 2 | 5 | 1400 | 3.50 (2) | 2.00 (2) | 2.00 (1) | 0 |")
        self.assertEqual(lines[3], "| slow | 2 | 5 | 1100 | 4.55 (2) | 4.30 (2) | 0.10 (1) | 1 |")

    def test_errors_are_one_line_and_name_the_input(self):
        for argv, text in ((["/nonexistent/x.pgn"], "/nonexistent/x.pgn"),
                           ([self.path, "--moves", "10,x"], "--moves '10,x'"),
                           ([self.path, "--moves", "0"], "start at 1")):
            with self.assertRaises(SystemExit) as caught:
                clock_use.main(argv)
            self.assertIn(text, str(caught.exception))
            self.assertNotIn("\n", str(caught.exception))
        empty = os.path.join(self.tmp.name, "empty.pgn")
        open(empty, "w").close()
        with self.assertRaises(SystemExit) as caught:
            clock_use.main([empty])
        self.assertIn("no games", str(caught.exception))

    def test_the_command_prints_the_table(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(clock_use.main([self.path, "--moves", "1"]), 0)
        self.assertIn("| slow | 2 | 5 | 1100 | 4.55 (2) | 1 |", out.getvalue())


if __name__ == "__main__":
    unittest.main()

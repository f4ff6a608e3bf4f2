"""The selection rules of nnue_scripts.sf151_vectors (which positions the 15.1 vectors hold)."""

import os
import tempfile
import unittest

from nnue_scripts.sf151_vectors import every_nth, piece_count, read_fens, spread, stack_of, tsv_fens


class SelectionTest(unittest.TestCase):
    def test_stack_is_stockfish_15_1s_bucket(self):
        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        self.assertEqual(piece_count(start), 32)
        self.assertEqual(stack_of(start), 7)
        self.assertEqual(stack_of("8/8/8/8/8/8/2k5/K7 w - - 0 1"), 0)
        self.assertEqual(stack_of("8/8/8/8/8/2p5/2k2P2/K7 w - - 0 1"), 0)
        self.assertEqual(stack_of("8/8/8/8/8/2p5/2k2PP1/K7 w - - 0 1"), 1)

    def test_spread_is_even_and_keeps_short_lists(self):
        self.assertEqual(spread(list("abcdefgh"), 4), list("aceg"))
        self.assertEqual(spread(list("ab"), 4), list("ab"))

    def test_read_fens_dedups_in_order(self):
        text = "fen A w - - 0 1\nmove e2e4\nfen B b - - 0 1\nfen A w - - 0 1\n"
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.plain")
            with open(path, "w", encoding="ascii") as f:
                f.write(text)
            self.assertEqual(read_fens(path), ["A w - - 0 1", "B b - - 0 1"])

    def test_every_nth_picks_as_the_learner_test_does(self):
        items = [str(i) for i in range(512)]
        picked = every_nth(items, 60)
        self.assertEqual(len(picked), 60)
        self.assertEqual(picked[:3], ["0", "8", "17"])
        self.assertEqual(picked[-1], str(59 * 512 // 60))

    def test_tsv_fens_skips_comments(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.tsv")
            with open(path, "w", encoding="ascii") as f:
                f.write("# header\n# fen\traw\nA w - - 0 1\t5\nB b - - 0 1\t-7\n")
            self.assertEqual(tsv_fens(path), ["A w - - 0 1", "B b - - 0 1"])


if __name__ == "__main__":
    unittest.main()

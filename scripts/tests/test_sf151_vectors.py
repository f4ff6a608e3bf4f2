"""The selection rules of nnue_scripts.sf151_vectors (which positions the 15.1 vectors hold)."""

import os
import tempfile
import unittest

from nnue_scripts.sf151_vectors import piece_count, read_fens, spread, stack_of


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


if __name__ == "__main__":
    unittest.main()

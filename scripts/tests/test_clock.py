"""The match runner's forfeit rule (nnue_scripts.match.Clock), without engines: a move over
the time left by at most --time-margin ms is counted, not a forfeit, and its debt stays
on the clock."""

import argparse
import unittest

import chess

from nnue_scripts import match


def clock(tc="1+0.1", margin=0.0):
    parser = argparse.ArgumentParser()
    match.add_game_arguments(parser, "test")
    return match.Clock(parser.parse_args(["--tc", tc, "--time-margin", str(margin)]))


class ClockTest(unittest.TestCase):
    def test_without_a_margin_any_overshoot_forfeits(self):
        c = clock()
        self.assertTrue(c.charge(chess.WHITE, 0.9, None))  # 0.1 left, +0.1
        self.assertFalse(c.charge(chess.WHITE, 0.21, None))  # 10 ms over

    def test_an_overshoot_within_the_margin_is_counted_and_kept_as_debt(self):
        c = clock(margin=50)
        self.assertTrue(c.charge(chess.WHITE, 1.03, None))  # 30 ms over: -0.03, then +0.1
        self.assertAlmostEqual(c.left[chess.WHITE], 0.07)
        stats = c.side_stats(chess.WHITE)
        self.assertEqual((stats["moves"], stats["overshoots"], stats["min_left_ms"]), (1, 1, -30.0))
        self.assertTrue(c.charge(chess.WHITE, 0.05, None))
        self.assertEqual(c.side_stats(chess.WHITE)["min_left_ms"], -30.0)
        # 0.12 left; 0.18 is 60 ms over, beyond the 50 ms margin.
        self.assertFalse(c.charge(chess.WHITE, 0.18, None))
        self.assertEqual(c.side_stats(chess.WHITE)["min_left_ms"], -60.0)
        self.assertEqual(c.side_stats(chess.BLACK)["moves"], 0)

    def test_debt_adds_up_and_the_engine_is_told_a_positive_clock(self):
        c = clock(tc="1+0.01", margin=50)
        self.assertTrue(c.charge(chess.BLACK, 1.04, None))  # -0.04 + 0.01 = -0.03
        limit, _ = c.limit(1)
        self.assertEqual(limit.black_clock, match.Clock.MIN_CLOCK)
        self.assertFalse(c.charge(chess.BLACK, 0.025, None))  # -0.055: over the margin
        self.assertEqual(c.side_stats(chess.BLACK)["overshoots"], 2)


if __name__ == "__main__":
    unittest.main()
